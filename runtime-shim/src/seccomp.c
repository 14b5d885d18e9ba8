// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system call filter of the container's command: the rules of the
 * default profile, the text profile of --seccomp FILE, the OCI JSON, and
 * libseccomp, which turns them into BPF programs (seccomp_prog.c loads them).
 */
#include <errno.h>
#include <linux/netlink.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "errname.h"
#include "file.h"
#include "opts.h"
#include "seccomp.h"

/*
 * The default profile is an allowlist in the spirit of the runtime default
 * of Docker and podman (containers-common's seccomp.json): what is not
 * named fails with ENOSYS, so a C library falls back from calls newer than
 * the profile (clone3) instead of failing; what is refused on purpose
 * fails with EPERM.  The container's capabilities hold in its own user
 * namespace only, so where that profile allows a call with a capability
 * (CAP_SYS_ADMIN, CAP_SYS_PTRACE, ...) this one takes the branch for a
 * container without it.  runtime-shim/README.md lists the differences.
 */
static const char *const allow_calls[] = {
	"_llseek", "_newselect", "accept", "accept4", "access", "adjtimex",
	"alarm", "arch_prctl", "bind", "brk", "cachestat", "capget", "capset",
	"chdir", "chmod", "chown", "chroot", "clock_getres", "clock_gettime",
	"clock_nanosleep", "close", "close_range", "connect", "copy_file_range",
	"creat", "dup", "dup2", "dup3", "epoll_create", "epoll_create1",
	"epoll_ctl", "epoll_pwait", "epoll_pwait2", "epoll_wait", "eventfd",
	"eventfd2", "execve", "execveat", "exit", "exit_group", "faccessat",
	"faccessat2", "fadvise64", "fallocate", "fanotify_mark", "fchdir",
	"fchmod", "fchmodat", "fchmodat2", "fchown", "fchownat", "fcntl",
	"fdatasync", "fgetxattr", "flistxattr", "flock", "fork", "fremovexattr",
	"fsetxattr", "fstat", "fstatfs", "fsync", "ftruncate", "futex",
	"futex_waitv", "futimesat", "get_robust_list", "get_thread_area",
	"getcpu", "getcwd", "getdents", "getdents64", "getegid", "geteuid",
	"getgid", "getgroups", "getitimer", "getpeername", "getpgid", "getpgrp",
	"getpid", "getppid", "getpriority", "getrandom", "getresgid",
	"getresuid", "getrlimit", "getrusage", "getsid", "getsockname",
	"getsockopt", "gettid", "gettimeofday", "getuid", "getxattr",
	"inotify_add_watch", "inotify_init", "inotify_init1",
	"inotify_rm_watch", "io_cancel", "io_destroy", "io_getevents",
	"io_setup", "io_submit", "ioctl", "ioprio_get", "ioprio_set", "kill",
	"landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self",
	"lchown", "lgetxattr", "link", "linkat", "listen", "listxattr",
	"llistxattr", "lremovexattr", "lseek", "lsetxattr", "lstat", "madvise",
	"memfd_create", "mincore", "mkdir", "mkdirat", "mknod", "mknodat",
	"mlock", "mlock2", "mlockall", "mmap", "modify_ldt", "mount",
	"mprotect", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	"mq_timedsend", "mq_unlink", "mremap", "msgctl", "msgget", "msgrcv",
	"msgsnd", "msync", "munlock", "munlockall", "munmap",
	"name_to_handle_at", "nanosleep", "newfstatat", "open", "openat",
	"openat2", "pause", "pidfd_getfd", "pidfd_open", "pidfd_send_signal",
	"pipe", "pipe2", "pivot_root", "pkey_alloc", "pkey_free",
	"pkey_mprotect", "poll", "ppoll", "prctl", "pread64", "preadv",
	"preadv2", "prlimit64", "process_mrelease", "pselect6", "pwrite64",
	"pwritev", "pwritev2", "read", "readahead", "readlink", "readlinkat",
	"readv", "recvfrom", "recvmmsg", "recvmsg", "remap_file_pages",
	"removexattr", "rename", "renameat", "renameat2", "restart_syscall",
	"rmdir", "rseq", "rt_sigaction", "rt_sigpending", "rt_sigprocmask",
	"rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
	"rt_tgsigqueueinfo", "sched_get_priority_max", "sched_get_priority_min",
	"sched_getaffinity", "sched_getattr", "sched_getparam",
	"sched_getscheduler", "sched_rr_get_interval", "sched_setaffinity",
	"sched_setattr", "sched_setparam", "sched_setscheduler", "sched_yield",
	"seccomp", "select", "semctl", "semget", "semop", "semtimedop",
	"sendfile", "sendmmsg", "sendmsg", "sendto", "set_robust_list",
	"set_thread_area", "set_tid_address", "setdomainname", "setfsgid",
	"setfsuid", "setgid", "setgroups", "sethostname", "setitimer",
	"setpgid", "setpriority", "setregid", "setresgid", "setresuid",
	"setreuid", "setrlimit", "setsid", "setsockopt", "setuid", "setxattr",
	"shmat", "shmctl", "shmdt", "shmget", "shutdown", "sigaltstack",
	"signalfd", "signalfd4", "socketpair", "splice", "stat", "statfs",
	"statx", "symlink", "symlinkat", "sync", "sync_file_range", "syncfs",
	"sysinfo", "tee", "tgkill", "time", "timer_create", "timer_delete",
	"timer_getoverrun", "timer_gettime", "timer_settime", "timerfd_create",
	"timerfd_gettime", "timerfd_settime", "times", "tkill", "truncate",
	"umask", "umount2", "uname", "unlink", "unlinkat", "utime",
	"utimensat", "utimes", "vfork", "wait4", "waitid", "write", "writev",
};

