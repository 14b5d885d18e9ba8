// SPDX-License-Identifier: GPL-2.0-or-later
/* Delegation names: resolution like the kernel's, formatting like /proc/mounts. */
#include "testutil.h"

#include "delegate.h"

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

static void test_names(void **state)
{
	struct shim_deleg_names *n = *state;
	struct shim_err err = { 0 };
	char norm[256];
	uint64_t m;

	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_CMDS, "map_create:prog_load,BTF_LOAD", NULL,
					       &m, norm, sizeof(norm), &err), 0);
	assert_int_equal(m, (1ULL << 0) | (1ULL << 5) | (1ULL << 18));
	assert_string_equal(norm, "map_create:prog_load:BTF_LOAD");
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "array,hash", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 0x6);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_PROGS, "socket_filter:xdp", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, (1ULL << 1) | (1ULL << 6));
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_ATTACHS, "cgroup_inet_ingress:xdp", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 1ULL | (1ULL << 37));
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_CMDS, "token_create", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 1ULL << 36);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_CMDS, "prog_run", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 1ULL << 10);
}

static void test_any_and_numbers(void **state)
{
	struct shim_deleg_names *n = *state;
	struct shim_err err = { 0 };
	uint64_t m;

	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "any", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, ~0ULL);
	/* The kernel matches "any" with strcmp(), names in any case. */
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "ANY", NULL, &m, NULL, 0, &err), -1);
	assert_contains(err.msg, "unknown map type \"ANY\"");
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "Any", NULL, &m, NULL, 0, &err), -1);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "ARRAY", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "0x40021", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 0x40021);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "10", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 10);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "010", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 8);
	/* A number replaces what was built so far, as in the kernel. */
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "hash:array:0x10", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 0x10);
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "0x10:hash", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 0x12);
}

static void test_unknown_name(void **state)
{
	struct shim_deleg_names *n = *state;
	struct shim_err err = { 0 };
	uint64_t m;

	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "hsah", shim_deleg_flag(SHIM_DELEG_MAPS), &m, NULL, 0, &err), -1);
	assert_contains(err.msg,
			"--bpf-delegate-maps=hsah: unknown map type \"hsah\" (valid: unspec, hash, array, prog_array,");
	assert_contains(err.msg, "user_ringbuf");
	assert_contains(err.msg, "built-in table");

	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_CMDS, "map_create:prog_lode", shim_deleg_flag(SHIM_DELEG_CMDS), &m, NULL, 0, &err), -1);
	assert_contains(err.msg, "--bpf-delegate-cmds=map_create:prog_lode: unknown command \"prog_lode\" (valid: map_create,");
	/* Without a label the message names the mount option. */
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_PROGS, "socketfilter", NULL, &m, NULL, 0, &err), -1);
	assert_contains(err.msg, "delegate_progs=socketfilter: unknown program type \"socketfilter\"");
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_ATTACHS, "0xZZ", NULL, &m, NULL, 0, &err), -1);
	assert_contains(err.msg, "unknown attach type \"0xZZ\"");
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_ATTACHS, "0x10000000000000000", shim_deleg_flag(SHIM_DELEG_ATTACHS), &m, NULL, 0, &err), -1);
	/* No fsconfig ran: the message names the option typed, no errno. */
	assert_int_equal(err.errnum, 0);
	assert_null(strstr(err.msg, "fsconfig"));
	assert_null(strstr(err.msg, "Invalid argument"));
	assert_contains(err.msg, "--bpf-delegate-attachs=0x10000000000000000: unknown attach type");
	/* Prefixes are not part of the name. */
	assert_int_equal(shim_delegate_resolve(n, SHIM_DELEG_MAPS, "bpf_map_type_hash", NULL, &m, NULL, 0, &err), -1);
}

static void test_format(void **state)
{
	struct shim_deleg_names *n = *state;
	char buf[512];

	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_CMDS, (1ULL << 0) | (1ULL << 5), buf, sizeof(buf)), 0);
	assert_string_equal(buf, "map_create:prog_load");
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_MAPS, 0x6, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hash:array");
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_MAPS, ~0ULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "any");
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_MAPS, (1ULL << 32) - 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "any");	/* all known map types */
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_MAPS, (1ULL << 1) | (1ULL << 60), buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hash:0x1000000000000000");
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_MAPS, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(shim_delegate_format(n, SHIM_DELEG_CMDS, 0x21, buf, 4), -1);
}

static void test_syntax(void **state)
{
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_delegate_syntax_check(SHIM_DELEG_CMDS, "a:b,c", shim_deleg_flag(SHIM_DELEG_CMDS), &err), 0);
	assert_int_equal(shim_delegate_syntax_check(SHIM_DELEG_CMDS, "", shim_deleg_flag(SHIM_DELEG_CMDS), &err), -1);
	assert_int_equal(shim_delegate_syntax_check(SHIM_DELEG_CMDS, "a:", shim_deleg_flag(SHIM_DELEG_CMDS), &err), -1);
	assert_int_equal(shim_delegate_syntax_check(SHIM_DELEG_CMDS, ",a", shim_deleg_flag(SHIM_DELEG_CMDS), &err), -1);
	assert_contains(err.msg, "--bpf-delegate-cmds=,a: empty element");
	assert_int_equal(shim_delegate_syntax_check(SHIM_DELEG_MAPS, "", NULL, &err), -1);
	assert_string_equal(err.msg, "delegate_maps: empty value");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_any_and_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_format, setup, teardown),
		cmocka_unit_test(test_syntax),
	};

	return cmocka_run_group_tests_name("delegate", tests, NULL, NULL);
}
