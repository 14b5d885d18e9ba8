// SPDX-License-Identifier: GPL-2.0-or-later
/* Seccomp profile construction: the default profile and FILE profiles. */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <json-c/json.h>

#include "testutil.h"

#include "seccomp.h"
#include "seccomp_prog.h"

/* The filter in libseccomp's readable pseudo-filter-code form. */
static char *pfc(scmp_filter_ctx ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = tmpfile();
	long size;

	assert_non_null(f);
	assert_int_equal(seccomp_export_pfc(ctx, fileno(f)), 0);
	fflush(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)size + 1);
	len = fread(buf, 1, (size_t)size, f);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static bool mentions(const char *pfc_text, const char *syscall)
{
	char needle[128];

	snprintf(needle, sizeof(needle), "\"%s\"", syscall);
	return strstr(pfc_text, needle) != NULL;
}

/*
 * The default profile as behaviour: a forked child loads the program (as
 * the container's command does, under no_new_privs) and makes one call;
 * its exit status is the call's errno, 0 for success, 255 when the filter
 * did not load.  With prog NULL the call runs unfiltered, as a control.
 */
struct call {
	const char *what;
	long nr;
	long a[6];
};

static int errno_under(const struct shim_seccomp_prog *prog, const struct call *c)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		long r;

		if (prog && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || shim_seccomp_prog_load(prog)))
			_exit(255);
		r = syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
		_exit(r < 0 ? (errno & 0xff) : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fail_msg("%s: the child died with signal %d", c->what, WTERMSIG(status));
	assert_int_not_equal(WEXITSTATUS(status), 255);
	return WEXITSTATUS(status);
}

static void expect(const struct shim_seccomp_prog *prog, const struct call *c, int want)
{
	int got = errno_under(prog, c);

	if (got != want)
		fail_msg("%s: errno %d (%s), want %d (%s)", c->what, got,
			 got ? strerrorname_np(got) : "success", want,
			 want ? strerrorname_np(want) : "success");
}

static void test_default_denies(void **state)
{
	static struct iovec iov;
	static struct io_uring_params_stub { uint32_t v[30]; } params;
	const long self = getpid();
	/* Each must fail with EPERM under the default profile. */
	const struct call denied[] = {
		{ "unshare(CLONE_NEWUSER)", SYS_unshare, { CLONE_NEWUSER } },
		{ "unshare(CLONE_NEWNS)", SYS_unshare, { CLONE_NEWNS } },
		{ "unshare(CLONE_NEWTIME)", SYS_unshare, { 0x80 } },
		{ "clone(CLONE_NEWUSER)", SYS_clone, { CLONE_NEWUSER | SIGCHLD } },
		{ "clone(CLONE_NEWNET)", SYS_clone, { CLONE_NEWNET | SIGCHLD } },
		{ "ptrace(PTRACE_TRACEME)", SYS_ptrace, { PTRACE_TRACEME } },
		{ "process_vm_readv", SYS_process_vm_readv, { self, (long)&iov, 1, (long)&iov, 1, 0 } },
		{ "kcmp", SYS_kcmp, { self, self, 0 /* KCMP_FILE */, 0, 0 } },
		{ "io_uring_setup", SYS_io_uring_setup, { 1, (long)&params } },
		{ "fsopen", SYS_fsopen, { (long)"tmpfs", 0 } },
		{ "setns", SYS_setns, { 0, 0 } },
		{ "bpf", SYS_bpf, { 0, 0, 0 } },
		{ "perf_event_open", SYS_perf_event_open, { 0, 0, -1, -1, 0 } },
		{ "kexec_load", SYS_kexec_load, { 0, 0, 0, 0 } },
		{ "open_by_handle_at", SYS_open_by_handle_at, { -1, 0, 0 } },
		{ "keyctl", SYS_keyctl, { 0 } },
		{ "userfaultfd", SYS_userfaultfd, { 0 } },
	};
	/* Not in the profile at all: ENOSYS, as for a call newer than it. */
	const struct call unknown[] = {
		{ "personality(PER_BSD)", SYS_personality, { 0x0006 } },
		{ "personality(READ_IMPLIES_EXEC)", SYS_personality, { 0x0400000 } },
		{ "clone3", SYS_clone3, { 0, 0 } },
		{ "mount_setattr", SYS_mount_setattr, { -1, 0, 0, 0, 0 } },
	};
	struct shim_seccomp_prog prog;

	(void)state;
	shim_seccomp_prog_default(false, &prog);
	for (size_t i = 0; i < ARRAY_SIZE(denied); i++)
		expect(&prog, &denied[i], EPERM);
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++)
		expect(&prog, &unknown[i], ENOSYS);
	/*
	 * Controls: unfiltered, the kernel answers differently, so the
	 * answers above are the filter's.
	 */
	assert_int_not_equal(errno_under(NULL, &denied[5]), EPERM);	/* ptrace */
	assert_int_not_equal(errno_under(NULL, &denied[7]), EPERM);	/* kcmp */
	assert_int_not_equal(errno_under(NULL, &denied[10]), EPERM);	/* setns: EBADF/EINVAL */
	assert_int_not_equal(errno_under(NULL, &unknown[0]), ENOSYS);	/* personality */
}