/*
 * Refused with EPERM: calls that reach the whole host (modules, kexec,
 * reboot, swap, clocks, accounting, quotas, the kernel log, I/O ports),
 * another process's memory or kernel objects (ptrace, process_vm_*, kcmp,
 * process_madvise), other namespaces (setns), io_uring (its own syscall
 * surface, outside of seccomp's view once set up), the new mount API (a
 * second way to mount; mount(2) stays), key rings that are not
 * namespaced, userfaultfd, open_by_handle_at, and the obsolete calls
 * containers-common refuses.
 */
static const char *const deny_calls[] = {
	"acct", "add_key", "bdflush", "clock_adjtime", "clock_settime",
	"create_module", "delete_module", "finit_module", "fsconfig", "fsmount",
	"fsopen", "fspick", "get_kernel_syms", "get_mempolicy", "init_module",
	"io_pgetevents", "io_uring_enter", "io_uring_register",
	"io_uring_setup", "ioperm", "iopl", "kcmp", "kexec_file_load",
	"kexec_load", "keyctl", "lookup_dcookie", "mbind", "membarrier",
	"migrate_pages", "move_mount", "move_pages", "nfsservctl", "nice",
	"open_by_handle_at", "open_tree", "process_madvise", "process_vm_readv",
	"process_vm_writev", "ptrace", "query_module", "quotactl",
	"quotactl_fd", "reboot", "request_key", "set_mempolicy", "setns",
	"settimeofday", "stime", "swapoff", "swapon", "_sysctl", "sysfs",
	"syslog", "uselib", "userfaultfd", "ustat", "vhangup", "vm86",
	"vm86old", "vmsplice",
};
static const char *const bpf_calls[] = { "bpf", "perf_event_open" };

/* Namespace flags clone(2) and unshare(2) may not carry. */
static const uint64_t clone_ns_flags[] = {
	CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
	CLONE_NEWNET, CLONE_NEWCGROUP,
};
/* unshare also takes CLONE_NEWTIME, a bit clone(2) uses for its exit signal. */
#define SHIM_CLONE_NEWTIME 0x00000080ULL

/*
 * personality(2) values allowed, as containers-common: PER_LINUX,
 * PER_LINUX32, UNAME26, UNAME26|PER_LINUX32, and 0xffffffff (query).
 */
static const uint64_t personalities[] = { 0x0, 0x8, 0x20000, 0x20008, 0xffffffff };

/* What is not named fails with ENOSYS (see above). */
#define SHIM_SECCOMP_DEFAULT_ACTION SCMP_ACT_ERRNO(ENOSYS)

