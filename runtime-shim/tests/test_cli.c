// SPDX-License-Identifier: GPL-2.0-or-later
/* Option parsing of shim run. */
#include "testutil.h"

#include "cli.h"

#define PARSE(cfg, err, ...)							\
	({									\
		char *argv_[] = { __VA_ARGS__, NULL };				\
		shim_parse_run((int)(sizeof(argv_) / sizeof(argv_[0])) - 1,	\
			       argv_, (cfg), (err));				\
	})

static void test_minimal(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "run", "--rootfs", "/r", "/bin/true"), 0);
	assert_string_equal(cfg.rootfs, "/r");
	assert_string_equal(cfg.argv[0], "/bin/true");
	assert_null(cfg.argv[1]);
	assert_string_equal(cfg.hostname, "container");
	assert_string_equal(cfg.cwd, "/");
	assert_int_equal(cfg.net, SHIM_NET_NONE);
	assert_int_equal(cfg.seccomp, SHIM_SECCOMP_DEFAULT);
	/* No maps given: resolved from /etc/subuid at run time (test_idmap). */
	assert_int_equal(cfg.uid_map.n, 0);
	assert_int_equal(cfg.gid_map.n, 0);
	assert_false(shim_config_delegates(&cfg));
	assert_string_equal(cfg.bpf_mount, "/sys/fs/bpf");
}

static void test_all_options(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "run", "--rootfs=/r", "--hostname", "box",
			       "--env", "A=1", "--env=B", "--cwd", "/tmp", "--net=host",
			       "--uid-map", "0:200000:1000", "--gid-map=0:300000:10",
			       "--seccomp=none", "--bpf-delegate-cmds=map_create,prog_load",
			       "--bpf-delegate-maps", "array", "--bpf-mount=/run/bpf",
			       "--watch-threads", "--events", "/tmp/ev", "--",
			       "sh", "-c", "exit 3"), 0);
	assert_string_equal(cfg.hostname, "box");
	assert_int_equal(cfg.n_env, 2);
	assert_string_equal(cfg.env[0], "A=1");
	assert_string_equal(cfg.env[1], "B");
	assert_string_equal(cfg.cwd, "/tmp");
	assert_int_equal(cfg.net, SHIM_NET_HOST);
	assert_int_equal(cfg.uid_map.map[0].outside, 200000);
	assert_int_equal(cfg.gid_map.map[0].count, 10);
	assert_int_equal(cfg.seccomp, SHIM_SECCOMP_NONE);
	assert_string_equal(cfg.delegate[SHIM_DELEG_CMDS], "map_create,prog_load");
	assert_string_equal(cfg.delegate[SHIM_DELEG_MAPS], "array");
	assert_null(cfg.delegate[SHIM_DELEG_PROGS]);
	assert_string_equal(cfg.bpf_mount, "/run/bpf");
	assert_true(cfg.watch_threads);
	assert_string_equal(cfg.events_file, "/tmp/ev");
	assert_string_equal(cfg.argv[0], "sh");
	assert_string_equal(cfg.argv[2], "exit 3");
}

static void test_command_options_not_parsed(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "run", "--rootfs", "/r", "ls", "--net=bogus"), 0);
	assert_string_equal(cfg.argv[1], "--net=bogus");
}

static void test_seccomp_file(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "run", "--seccomp", "/p", "--rootfs", "/r", "x"), 0);
	assert_int_equal(cfg.seccomp, SHIM_SECCOMP_FILE);
	assert_string_equal(cfg.seccomp_file, "/p");
}

/* shim --help and --version are main.c's (tests/cli_smoke.sh). */
static void test_help(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "run", "--help"), 0);
	assert_true(cfg.help);
	assert_int_equal(PARSE(&cfg, &err, "run", "-h", "--bogus"), 0);
	assert_true(cfg.help);
}

struct bad_case {
	const char *args[8];
	const char *message;
};

