// SPDX-License-Identifier: GPL-2.0-or-later
/* uid/gid map parsing and rendering. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

#include "idmap.h"

static void test_parse_ok(void **state)
{
	struct shim_idmap m;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_parse_idmap("0:100000:65536", &m, &err), 0);
	assert_int_equal(m.inside, 0);
	assert_int_equal(m.outside, 100000);
	assert_int_equal(m.count, 65536);
	assert_int_equal(shim_parse_idmap("1000:1000:1", &m, &err), 0);
	assert_int_equal(m.inside, 1000);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "0", "0:1", "0:1:", ":1:1", "0:1:1:", "a:1:1", "0:-1:1", "0:1:x",
		"0 :1:1", "0:4294967296:1", "0:1:0", "4294967295:0:2", "0:4294967290:10",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct shim_idmap m;
		struct shim_err err = { 0 };

		if (shim_parse_idmap(bad[i], &m, &err) != -1)
			fail_msg("\"%s\" was accepted", bad[i]);
		assert_contains(err.msg, "invalid id map");
	}
}

static void test_format(void **state)
{
	struct shim_idmaps maps = { .n = 2 };
	char buf[128];

	(void)state;
	maps.map[0] = (struct shim_idmap){ 0, 100000, 1000 };
	maps.map[1] = (struct shim_idmap){ 1000, 5000, 1 };
	assert_int_equal(shim_format_idmaps(&maps, buf, sizeof(buf)),
			 (int)strlen("0 100000 1000\n1000 5000 1\n"));
	assert_string_equal(buf, "0 100000 1000\n1000 5000 1\n");
	assert_int_equal(shim_format_idmaps(&maps, buf, 8), -1);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_subid_default(void **state)
{
	char dir[] = "/tmp/shim-subid-XXXXXX", uid[64], gid[64];
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(uid, sizeof(uid), "%s/subuid", dir);
	snprintf(gid, sizeof(gid), "%s/subgid", dir);
	/* The login user's range is not the default: only containers' is. */
	write_text(uid, "alice:100000:65536\ncontainers:2147483647:2147483648\n");
	write_text(gid, "containers:300000:1000\nalice:100000:65536\n");
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(shim_idmaps_default(&cfg, uid, gid, &err), 0);
	assert_int_equal(cfg.uid_map.n, 1);
	assert_int_equal(cfg.uid_map.map[0].inside, 0);
	assert_int_equal(cfg.uid_map.map[0].outside, 2147483647u);
	assert_int_equal(cfg.uid_map.map[0].count, 65536);
	assert_int_equal(cfg.gid_map.map[0].outside, 300000);
	assert_int_equal(cfg.gid_map.map[0].count, 1000);

	/* Given maps stay as they are. */
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(shim_parse_idmap("0:500000:10", &cfg.uid_map.map[0], &err), 0);
	cfg.uid_map.n = 1;
	assert_int_equal(shim_idmaps_default(&cfg, uid, gid, &err), 0);
	assert_int_equal(cfg.uid_map.map[0].outside, 500000);
	assert_int_equal(cfg.gid_map.map[0].outside, 300000);

	/* No range for containers: an error that says what to do. */
	write_text(uid, "alice:100000:65536\n");
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(shim_idmaps_default(&cfg, uid, gid, &err), -1);
	assert_contains(err.msg, "no --uid-map given");
	assert_contains(err.msg, "has no range for user containers");
	assert_contains(err.msg, "containers:2147483647:2147483648");

	write_text(uid, "containers:12x:5\n");
	assert_int_equal(shim_idmaps_default(&cfg, uid, gid, &err), -1);
	assert_contains(err.msg, "bad line for containers");
	unlink(uid);
	unlink(gid);
	rmdir(dir);
}

static void test_owner_refused(void **state)
{
	struct shim_idmaps m = { .n = 2 };
	struct shim_err err = { 0 };

	(void)state;
	m.map[0] = (struct shim_idmap){ 0, 100000, 65536 };
	m.map[1] = (struct shim_idmap){ 70000, 1000, 1 };
	assert_int_equal(shim_idmaps_check_owner(&m, 1000, "--uid-map", &err), 0);
	assert_int_equal(shim_idmaps_check_owner(&m, 0, "--uid-map", &err), 0);
	assert_int_equal(shim_idmaps_check_owner(&m, 100005, "--uid-map", &err), -1);
	assert_contains(err.msg, "--uid-map 0:100000:65536 includes your own ID 100005");
	m.map[1] = (struct shim_idmap){ 70000, 999, 2 };
	assert_int_equal(shim_idmaps_check_owner(&m, 1000, "--uid-map", &err), -1);
}

static void test_host_root_refused(void **state)
{
	struct shim_idmaps m = { .n = 2 };
	struct shim_err err = { 0 };

	(void)state;
	m.map[0] = (struct shim_idmap){ 0, 100000, 65536 };
	m.map[1] = (struct shim_idmap){ 70000, 1000, 1 };
	assert_int_equal(shim_idmaps_check_host_root(&m, "--uid-map", &err), 0);
	/* Root's own ID alone, the rootless form for others, is refused too. */
	m.map[1] = (struct shim_idmap){ 0, 0, 1 };
	assert_int_equal(shim_idmaps_check_host_root(&m, "--uid-map", &err), -1);
	assert_int_equal(err.errnum, EPERM);
	assert_contains(err.msg, "--uid-map 0:0:1 maps host uid 0 into the container");
	assert_contains(err.msg, "--uid-map 0:$(id -u):1");
	/* Host 0 anywhere in a range, not only at its start inside. */
	m.n = 1;
	m.map[0] = (struct shim_idmap){ 5, 0, 10 };
	assert_int_equal(shim_idmaps_check_host_root(&m, "--gid-map", &err), -1);
	assert_contains(err.msg, "--gid-map 5:0:10 maps host gid 0");
	assert_contains(err.msg, "/etc/subgid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subid_default),
		cmocka_unit_test(test_owner_refused),
		cmocka_unit_test(test_host_root_refused),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("idmap", tests, NULL, NULL);
}