/* One rule: a system call, an action, up to two argument comparisons. */
struct shim_seccomp_rule {
	const char *name;
	uint32_t action;
	unsigned int n_cmp;
	struct scmp_arg_cmp cmp[2];
};

typedef int (*shim_seccomp_emit)(void *ctx, const struct shim_seccomp_rule *rule,
				 struct shim_err *err);

static int add_rule(scmp_filter_ctx ctx, const char *name, uint32_t action,
		    bool must_exist, const char *where, struct shim_err *err)
{
	int nr = seccomp_syscall_resolve_name(name);
	int r;

	if (nr == __NR_SCMP_ERROR) {
		if (must_exist)
			return shim_fail(err, 0, "%sunknown system call \"%s\"", where, name);
		return 0;	/* not on this architecture, or newer than libseccomp */
	}
	r = seccomp_rule_add(ctx, action, nr, 0);
	if (r == -EACCES)
		return 0;	/* same as the default action: nothing to do */
	if (r < 0)
		return shim_fail(err, -r, "%sseccomp rule for %s", where, name);
	return 0;
}

/*
 * The default profile, rule by rule, in the order it is built.  Both the
 * shim's own filter (shim_seccomp_default) and the OCI JSON for runc,
 * crun and podman (shim_seccomp_print_oci) are made from this one walk,
 * so the two cannot differ.
 */
static int default_rules(bool allow_bpf, shim_seccomp_emit emit, void *ctx,
			 struct shim_err *err)
{
	const struct {
		const char *const *names;
		size_t n;
		uint32_t action;
	} lists[] = {
		{ allow_calls, ARRAY_SIZE(allow_calls), SCMP_ACT_ALLOW },
		{ deny_calls, ARRAY_SIZE(deny_calls), SCMP_ACT_ERRNO(EPERM) },
		{ bpf_calls, ARRAY_SIZE(bpf_calls), allow_bpf ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EPERM) },
	};
	const struct {
		const char *name;
		uint64_t extra;
	} ns_calls[] = {
		{ "clone", 0 },
		{ "unshare", SHIM_CLONE_NEWTIME },
	};

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++)
		for (size_t i = 0; i < lists[l].n; i++) {
			struct shim_seccomp_rule rule = {
				.name = lists[l].names[i], .action = lists[l].action,
			};

			if (emit(ctx, &rule, err))
				return -1;
		}
	/*
	 * clone/unshare: allowed when arg0 carries none of the namespace
	 * flags, EPERM when it carries any (one rule per flag: libseccomp
	 * has no "masked not equal").  clone3's flags are behind a pointer:
	 * ENOSYS sends libc back to clone.
	 */
	for (size_t c = 0; c < ARRAY_SIZE(ns_calls); c++) {
		uint64_t all = ns_calls[c].extra;
		struct shim_seccomp_rule rule = {
			.name = ns_calls[c].name, .action = SCMP_ACT_ALLOW, .n_cmp = 1,
		};

		for (size_t i = 0; i < ARRAY_SIZE(clone_ns_flags); i++)
			all |= clone_ns_flags[i];
		rule.cmp[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, all, 0);
		if (emit(ctx, &rule, err))
			return -1;
		for (int bit = 0; bit < 64; bit++) {
			uint64_t f = 1ULL << bit;

			if (!(all & f))
				continue;
			rule.action = SCMP_ACT_ERRNO(EPERM);
			rule.cmp[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, f, f);
			if (emit(ctx, &rule, err))
				return -1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(personalities); i++) {
		struct shim_seccomp_rule rule = {
			.name = "personality", .action = SCMP_ACT_ALLOW, .n_cmp = 1,
			.cmp = { SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, personalities[i]) },
		};

		if (emit(ctx, &rule, err))
			return -1;
	}
	/*
	 * Any other socket but audit's: without CAP_AUDIT_WRITE in the
	 * initial namespace, EINVAL makes login tools go on without audit.
	 */
	{
		const struct shim_seccomp_rule sockets[] = {
			{ "socket", SCMP_ACT_ALLOW, 1, { SCMP_A0(SCMP_CMP_NE, AF_NETLINK) } },
			{ "socket", SCMP_ACT_ALLOW, 2, { SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
							 SCMP_A2(SCMP_CMP_NE, NETLINK_AUDIT) } },
			{ "socket", SCMP_ACT_ERRNO(EINVAL), 2, { SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
								 SCMP_A2(SCMP_CMP_EQ, NETLINK_AUDIT) } },
		};

		for (size_t i = 0; i < ARRAY_SIZE(sockets); i++)
			if (emit(ctx, &sockets[i], err))
				return -1;
	}
	return 0;
}

