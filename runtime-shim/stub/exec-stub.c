// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec stub (src/execstub.h): the command's process executes it
 * from a sealed memfd, and it executes the command.  It is the last
 * program between the shim and the container, so it stays small, static
 * and without a C library: a few pages to copy and to load, no dynamic
 * loader, nothing to read but its arguments and environment.
 *
 * Command line: shim-exec-stub REPORT_FD FILE ARG...  FILE is looked up
 * as execvp(3) looks it up, in the PATH of the environment, and a file
 * the kernel cannot execute (ENOEXEC) runs under /bin/sh.
 *
 * x86-64 only, as the shim's seccomp programs are.
 */
#define SHIM_EXEC_STUB_FREESTANDING
#include "../src/execstub.h"

#define SYS_write 1
#define SYS_execve 59
#define SYS_exit_group 231
#define SYS_fcntl 72
#define F_SETFD 2
#define FD_CLOEXEC 1
#define EACCES 13
#define ENOENT 2
#define ENOEXEC 8
#define ENOTDIR 20
#define ENODEV 19
#define ESTALE 116
#define ETIMEDOUT 110
#define ENAMETOOLONG 36
#define PATH_MAX 4096

/* The entry point: the kernel's stack holds argc, argv, NULL, envp, NULL. */
__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call stub_main\n"
	"	hlt\n");

static long syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noreturn)) static void stub_exit(int status)
{
	for (;;)
		syscall3(SYS_exit_group, status, 0, 0);
}

static unsigned long length(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void say(const char *msg)
{
	syscall3(SYS_write, 2, (long)msg, (long)length(msg));
}

/* execve(2); returns the error number. */
static int try_exec(const char *path, char *const argv[], char *const envp[])
{
	return (int)-syscall3(SYS_execve, (long)path, (long)argv, (long)envp);
}

/*
 * A file the kernel does not recognise is a shell script without "#!",
 * as execvp(3) takes it: /bin/sh FILE ARG....  slot[0] is ours to
 * overwrite (REPORT_FD), and slot[1] is the command's own argv[0].
 */
static int exec_script(const char *path, char **slot, char *const envp[])
{
	slot[0] = (char *)"/bin/sh";
	slot[1] = (char *)path;
	return try_exec("/bin/sh", slot, envp);
}

static const char *path_of(char *const envp[])
{
	for (; *envp; envp++) {
		const char *e = *envp;

		if (e[0] == 'P' && e[1] == 'A' && e[2] == 'T' && e[3] == 'H' && e[4] == '=')
			return e + 5;
	}
	/* glibc's default (confstr _CS_PATH) when the environment has none. */
	return "/bin:/usr/bin";
}

/*
 * execvp(3)'s search: each PATH entry in turn (an empty one is the
 * working directory); a missing file goes on to the next, a denied one
 * too but is remembered, anything else ends the search.
 */
static int exec_search(const char *file, char **slot, char *const envp[])
{
	const char *dirs = path_of(envp);
	unsigned long flen = length(file);
	char buf[PATH_MAX];
	int err = ENOENT, denied = 0;

	if (flen == 0)
		return ENOENT;
	for (const char *p = file; *p; p++) {
		if (*p == '/') {
			err = try_exec(file, slot + 1, envp);
			return err == ENOEXEC ? exec_script(file, slot, envp) : err;
		}
	}
	for (;;) {
		const char *end = dirs;
		unsigned long dlen, n = 0;

		while (*end && *end != ':')
			end++;
		dlen = (unsigned long)(end - dirs);
		if (dlen + 1 + flen + 1 > sizeof(buf)) {
			err = ENAMETOOLONG;
		} else {
			for (unsigned long i = 0; i < dlen; i++)
				buf[n++] = dirs[i];
			if (dlen)
				buf[n++] = '/';
			for (unsigned long i = 0; i <= flen; i++)
				buf[n++] = file[i];
			err = try_exec(buf, slot + 1, envp);
			if (err == ENOEXEC)
				return exec_script(buf, slot, envp);
		}
		if (err == EACCES)
			denied = 1;
		else if (err != ENOENT && err != ESTALE && err != ENOTDIR && err != ENODEV &&
			 err != ETIMEDOUT && err != ENAMETOOLONG)
			return err;
		if (!*end)
			return denied ? EACCES : err;
		dirs = end + 1;
	}
}

static int parse_fd(const char *s)
{
	int fd = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || fd > 100000)
			return -1;
		fd = fd * 10 + (*s - '0');
	}
	return fd;
}

__attribute__((noreturn, used)) void stub_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	struct shim_exec_failure f = { SHIM_EXEC_STEP_COMMAND, 0 };
	int fd;

	/*
	 * Run any other way (a script naming /proc/self/exe as its
	 * interpreter lands here): say so, and end.
	 */
	fd = argc >= 3 ? parse_fd(argv[1]) : -1;
	if (fd < 3 || syscall3(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC) < 0) {
		say(SHIM_EXEC_STUB_NAME ": started by something other than shim run: nothing to do\n");
		stub_exit(127);
	}
	f.errnum = exec_search(argv[2], argv + 1, envp);
	syscall3(SYS_write, fd, (long)&f, sizeof(f));
	stub_exit(127);
}
