// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command's seccomp program: chosen or generated before the container
 * starts, loaded with seccomp(2) by its init.  The default profile costs no
 * libseccomp work at run time: its two programs were generated when the
 * shim was built (seccomp_gen.c; tests/test_seccomp.c checks them).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "seccomp.h"
#include "seccomp_prog.h"

/*
 * libseccomp generated the built-in programs for the build machine's
 * native architecture, and their first instructions kill any other: they
 * are right only for an x86-64 shim, the one this project builds.
 */
#if !defined(__x86_64__) || defined(__ILP32__)
#error "the built-in seccomp programs (seccomp-gen) are x86-64 programs: build the shim for x86-64"
#endif

void shim_seccomp_prog_default(bool allow_bpf, struct shim_seccomp_prog *out)
{
	const struct shim_seccomp_builtin *b = &shim_seccomp_builtin[allow_bpf];

	/* sock_fprog's pointer is not const; the kernel only reads through it. */
	*out = (struct shim_seccomp_prog){
		.fprog = { .len = b->len, .filter = (struct sock_filter *)b->insns },
	};
}

int shim_seccomp_prog_load(const struct shim_seccomp_prog *prog)
{
	/*
	 * No TSYNC (the init has one thread), LOG, SPEC_ALLOW or listener:
	 * seccomp_load's flags under libseccomp's default attributes.
	 */
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog->fprog) == 0)
		return 0;
	if (errno != ENOSYS)
		return -errno;
	/*
	 * Without flags, prctl installs the same filter: libseccomp falls back
	 * to it too, and tools that emulate system calls know prctl but not
	 * always seccomp(2) (valgrind 3.19, Debian 12's, answers ENOSYS).
	 */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog->fprog, 0, 0) < 0)
		return -errno;
	return 0;
}

void shim_seccomp_prog_release(struct shim_seccomp_prog *prog)
{
	free(prog->owned);
	*prog = (struct shim_seccomp_prog){ 0 };
}

static int read_file(const char *path, char **out, struct shim_err *err)
{
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC);
	cleanup_free char *buf = NULL;
	struct stat st;
	size_t off = 0;

	if (fd < 0)
		return shim_fail(err, errno, "--seccomp: open %s", path);
	if (fstat(fd, &st) < 0)
		return shim_fail(err, errno, "--seccomp: stat %s", path);
	if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20))
		return shim_fail(err, 0, "--seccomp: %s is not a regular file of at most 1 MiB", path);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return shim_fail(err, errno, "--seccomp: read %s", path);
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return shim_fail(err, errno, "--seccomp: read %s", path);
		if (n == 0)
			break;
		off += (size_t)n;
	}
	buf[off] = '\0';
	*out = buf;
	buf = NULL;
	return 0;
}

/* A --seccomp FILE profile: libseccomp builds it, its program is exported for the init. */
static int prog_from_file(const char *path, struct shim_seccomp_prog *out, struct shim_err *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = NULL;
	cleanup_free char *text = NULL;
	struct sock_filter *insns;
	size_t n;

	if (read_file(path, &text, err) || shim_seccomp_from_text(text, path, &ctx, err))
		return -1;
	if (shim_seccomp_export_bpf(ctx, &insns, &n, err))
		return shim_fail_wrap(err, "--seccomp %s", path);
	*out = (struct shim_seccomp_prog){
		.fprog = { .len = (unsigned short)n, .filter = insns }, .owned = insns,
	};
	return 0;
}

int shim_seccomp_build(const struct shim_config *cfg, struct shim_seccomp_prog *out,
		       struct shim_err *err)
{
	*out = (struct shim_seccomp_prog){ 0 };
	switch (cfg->seccomp) {
	case SHIM_SECCOMP_NONE:
		return 0;
	case SHIM_SECCOMP_DEFAULT:
		shim_seccomp_prog_default(shim_config_delegates(cfg), out);
		return 0;
	case SHIM_SECCOMP_FILE:
		return prog_from_file(cfg->seccomp_file, out, err);
	}
	return shim_fail(err, EINVAL, "seccomp mode");
}