/* The emitter of the shim's own filter: one libseccomp rule each. */
static int emit_libseccomp(void *ctx, const struct shim_seccomp_rule *rule,
			   struct shim_err *err)
{
	int nr, r;

	if (rule->n_cmp == 0)
		return add_rule(ctx, rule->name, rule->action, false, "", err);
	nr = seccomp_syscall_resolve_name(rule->name);
	if (nr == __NR_SCMP_ERROR)
		return 0;
	r = seccomp_rule_add_array(ctx, rule->action, nr, rule->n_cmp, rule->cmp);
	if (r < 0)
		return shim_fail(err, -r, "seccomp rule for %s", rule->name);
	return 0;
}

int shim_seccomp_default(bool allow_bpf, scmp_filter_ctx *out,
			 struct shim_err *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = seccomp_init(SHIM_SECCOMP_DEFAULT_ACTION);

	if (!ctx)
		return shim_fail(err, ENOMEM, "seccomp_init");
	if (default_rules(allow_bpf, emit_libseccomp, ctx, err))
		return -1;
	*out = ctx;
	ctx = NULL;
	return 0;
}

/*
 * The OCI JSON emitter.  Argument-less rules with the same action are
 * gathered into one "names" entry; a rule with arguments is an entry of
 * its own, its comparisons ANDed as libseccomp does.
 */
struct oci_json {
	FILE *out;
	bool open;		/* a "names" entry is being filled */
	uint32_t action;	/* ... with this action */
	size_t entries;
};