static void test_bad_input(void **state)
{
	static const struct bad_case cases[] = {
		{ { "run", "/bin/true" }, "run: --rootfs DIR is required" },
		{ { "run", "--rootfs", "/r" }, "run: no command given" },
		{ { "run", "--rootfs" }, "option --rootfs needs a value" },
		{ { "run", "--rootfs", "/r", "--bogus", "x" }, "unknown option \"--bogus\"" },
		{ { "run", "--net=bridge", "--rootfs", "/r", "x" }, "--net: unknown value \"bridge\" (valid: none, host)" },
		{ { "run", "--uid-map=0:1", "--rootfs", "/r", "x" }, "--uid-map: invalid id map \"0:1\"" },
		{ { "run", "--gid-map=0:1:0", "--rootfs", "/r", "x" }, "COUNT must be at least 1" },
		{ { "run", "--uid-map=0:100000:10", "--uid-map=5:200000:10", "--rootfs", "/r", "x" }, "--uid-map: ranges overlap" },
		{ { "run", "--cwd=tmp", "--rootfs", "/r", "x" }, "--cwd: \"tmp\" is not an absolute path" },
		{ { "run", "--env==x", "--rootfs", "/r", "x" }, "--env: \"=x\" is not K=V or K" },
		{ { "run", "--bpf-delegate-cmds=", "--rootfs", "/r", "x" }, "--bpf-delegate-cmds: empty value" },
		{ { "run", "--bpf-delegate-maps=array::hash", "--rootfs", "/r", "x" }, "empty element" },
		{ { "run", "--bpf-mount=/x", "--rootfs", "/r", "x" }, "--bpf-mount needs at least one --bpf-delegate-* option" },
		{ { "run", "--bpf-delegate-cmds=any", "--bpf-mount=rel", "--rootfs", "/r", "x" }, "--bpf-mount=rel: not an absolute path" },
		/* The hook's path annotation is checked by the same rule. */
		{ { "run", "--bpf-delegate-cmds=any", "--bpf-mount=/run/../bpf", "--rootfs", "/r", "x" },
		  "--bpf-mount=/run/../bpf: \".\" and \"..\" are not allowed" },
		{ { "run", "--bpf-delegate-cmds=any", "--bpf-mount=//", "--rootfs", "/r", "x" },
		  "--bpf-mount=//: not a directory below the container's root" },
		{ { "run", "--watch-threads", "--rootfs", "/r", "x" }, "--watch-threads needs --events FILE" },
		{ { "run", "--hostname=", "--rootfs", "/r", "x" }, "--hostname: \"\" must be 1 to 64 characters" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[10];
		struct shim_config cfg;
		struct shim_err err = { 0 };
		int argc = 0;

		for (int j = 0; cases[i].args[j]; j++)
			argv[argc++] = (char *)cases[i].args[j];
		argv[argc] = NULL;
		assert_int_equal(shim_parse_run(argc, argv, &cfg, &err), -1);
		assert_contains(err.msg, cases[i].message);
	}
}

static void test_usage_mentions_everything(void **state)
{
	static const char *const opts[] = {
		"--rootfs", "--hostname", "--env", "--cwd", "--net", "--uid-map",
		"--gid-map", "--seccomp", "--bpf-delegate-cmds", "--bpf-delegate-maps",
		"--bpf-delegate-progs", "--bpf-delegate-attachs", "--bpf-mount",
		"--watch-threads", "--events", "--help", "--version", "Exit status",
		"125", "needs --events FILE", "container-start", "thread-exit",
		"container-exit", "thread-watch-unsupported", "which is up (default)",
		"any errno name", "Without root",
	};
	static const char *const says[] = {
		/* --tty */
		"-t, --tty give CMD a new terminal", "on SIGWINCH, as runc run -t",
		/* signals */
		"SIGALRM, SIGPIPE and real-time signals included) is forwarded",
		"SIGINT, SIGTERM, SIGHUP or SIGQUIT before CMD started stop the setup: the container is removed, exit 128+N",
		"container-exit is written for every container that was created",
		/* the ID-map default */
		"\"containers:START:COUNT\" of /etc/subuid",
		/* the seccomp default */
		"default: an allowlist in the spirit of Docker's and podman's runtime default",
		"Calls not listed fail with ENOSYS", "bpf and perf_event_open are allowed only with --bpf-delegate-*",
		"shim seccomp-profile prints it as OCI JSON",
		/* --events, --watch-threads */
		"FILE is appended to, never truncated; no symlink is followed in any component of its path",
		"needs --events FILE, and root", "(netlink CN_PROC), which takes CAP_NET_ADMIN in the initial namespaces",
	};
	char *buf = NULL, *flat;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	shim_usage(f);
	fclose(f);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		assert_contains(buf, opts[i]);
	/* What issue 12 asks --help to say, with its line breaks as spaces. */
	flat = strdup(buf);
	assert_non_null(flat);
	for (char *r = buf, *w = flat; ; r++) {
		if (*r == '\n' || *r == ' ') {
			if (w > flat && w[-1] != ' ')
				*w++ = ' ';
			continue;
		}
		*w++ = *r;
		if (!*r)
			break;
	}
	for (size_t i = 0; i < ARRAY_SIZE(says); i++)
		assert_contains(flat, says[i]);
	free(flat);
	/* man-page style: no line wider than 80 columns */
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t w = nl ? (size_t)(nl - line) : strlen(line);

		assert_true(w <= 80);
		line = nl ? nl + 1 : NULL;
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_command_options_not_parsed),
		cmocka_unit_test(test_seccomp_file),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_usage_mentions_everything),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