static void test_default_allows(void **state)
{
	static struct utsname uts;
	int fds[2];
	/* A normal workload's calls, and the allowed forms of the filtered ones. */
	const struct call allowed[] = {
		{ "getpid", SYS_getpid, { 0 } },
		{ "personality(0xffffffff)", SYS_personality, { 0xffffffff } },
		{ "personality(PER_LINUX)", SYS_personality, { 0 } },
		{ "unshare(CLONE_FS)", SYS_unshare, { CLONE_FS } },
		{ "unshare(CLONE_FILES)", SYS_unshare, { CLONE_FILES } },
		{ "pipe2", SYS_pipe2, { (long)fds, O_CLOEXEC } },
		{ "uname", SYS_uname, { (long)&uts } },
		{ "socket(AF_UNIX)", SYS_socket, { AF_UNIX, SOCK_STREAM, 0 } },
		{ "prctl(PR_GET_DUMPABLE)", SYS_prctl, { PR_GET_DUMPABLE } },
	};
	const struct call audit = { "socket(NETLINK_AUDIT)", SYS_socket,
				    { AF_NETLINK, SOCK_RAW, NETLINK_AUDIT } };
	/* A fork as glibc makes it: clone with SIGCHLD and no namespace flag. */
	const struct call fork_call = { "clone(SIGCHLD)", SYS_clone, { SIGCHLD } };
	struct shim_seccomp_prog prog;

	(void)state;
	shim_seccomp_prog_default(false, &prog);
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		expect(&prog, &allowed[i], 0);
	expect(&prog, &audit, EINVAL);
	/* The clone's child returns 0 and exits 0 too: both paths are "success". */
	expect(&prog, &fork_call, 0);
}

/* Threads start under the filter: clone3 says ENOSYS and glibc falls back to clone. */
static void *thread_fn(void *arg)
{
	return arg;
}

static void test_default_threads(void **state)
{
	struct shim_seccomp_prog prog;
	int status;
	pid_t pid;

	(void)state;
	shim_seccomp_prog_default(false, &prog);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t t;
		void *ret = NULL;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || shim_seccomp_prog_load(&prog))
			_exit(255);
		if (pthread_create(&t, NULL, thread_fn, (void *)7) || pthread_join(t, &ret))
			_exit(1);
		_exit(ret == (void *)7 ? 0 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_default_bpf_delegated(void **state)
{
	/* bpf with an unknown command: the kernel says EINVAL to root. */
	const struct call bpf_call = { "bpf(-1)", SYS_bpf, { -1, 0, 0 } };
	struct shim_seccomp_prog prog;

	(void)state;
	shim_seccomp_prog_default(true, &prog);
	/* The rest of the profile is unchanged by delegation. */
	expect(&prog, &(struct call){ "ptrace", SYS_ptrace, { PTRACE_TRACEME } }, EPERM);
	/* Unprivileged, the kernel may refuse bpf(2) itself (unprivileged_bpf_disabled). */
	if (geteuid() != 0)
		skip();
	expect(&prog, &bpf_call, EINVAL);
}

static void test_file(void **state)
{
	scmp_filter_ctx ctx = NULL;
	struct shim_err err = { 0 };
	char *text;

	(void)state;
	assert_int_equal(shim_seccomp_from_text(
		"# test profile\n"
		"\n"
		"default allow\n"
		"mkdir errno:EACCES\n"
		"unshare kill   # no new namespaces\n"
		"uname errno:38\n"
		"getpid log\n"
		"read allow\n"
		"chroot\n", "t", &ctx, &err), 0);
	text = pfc(ctx);
	assert_true(mentions(text, "mkdir"));
	assert_true(mentions(text, "unshare"));
	assert_true(mentions(text, "chroot"));
	assert_true(mentions(text, "uname"));
	assert_false(mentions(text, "read"));	/* same as the default */
	assert_contains(text, "ERRNO(13)");
	assert_contains(text, "ERRNO(38)");
	free(text);
	seccomp_release(ctx);

	assert_int_equal(shim_seccomp_from_text("default errno\nread allow\nwrite allow\n", "t", &ctx, &err), 0);
	text = pfc(ctx);
	assert_true(mentions(text, "read"));
	assert_contains(text, "ERRNO(1)");
	free(text);
	seccomp_release(ctx);
}

static void test_file_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "read allow\nfrobnicate\n", "seccomp profile p:2: unknown system call \"frobnicate\"" },
		{ "read maybe\n", "seccomp profile p:1: unknown action \"maybe\" (valid: allow, errno, errno:N, errno:ENAME, kill, trap, log)" },
		{ "read errno:EWHAT\n", "unknown action \"errno:EWHAT\"" },
		{ "read errno:5000\n", "unknown action \"errno:5000\"" },
		{ "\n\ndefault\n", "seccomp profile p:3: \"default\" needs an action" },
		{ "read allow now\n", "seccomp profile p:1: line \"read allow now\": too many words" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		scmp_filter_ctx ctx = NULL;
		struct shim_err err = { 0 };

		assert_int_equal(shim_seccomp_from_text(cases[i].text, "p", &ctx, &err), -1);
		assert_null(ctx);
		assert_contains(err.msg, cases[i].msg);
	}
}