static int oci_action(FILE *out, uint32_t action, struct shim_err *err)
{
	if (action == SCMP_ACT_ALLOW) {
		fputs("\"action\": \"SCMP_ACT_ALLOW\"", out);
		return 0;
	}
	if ((action & 0xffff0000U) == SCMP_ACT_ERRNO(0)) {
		fprintf(out, "\"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": %u", action & 0xffffU);
		return 0;
	}
	return shim_fail(err, EINVAL, "seccomp action 0x%x has no OCI name here", action);
}

static const char *oci_op(enum scmp_compare op)
{
	switch (op) {
	case SCMP_CMP_NE: return "SCMP_CMP_NE";
	case SCMP_CMP_LT: return "SCMP_CMP_LT";
	case SCMP_CMP_LE: return "SCMP_CMP_LE";
	case SCMP_CMP_EQ: return "SCMP_CMP_EQ";
	case SCMP_CMP_GE: return "SCMP_CMP_GE";
	case SCMP_CMP_GT: return "SCMP_CMP_GT";
	case SCMP_CMP_MASKED_EQ: return "SCMP_CMP_MASKED_EQ";
	default: return NULL;
	}
}

static int oci_close_names(struct oci_json *j, struct shim_err *err)
{
	if (!j->open)
		return 0;
	j->open = false;
	fputs("\n      ],\n      ", j->out);
	if (oci_action(j->out, j->action, err))
		return -1;
	fputs("\n    }", j->out);
	return 0;
}

static int emit_oci(void *ctx, const struct shim_seccomp_rule *rule, struct shim_err *err)
{
	struct oci_json *j = ctx;

	if (rule->n_cmp == 0 && j->open && j->action == rule->action) {
		fprintf(j->out, ",\n        \"%s\"", rule->name);
		return 0;
	}
	if (oci_close_names(j, err))
		return -1;
	fputs(j->entries++ ? ",\n    {\n" : "\n    {\n", j->out);
	if (rule->n_cmp == 0) {
		fprintf(j->out, "      \"names\": [\n        \"%s\"", rule->name);
		j->open = true;
		j->action = rule->action;
		return 0;
	}
	fprintf(j->out, "      \"names\": [ \"%s\" ],\n      ", rule->name);
	if (oci_action(j->out, rule->action, err))
		return -1;
	fputs(",\n      \"args\": [", j->out);
	for (unsigned int i = 0; i < rule->n_cmp; i++) {
		const struct scmp_arg_cmp *c = &rule->cmp[i];

		if (!oci_op(c->op))
			return shim_fail(err, EINVAL, "seccomp comparison %d has no OCI name", c->op);
		/* OCI's value/valueTwo are libseccomp's datum_a/datum_b (mask, value for MASKED_EQ). */
		fprintf(j->out, "%s\n        { \"index\": %u, \"value\": %llu, \"valueTwo\": %llu, \"op\": \"%s\" }",
			i ? "," : "", c->arg, (unsigned long long)c->datum_a,
			(unsigned long long)c->datum_b, oci_op(c->op));
	}
	fputs("\n      ]\n    }", j->out);
	return 0;
}

int shim_seccomp_print_oci(FILE *out, bool allow_bpf, struct shim_err *err)
{
	struct oci_json j = { .out = out };

	fprintf(out,
		"{\n"
		"  \"comment\": \"Generated by `shim seccomp-profile%s` from the rules of runtime-shim/src/seccomp.c: "
		"the default filter of shim run%s. Not listed: ENOSYS. Native architecture only, as the shim.\",\n"
		"  \"defaultAction\": \"SCMP_ACT_ERRNO\",\n"
		"  \"defaultErrnoRet\": %u,\n"
		"  \"syscalls\": [",
		allow_bpf ? " --bpf" : "",
		allow_bpf ? " with BPF delegated (bpf and perf_event_open allowed)" : "",
		SHIM_SECCOMP_DEFAULT_ACTION & 0xffffU);
	if (default_rules(allow_bpf, emit_oci, &j, err) || oci_close_names(&j, err))
		return -1;
	fputs("\n  ]\n}\n", out);
	if (fflush(out) == EOF || ferror(out))
		return shim_fail(err, errno, "write the OCI seccomp profile");
	return 0;
}

enum { PROFILE_OPT_HELP, PROFILE_OPT_BPF };

static const struct shim_opt profile_opts[] = {
	{ "--help", "-h", false, PROFILE_OPT_HELP },
	{ "--bpf", NULL, false, PROFILE_OPT_BPF },
};

int shim_seccomp_profile_main(int argc, char *const argv[])
{
	struct shim_err err = { 0 };
	bool bpf = false;

	for (int i = 1; i < argc; i++) {
		const char *v;
		int id, r;

		r = shim_opt_next("shim seccomp-profile", profile_opts, ARRAY_SIZE(profile_opts),
				  argc, argv, &i, &id, &v, &err);
		if (r == 0 && i < argc)
			r = shim_fail(&err, 0, "unexpected argument \"%s\" (see shim seccomp-profile --help)",
				      argv[i]);
		if (r <= 0) {
			shim_err_print_as("shim seccomp-profile", &err);
			return SHIM_EXIT_ERROR;
		}
		if (id == PROFILE_OPT_BPF) {
			bpf = true;
			continue;
		}
		fputs("usage: shim seccomp-profile [--bpf]\n"
		      "  Print shim run's default seccomp filter as an OCI seccomp profile\n"
		      "  (JSON, for runc, crun and podman --security-opt seccomp=FILE); with\n"
		      "  --bpf, bpf(2) and perf_event_open(2) allowed, as with delegation.\n", stdout);
		return 0;
	}
	if (shim_seccomp_print_oci(stdout, bpf, &err)) {
		shim_err_print(&err);
		return SHIM_EXIT_ERROR;
	}
	return 0;
}

int shim_seccomp_parse_action(const char *word, uint32_t *action)
{
	if (strcmp(word, "allow") == 0) {
		*action = SCMP_ACT_ALLOW;
	} else if (strcmp(word, "kill") == 0) {
		*action = SCMP_ACT_KILL_PROCESS;
	} else if (strcmp(word, "trap") == 0) {
		*action = SCMP_ACT_TRAP;
	} else if (strcmp(word, "log") == 0) {
		*action = SCMP_ACT_LOG;
	} else if (strcmp(word, "errno") == 0) {
		*action = SCMP_ACT_ERRNO(EPERM);
	} else if (strncmp(word, "errno:", 6) == 0) {
		const char *v = word + 6;
		char *end;
		long n;

		/* Any name the C library knows (errname.c), not a few. */
		if (shim_errno_from_name(v) > 0) {
			*action = SCMP_ACT_ERRNO((uint32_t)shim_errno_from_name(v));
			return 0;
		}
		if (*v < '0' || *v > '9')
			return -1;
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || *end || n < 0 || n > 4095)
			return -1;
		*action = SCMP_ACT_ERRNO((uint32_t)n);
	} else {
		return -1;
	}
	return 0;
}

