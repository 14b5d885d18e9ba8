// SPDX-License-Identifier: GPL-2.0-or-later
/* Seccomp profile construction: the default profile and FILE profiles. */
#include <errno.h>
#include <stdio.h>

#include "testutil.h"

#include "profile.h"

/* The filter in libseccomp's readable pseudo-filter-code form. */
static char *pfc(scmp_filter_ctx ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = tmpfile();
	long size;

	assert_non_null(f);
	assert_int_equal(seccomp_export_pfc(ctx, fileno(f)), 0);
	size = ftell(f) > 0 ? ftell(f) : 0;
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

static void test_default(void **state)
{
	scmp_filter_ctx ctx = NULL;
	struct shim_err err = { 0 };
	char *text;

	(void)state;
	assert_int_equal(shim_seccomp_default(false, &ctx, &err), 0);
	text = pfc(ctx);
	for (const char *const *s = (const char *const[]){ "kexec_load", "kexec_file_load",
		"init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
		"bpf", "open_by_handle_at", "perf_event_open", NULL }; *s; s++)
		if (!mentions(text, *s))
			fail_msg("default profile lacks %s", *s);
	assert_false(mentions(text, "read"));
	assert_false(mentions(text, "mount"));
	assert_contains(text, "ERRNO(1)");
	free(text);
	seccomp_release(ctx);

	assert_int_equal(shim_seccomp_default(true, &ctx, &err), 0);
	text = pfc(ctx);
	assert_false(mentions(text, "bpf"));
	assert_false(mentions(text, "perf_event_open"));
	assert_true(mentions(text, "kexec_load"));
	free(text);
	seccomp_release(ctx);
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
	struct shim_config cfg = { .seccomp = SHIM_SECCOMP_FILE, .seccomp_file = "/nonexistent/p" };
	scmp_filter_ctx ctx = NULL;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_seccomp_build(&cfg, &ctx, &err), -1);
	assert_contains(err.msg, "--seccomp: open /nonexistent/p: No such file or directory");
	cfg.seccomp = SHIM_SECCOMP_NONE;
	assert_int_equal(shim_seccomp_build(&cfg, &ctx, &err), 0);
	assert_null(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_build_from_config),
	};

	return cmocka_run_group_tests_name("seccomp", tests, NULL, NULL);
}