static void test_actions(void **state)
{
	uint32_t a;

	(void)state;
	assert_int_equal(shim_seccomp_parse_action("allow", &a), 0);
	assert_int_equal(a, SCMP_ACT_ALLOW);
	assert_int_equal(shim_seccomp_parse_action("errno", &a), 0);
	assert_int_equal(a, SCMP_ACT_ERRNO(EPERM));
	assert_int_equal(shim_seccomp_parse_action("errno:ENOSYS", &a), 0);
	assert_int_equal(a, SCMP_ACT_ERRNO(ENOSYS));
	assert_int_equal(shim_seccomp_parse_action("errno:0", &a), 0);
	assert_int_equal(a, SCMP_ACT_ERRNO(0));
	assert_int_equal(shim_seccomp_parse_action("kill", &a), 0);
	assert_int_equal(a, SCMP_ACT_KILL_PROCESS);
	assert_int_equal(shim_seccomp_parse_action("errno:", &a), -1);
	assert_int_equal(shim_seccomp_parse_action("Allow", &a), -1);
}

static void test_build_from_config(void **state)
{
	char path[] = "/tmp/shim-test-seccomp-XXXXXX";
	static const char profile[] = "default allow\nmkdir errno:EACCES\n";
	const struct call mkdir_call = { "mkdir", SYS_mkdir, { (long)"/nonexistent/d", 0700 } };
	struct shim_config cfg = { .seccomp = SHIM_SECCOMP_FILE, .seccomp_file = "/nonexistent/p" };
	struct shim_seccomp_prog prog;
	struct shim_err err = { 0 };
	int fd;

	(void)state;
	assert_int_equal(shim_seccomp_build(&cfg, &prog, &err), -1);
	assert_contains(err.msg, "--seccomp: open /nonexistent/p: No such file or directory");
	cfg.seccomp = SHIM_SECCOMP_NONE;
	assert_int_equal(shim_seccomp_build(&cfg, &prog, &err), 0);
	assert_int_equal(prog.fprog.len, 0);

	/* A FILE profile: libseccomp's program, exported, loaded by seccomp(2). */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, profile, sizeof(profile) - 1), (ssize_t)sizeof(profile) - 1);
	close(fd);
	cfg.seccomp = SHIM_SECCOMP_FILE;
	cfg.seccomp_file = path;
	assert_int_equal(shim_seccomp_build(&cfg, &prog, &err), 0);
	unlink(path);
	assert_non_null(prog.owned);
	assert_true(prog.fprog.len > 3);
	expect(&prog, &mkdir_call, EACCES);
	assert_int_equal(errno_under(NULL, &mkdir_call), ENOENT);
	shim_seccomp_prog_release(&prog);
	assert_null(prog.owned);

	/* The default: the built-in program, nothing to free. */
	cfg.seccomp = SHIM_SECCOMP_DEFAULT;
	assert_int_equal(shim_seccomp_build(&cfg, &prog, &err), 0);
	assert_null(prog.owned);
	assert_ptr_equal(prog.fprog.filter, shim_seccomp_builtin[0].insns);
}

