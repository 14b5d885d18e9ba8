// SPDX-License-Identifier: GPL-2.0-or-later
/* uid/gid map parsing and rendering. */
#include "testutil.h"

#include "cli.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("idmap", tests, NULL, NULL);
}
