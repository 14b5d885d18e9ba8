// SPDX-License-Identifier: GPL-2.0-or-later
/* The OCI state and config.json as the hook reads them. */
#include <fcntl.h>

#include "testutil.h"

#include "file.h"
#include "oci.h"

#define STATE(extra) "{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"creating\"," \
	"\"pid\":4242,\"bundle\":\"/run/b\"" extra "}"

static int state(const char *json, struct shim_oci_state *st, struct shim_err *err)
{
	return shim_oci_state_parse(json, strlen(json), st, err);
}

static void test_state(void **unused)
{
	struct shim_oci_state st;
	struct shim_err err = { 0 };
	const char *json = STATE(",\"annotations\":{\"a\":\"1\",\"invalid.shim.bpffs.delegate_cmds\":\"any\"}") "\n";

	(void)unused;
	assert_int_equal(state(json, &st, &err), 0);
	assert_string_equal(st.id, "c1");
	assert_int_equal(st.pid, 4242);
	assert_string_equal(st.bundle, "/run/b");
	assert_int_equal(st.annotations.n, 2);
	assert_string_equal(shim_oci_annotation(&st.annotations, "invalid.shim.bpffs.delegate_cmds"), "any");
	assert_null(shim_oci_annotation(&st.annotations, "b"));
	shim_oci_state_free(&st);

	/* No annotations at all, and unknown fields, are fine. */
	assert_int_equal(state(STATE(",\"x\":[1,{\"y\":null}]"), &st, &err), 0);
	assert_int_equal(st.annotations.n, 0);
	shim_oci_state_free(&st);
}

static void test_state_broken(void **unused)
{
	static const struct {
		const char *json;
		const char *msg;
	} cases[] = {
		{ "", "truncated" },
		{ "{\"id\":\"c1\",", "truncated" },
		{ "[]", "not a JSON object" },
		{ "{} {}", "data after the document" },
		{ "{\"id\":\"c1\",\"bundle\":\"/b\"}", "no \"pid\"" },
		{ "{\"pid\":\"12\",\"bundle\":\"/b\"}", "\"pid\" is string, not int" },
		{ "{\"pid\":0,\"bundle\":\"/b\"}", "is not a process id" },
		{ "{\"pid\":-5,\"bundle\":\"/b\"}", "is not a process id" },
		{ "{\"pid\":99999999999,\"bundle\":\"/b\"}", "is not a process id" },
		{ "{\"pid\":12}", "no \"bundle\"" },
		{ "{\"pid\":12,\"bundle\":\"rel\"}", "not an absolute path" },
		{ "{\"pid\":12,\"bundle\":\"/b\",\"annotations\":[]}", "\"annotations\" is array" },
		{ "{\"pid\":12,\"bundle\":\"/b\",\"annotations\":{\"k\":1}}", "annotation \"k\" is not a string" },
		{ "{\"pid\":12,\"bundle\":\"/b\",\"annotations\":{\"k\":\"a\\u0000b\"}}", "NUL byte" },
		{ "{\"pid\":12,\"bundle\":\"/b\\u0000/x\"}", "NUL byte" },
	};

	(void)unused;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct shim_oci_state st;
		struct shim_err err = { 0 };

		if (state(cases[i].json, &st, &err) == 0)
			fail_msg("accepted: %s", cases[i].json);
		assert_contains(err.msg, "OCI state on stdin");
		assert_contains(err.msg, cases[i].msg);
	}
}

static void test_state_not_terminated(void **unused)
{
	/* The buffer is parsed by length, not up to a NUL. */
	const char json[] = STATE("") "garbage";
	struct shim_oci_state st;
	struct shim_err err = { 0 };

	(void)unused;
	assert_int_equal(shim_oci_state_parse(json, strlen(STATE("")), &st, &err), 0);
	assert_int_equal(st.pid, 4242);
	shim_oci_state_free(&st);
}

/*
 * A NUL byte is never JSON.  fuzz_oci_state found one taken after the
 * document as white space (strchr() matches the end of its set), and in
 * a comment, which json-c allows.
 */
static void test_state_nul(void **unused)
{
	static const char after[] = STATE("") "\n\0\0";
	static const char comment[] = STATE("") "//\0\n";
	static const char string[] = "{\"pid\":1,\"bundle\":\"/b\0x\"}";
	struct shim_oci_state st;
	struct shim_err err = { 0 };

	(void)unused;
	assert_int_equal(shim_oci_state_parse(after, sizeof(after) - 1, &st, &err), -1);
	assert_contains(err.msg, "not valid JSON (a NUL byte at offset 82)");
	shim_oci_state_free(&st);
	assert_int_equal(shim_oci_state_parse(comment, sizeof(comment) - 1, &st, &err), -1);
	assert_contains(err.msg, "not valid JSON (a NUL byte at offset 83)");
	shim_oci_state_free(&st);
	assert_int_equal(shim_oci_state_parse(string, sizeof(string) - 1, &st, &err), -1);
	assert_contains(err.msg, "NUL byte");
	shim_oci_state_free(&st);
}

/*
 * json-c keeps a member's name as a C string: an escaped NUL in it would
 * cut it, so that the hook read another annotation than the runtime
 * shows, or two as one.  Refused wherever it is; an escaped backslash
 * before "u0000" is no NUL.
 */