/*
 * The built-in programs are what the libseccomp installed now generates
 * from seccomp.c's rules, byte for byte, with and without BPF.  When it
 * is another libseccomp than the build's, its program may differ: the
 * failure says so, and a rebuild generates them again.
 */
static void test_builtin_is_libseccomps(void **state)
{
	const struct scmp_version *v = seccomp_version();

	(void)state;
	for (int bpf = 0; bpf <= 1; bpf++) {
		cleanup_seccomp scmp_filter_ctx ctx = NULL;
		cleanup_free struct sock_filter *insns = NULL;
		const struct shim_seccomp_builtin *b = &shim_seccomp_builtin[bpf];
		struct shim_err err = { 0 };
		size_t n, i;

		assert_int_equal(shim_seccomp_default(bpf, &ctx, &err), 0);
		assert_int_equal(shim_seccomp_export_bpf(ctx, &insns, &n, &err), 0);
		for (i = 0; i < n && i < b->len; i++)
			if (memcmp(&insns[i], &b->insns[i], sizeof(insns[i])))
				break;
		if (i < n || n != b->len) {
			char now[32];

			snprintf(now, sizeof(now), "%u.%u.%u", v->major, v->minor, v->micro);
			fail_msg("the built-in program%s (%u instructions, libseccomp %s at build time) "
				 "differs from libseccomp %s's (%zu instructions) from instruction %zu: %s",
				 bpf ? " with BPF" : "", b->len, shim_seccomp_builtin_libseccomp,
				 now, n, i, strcmp(now, shim_seccomp_builtin_libseccomp) ?
				 "libseccomp changed since the build; build the shim again" :
				 "same libseccomp, so the generated source is stale or was edited");
		}
	}
}

/*
 * shim_seccomp_prog_load passes no flags and leaves no_new_privs to its
 * caller: right while libseccomp's filters carry the attributes that make
 * seccomp_load do the same (no TSYNC, LOG or SSB; NNP, which the init sets
 * itself before loading).
 */
static void test_load_flags_are_libseccomps(void **state)
{
	static const struct {
		enum scmp_filter_attr attr;
		uint32_t want;
		const char *name;
	} attrs[] = {
		{ SCMP_FLTATR_CTL_NNP, 1, "NNP" },
		{ SCMP_FLTATR_CTL_TSYNC, 0, "TSYNC" },
		{ SCMP_FLTATR_CTL_LOG, 0, "LOG" },
		{ SCMP_FLTATR_CTL_SSB, 0, "SSB" },
	};
	cleanup_seccomp scmp_filter_ctx def = NULL, file = NULL;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_seccomp_default(false, &def, &err), 0);
	assert_int_equal(shim_seccomp_from_text("read allow\n", "t", &file, &err), 0);
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
		uint32_t got_def = ~0U, got_file = ~0U;

		assert_int_equal(seccomp_attr_get(def, attrs[i].attr, &got_def), 0);
		assert_int_equal(seccomp_attr_get(file, attrs[i].attr, &got_file), 0);
		if (got_def != attrs[i].want || got_file != attrs[i].want)
			fail_msg("filter attribute %s: %u (default), %u (file), want %u",
				 attrs[i].name, got_def, got_file, attrs[i].want);
	}
}

/*
 * Read an OCI seccomp profile as runc and crun do (libseccomp: one rule
 * per name and entry, the entry's args ANDed; unknown names skipped) and
 * build the filter it describes.
 */
