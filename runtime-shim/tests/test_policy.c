// SPDX-License-Identifier: GPL-2.0-or-later
/* The host policy: parsing and the decisions it makes. */
#include "testutil.h"

#include "hook.h"
#include "policy.h"

static int setup(void **state)
{
	struct shim_deleg_names *n = calloc(1, sizeof(*n));

	shim_deleg_names_builtin(n);
	*state = n;
	return 0;
}

static int teardown(void **state)
{
	shim_deleg_names_free(*state);
	free(*state);
	return 0;
}

static const char example[] =
	"# comment\n"
	"delegate_cmds = map_create:prog_load:btf_load:obj_get  # trailing\n"
	"\n"
	"  delegate_maps=array,hash\r\n"
	"delegate_progs = socket_filter\n";

/* A request as the hook resolves it. */
static void request(const struct shim_deleg_names *n, struct shim_delegation *d,
		    const char *cmds, const char *maps, const char *progs, const char *attachs)
{
	const char *v[SHIM_DELEG_NR] = { cmds, maps, progs, attachs };
	struct shim_err err = { 0 };

	memset(d, 0, sizeof(*d));
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!v[k])
			continue;
		assert_int_equal(shim_delegation_set(d, n, k, v[k], shim_hook_annotation(k), &err), 0);
	}
}

static void test_parse(void **state)
{
	struct shim_bpffs_policy p;
	struct shim_err err = { 0 };

	assert_int_equal(shim_policy_parse(example, "/etc/p", *state, &p, &err), 0);
	assert_true(p.allow.set[SHIM_DELEG_CMDS]);
	assert_int_equal(p.allow.mask[SHIM_DELEG_CMDS], (1ULL << 0) | (1ULL << 5) | (1ULL << 18) | (1ULL << 7));
	assert_string_equal(p.allow.value[SHIM_DELEG_MAPS], "array:hash");
	assert_int_equal(p.allow.mask[SHIM_DELEG_MAPS], 0x6);
	assert_int_equal(p.allow.mask[SHIM_DELEG_PROGS], 1ULL << 1);
	assert_false(p.allow.set[SHIM_DELEG_ATTACHS]);
	assert_int_equal(shim_policy_parse("", "/etc/p", *state, &p, &err), 0);
}

static void test_parse_broken(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "delegate_cmds\n", "policy /etc/p:1: \"delegate_cmds\" is not \"option = value\"" },
		{ "\n\ndelegate_prog = xdp\n", "policy /etc/p:3: unknown option \"delegate_prog\"" },
		{ "delegate_maps = array\ndelegate_maps = hash\n", "policy /etc/p:2: delegate_maps given twice" },
		{ "delegate_progs = sokcet_filter\n", "policy /etc/p:1: delegate_progs=sokcet_filter: unknown program type \"sokcet_filter\"" },
		{ "delegate_cmds =\n", "policy /etc/p:1: delegate_cmds: empty value" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct shim_bpffs_policy p;
		struct shim_err err = { 0 };

		assert_int_equal(shim_policy_parse(cases[i].text, "/etc/p", *state, &p, &err), -1);
		assert_contains(err.msg, cases[i].msg);
	}
}

static void test_within(void **state)
{
	struct shim_bpffs_policy p;
	struct shim_delegation d;
	struct shim_err err = { 0 };

	assert_int_equal(shim_policy_parse(example, "/etc/p", *state, &p, &err), 0);
	request(*state, &d, "map_create:prog_load", "array", "socket_filter", NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), 0);
	/* The same bits as a number. */
	request(*state, &d, "0x21", "hash", NULL, NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), 0);
	/* Nothing asked, nothing to check. */
	request(*state, &d, NULL, NULL, NULL, NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), 0);
	/* A policy of any allows any. */
	assert_int_equal(shim_policy_parse("delegate_attachs = any\n", "/etc/p", *state, &p, &err), 0);
	request(*state, &d, NULL, NULL, NULL, "any");
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), 0);
}

static void test_beyond(void **state)
{
	struct shim_bpffs_policy p;
	struct shim_delegation d;
	struct shim_err err = { 0 };

	assert_int_equal(shim_policy_parse(example, "/etc/p", *state, &p, &err), 0);

	request(*state, &d, "map_create", "array", "socket_filter:xdp", NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), -1);
	assert_string_equal(err.msg, "invalid.shim.bpffs.delegate_progs=socket_filter:xdp goes beyond "
			    "the host policy (/etc/p allows delegate_progs = socket_filter): xdp refused");

	request(*state, &d, "any", NULL, NULL, NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), -1);
	assert_contains(err.msg, "invalid.shim.bpffs.delegate_cmds=any goes beyond");
	assert_contains(err.msg, "): any refused");

	/* A number with a bit beyond the names. */
	request(*state, &d, NULL, "0x4000000000000006", NULL, NULL);
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), -1);
	assert_contains(err.msg, "): 0x4000000000000000 refused");

	/* An option the policy does not name may not be delegated at all. */
	request(*state, &d, NULL, NULL, NULL, "cgroup_inet_ingress");
	assert_int_equal(shim_policy_check(&p, *state, &d, shim_hook_annotation, &err), -1);
	assert_string_equal(err.msg, "invalid.shim.bpffs.delegate_attachs=cgroup_inet_ingress goes beyond "
			    "the host policy (/etc/p allows no delegate_attachs): refused");
}

static void test_load(void **state)
{
	char path[] = "/tmp/shim-policy-XXXXXX";
	struct shim_bpffs_policy p;
	struct shim_err err = { 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, example, strlen(example)), (ssize_t)strlen(example));
	close(fd);
	assert_int_equal(shim_policy_load(path, *state, &p, &err), 0);
	assert_string_equal(p.source, path);
	assert_int_equal(p.allow.mask[SHIM_DELEG_MAPS], 0x6);
	unlink(path);
	assert_int_equal(shim_policy_load(path, *state, &p, &err), -1);
	assert_contains(err.msg, "No such file or directory (without a policy nothing may be delegated");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_broken),
		cmocka_unit_test(test_within),
		cmocka_unit_test(test_beyond),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests_name("policy", tests, setup, teardown);
}