static void test_escaped_nul(void **unused)
{
	static const char *const refused[] = {
		STATE(",\"annotations\":{\"invalid.shim.bpffs.delegate_cmds\\u0000x\":\"any\"}"),
		STATE(",\"annotations\":{\"a\\u0000b\":\"1\",\"a\\u0000c\":\"2\"}"),
		STATE(",\"x\":{\"\\\\\\u0000\":1}"),
	};
	const char *config = "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":[{\"type\":\"user\\u0000x\"}]}}";
	const char *fine = STATE(",\"annotations\":{\"a\\\\u0000b\":\"c\\\\u0000\"}");
	struct shim_oci_state st;
	struct shim_oci_config c;
	struct shim_err err = { 0 };

	(void)unused;
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		if (state(refused[i], &st, &err) == 0)
			fail_msg("accepted: %s", refused[i]);
		assert_contains(err.msg, "NUL byte");
		shim_oci_state_free(&st);
	}
	assert_int_equal(shim_oci_config_parse(config, strlen(config), &c, &err), -1);
	assert_contains(err.msg, "config.json");
	assert_contains(err.msg, "NUL byte");
	shim_oci_config_free(&c);

	assert_int_equal(state(fine, &st, &err), 0);
	assert_string_equal(shim_oci_annotation(&st.annotations, "a\\u0000b"), "c\\u0000");
	shim_oci_state_free(&st);
}

static void test_config(void **unused)
{
	const char *json =
		"{\"ociVersion\":\"1.0.2\",\"root\":{\"path\":\"rootfs\",\"readonly\":true},"
		"\"annotations\":{\"invalid.shim.bpffs.path\":\"/tmp/bpf\"},"
		"\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"user\"},{\"type\":\"mount\"}],"
		"\"uidMappings\":[{\"containerID\":0,\"hostID\":100000,\"size\":65536}]}}";
	struct shim_oci_config c;
	struct shim_err err = { 0 };

	(void)unused;
	assert_int_equal(shim_oci_config_parse(json, strlen(json), &c, &err), 0);
	assert_string_equal(c.root, "rootfs");
	assert_true(c.userns);
	assert_string_equal(shim_oci_annotation(&c.annotations, "invalid.shim.bpffs.path"), "/tmp/bpf");
	shim_oci_config_free(&c);

	json = "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":[{\"type\":\"user\",\"path\":\"/proc/7/ns/user\"}]}}";
	assert_int_equal(shim_oci_config_parse(json, strlen(json), &c, &err), 0);
	assert_true(c.userns);
	shim_oci_config_free(&c);

	/* No user namespace: parsed, and said so. */
	json = "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"network\"}]}}";
	assert_int_equal(shim_oci_config_parse(json, strlen(json), &c, &err), 0);
	assert_false(c.userns);
	shim_oci_config_free(&c);
	json = "{\"root\":{\"path\":\"/r\"}}";
	assert_int_equal(shim_oci_config_parse(json, strlen(json), &c, &err), 0);
	assert_false(c.userns);
	shim_oci_config_free(&c);
}

static void test_config_broken(void **unused)
{
	static const struct {
		const char *json;
		const char *msg;
	} cases[] = {
		{ "{}", "no \"root\"" },
		{ "{\"root\":{}}", "no \"root\".\"path\"" },
		{ "{\"root\":{\"path\":\"\"}}", "is empty" },
		{ "{\"root\":\"/r\"}", "\"root\" is string, not object" },
		{ "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":{}}}", "\"namespaces\" is object, not array" },
		{ "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":[\"user\"]}}", "namespaces[0] is not an object" },
		{ "{\"root\":{\"path\":\"/r\"},\"linux\":{\"namespaces\":[{\"type\":7}]}}", "\"type\" is int, not string" },
	};

	(void)unused;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct shim_oci_config c;
		struct shim_err err = { 0 };

		if (shim_oci_config_parse(cases[i].json, strlen(cases[i].json), &c, &err) == 0)
			fail_msg("accepted: %s", cases[i].json);
		assert_contains(err.msg, "config.json");
		assert_contains(err.msg, cases[i].msg);
	}
}

static void test_read_all(void **unused)
{
	int p[2];
	char *buf = NULL;
	size_t len;
	struct shim_err err = { 0 };
	char big[10000];

	(void)unused;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "{\"a\":1}", 7), 7);
	close(p[1]);
	assert_int_equal(shim_read_all(p[0], 100, &buf, &len, "x", &err), 0);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "{\"a\":1}");
	free(buf);
	close(p[0]);

	memset(big, 'x', sizeof(big));
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], big, sizeof(big)), (ssize_t)sizeof(big));
	close(p[1]);
	assert_int_equal(shim_read_all(p[0], 5000, &buf, &len, "the state", &err), -1);
	assert_contains(err.msg, "more than 5000 bytes");
	close(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_state_broken),
		cmocka_unit_test(test_state_not_terminated),
		cmocka_unit_test(test_state_nul),
		cmocka_unit_test(test_escaped_nul),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_broken),
		cmocka_unit_test(test_read_all),
	};

	return cmocka_run_group_tests_name("oci", tests, NULL, NULL);
}