static scmp_filter_ctx filter_from_oci(const char *json)
{
	static const char *const ops[] = {
		[SCMP_CMP_NE] = "SCMP_CMP_NE", [SCMP_CMP_LT] = "SCMP_CMP_LT",
		[SCMP_CMP_LE] = "SCMP_CMP_LE", [SCMP_CMP_EQ] = "SCMP_CMP_EQ",
		[SCMP_CMP_GE] = "SCMP_CMP_GE", [SCMP_CMP_GT] = "SCMP_CMP_GT",
		[SCMP_CMP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
	};
	struct json_object *root = json_tokener_parse(json), *v, *calls;
	scmp_filter_ctx ctx;

	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "defaultAction", &v));
	assert_string_equal(json_object_get_string(v), "SCMP_ACT_ERRNO");
	assert_true(json_object_object_get_ex(root, "defaultErrnoRet", &v));
	ctx = seccomp_init(SCMP_ACT_ERRNO((uint32_t)json_object_get_int(v)));
	assert_non_null(ctx);
	assert_true(json_object_object_get_ex(root, "syscalls", &calls));
	for (size_t i = 0; i < json_object_array_length(calls); i++) {
		struct json_object *e = json_object_array_get_idx(calls, i), *names, *args = NULL;
		struct scmp_arg_cmp cmp[6];
		unsigned int n_cmp = 0;
		uint32_t action;

		assert_true(json_object_object_get_ex(e, "action", &v));
		if (strcmp(json_object_get_string(v), "SCMP_ACT_ALLOW") == 0) {
			action = SCMP_ACT_ALLOW;
		} else {
			assert_string_equal(json_object_get_string(v), "SCMP_ACT_ERRNO");
			assert_true(json_object_object_get_ex(e, "errnoRet", &v));
			action = SCMP_ACT_ERRNO((uint32_t)json_object_get_int(v));
		}
		if (json_object_object_get_ex(e, "args", &args))
			for (size_t a = 0; a < json_object_array_length(args); a++) {
				struct json_object *arg = json_object_array_get_idx(args, a), *f;
				const char *op;

				assert_true(n_cmp < ARRAY_SIZE(cmp));
				assert_true(json_object_object_get_ex(arg, "index", &f));
				cmp[n_cmp].arg = (unsigned int)json_object_get_int(f);
				assert_true(json_object_object_get_ex(arg, "value", &f));
				cmp[n_cmp].datum_a = (uint64_t)json_object_get_uint64(f);
				assert_true(json_object_object_get_ex(arg, "valueTwo", &f));
				cmp[n_cmp].datum_b = (uint64_t)json_object_get_uint64(f);
				assert_true(json_object_object_get_ex(arg, "op", &f));
				op = json_object_get_string(f);
				cmp[n_cmp].op = 0;
				for (size_t k = 0; k < ARRAY_SIZE(ops); k++)
					if (ops[k] && strcmp(ops[k], op) == 0)
						cmp[n_cmp].op = (enum scmp_compare)k;
				assert_int_not_equal(cmp[n_cmp].op, 0);
				n_cmp++;
			}
		assert_true(json_object_object_get_ex(e, "names", &names));
		for (size_t k = 0; k < json_object_array_length(names); k++) {
			int nr = seccomp_syscall_resolve_name(
				json_object_get_string(json_object_array_get_idx(names, k)));
			int r;

			if (nr == __NR_SCMP_ERROR)
				continue;
			r = seccomp_rule_add_array(ctx, action, nr, n_cmp, n_cmp ? cmp : NULL);
			assert_true(r == 0 || (r == -EACCES && n_cmp == 0));
		}
	}
	json_object_put(root);
	return ctx;
}

/* The OCI JSON is the shim's default filter, rule for rule, with and without BPF. */
static void test_oci_profile_is_the_default(void **state)
{
	(void)state;
	for (int bpf = 0; bpf <= 1; bpf++) {
		cleanup_seccomp scmp_filter_ctx mine = NULL, theirs = NULL;
		struct shim_err err = { 0 };
		cleanup_free char *json = NULL, *a = NULL, *b = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&json, &len);

		assert_int_equal(shim_seccomp_print_oci(f, bpf, &err), 0);
		fclose(f);
		assert_contains(json, bpf ? "\"bpf\"" : "\"socket\"");
		assert_int_equal(shim_seccomp_default(bpf, &mine, &err), 0);
		theirs = filter_from_oci(json);
		a = pfc(mine);
		b = pfc(theirs);
		assert_true(strlen(a) > 1000);
		assert_string_equal(a, b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_denies),
		cmocka_unit_test(test_default_allows),
		cmocka_unit_test(test_default_threads),
		cmocka_unit_test(test_default_bpf_delegated),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_build_from_config),
		cmocka_unit_test(test_builtin_is_libseccomps),
		cmocka_unit_test(test_load_flags_are_libseccomps),
		cmocka_unit_test(test_oci_profile_is_the_default),
	};

	return cmocka_run_group_tests_name("seccomp", tests, NULL, NULL);
}