int shim_seccomp_from_text(const char *text, const char *name,
			   scmp_filter_ctx *out, struct shim_err *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = NULL;
	uint32_t def = SCMP_ACT_ALLOW;
	char *line;
	int lineno = 0;

	/* Two passes: the first checks every line and finds the default. */
	for (int pass = 0; pass < 2; pass++) {
		char *buf = strdup(text);

		if (!buf)
			return shim_fail(err, ENOMEM, "seccomp profile %s", name);
		lineno = 0;
		if (pass == 1) {
			ctx = seccomp_init(def);
			if (!ctx) {
				shim_fail(err, ENOMEM, "seccomp_init");
				free(buf);
				return -1;
			}
		}
		for (char *next = buf; next;) {
			char where[512], *hash, *w1, *w2, *w3, *lsave = NULL;
			uint32_t action = SCMP_ACT_ERRNO(EPERM);

			line = next;
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';

			lineno++;
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			w1 = strtok_r(line, " \t\r", &lsave);
			if (!w1)
				continue;
			w2 = strtok_r(NULL, " \t\r", &lsave);
			w3 = strtok_r(NULL, " \t\r", &lsave);
			snprintf(where, sizeof(where), "seccomp profile %s:%d: ", name, lineno);
			if (w3) {
				shim_fail(err, 0, "%sline \"%s %s %s\": too many words", where, w1, w2, w3);
				free(buf);
				return -1;
			}
			if (w2 && shim_seccomp_parse_action(w2, &action)) {
				shim_fail(err, 0,
						 "%sunknown action \"%s\" (valid: allow, errno, errno:N, errno:ENAME, kill, trap, log)",
						 where, w2);
				free(buf);
				return -1;
			}
			if (strcmp(w1, "default") == 0) {
				if (!w2) {
					shim_fail(err, 0, "%s\"default\" needs an action", where);
					free(buf);
					return -1;
				}
				if (pass == 0)
					def = action;
				continue;
			}
			if (pass == 0) {
				if (seccomp_syscall_resolve_name(w1) == __NR_SCMP_ERROR) {
					shim_fail(err, 0, "%sunknown system call \"%s\"", where, w1);
					free(buf);
					return -1;
				}
				continue;
			}
			if (add_rule(ctx, w1, action, true, where, err)) {
				free(buf);
				return -1;
			}
		}
		free(buf);
	}
	*out = ctx;
	ctx = NULL;
	return 0;
}

int shim_seccomp_export_bpf(scmp_filter_ctx ctx, struct sock_filter **insns, size_t *n,
			    struct shim_err *err)
{
	/* libseccomp 2.5 exports only to an fd (seccomp_export_bpf_mem is 2.6). */
	cleanup_fd int fd = memfd_create("shim-seccomp-bpf", MFD_CLOEXEC);
	char *buf = NULL;
	size_t len;
	int r;

	if (fd < 0)
		return shim_fail(err, errno, "seccomp filter export: memfd_create");
	r = seccomp_export_bpf(ctx, fd);
	if (r < 0)
		return shim_fail(err, -r, "seccomp filter export (libseccomp)");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return shim_fail(err, errno, "seccomp filter export: lseek");
	/* BPF_MAXINSNS instructions: more is no filter the kernel takes. */
	if (shim_read_all(fd, BPF_MAXINSNS * sizeof(struct sock_filter), &buf, &len,
			  "the exported seccomp filter", err))
		return -1;
	if (len == 0 || len % sizeof(struct sock_filter)) {
		free(buf);
		return shim_fail(err, EINVAL, "seccomp filter export: %zu bytes, not a BPF program", len);
	}
	*insns = (struct sock_filter *)buf;
	*n = len / sizeof(struct sock_filter);
	return 0;
}
