// SPDX-License-Identifier: GPL-2.0-or-later
/* The command's capabilities: names, the default set, --cap-add/--cap-drop. */
#include <stdio.h>

#include "testutil.h"

#include "caps.h"

#define BIT(c) SHIM_CAP_BIT(c)

static void test_default_is_podmans(void **state)
{
	char buf[512];

	(void)state;
	/* CapEff of a podman 4 container with the default set. */
	assert_int_equal(shim_caps_default(), 0x800405fbULL);
	shim_caps_string(shim_caps_default(), buf, sizeof(buf));
	assert_string_equal(buf, "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FOWNER CAP_FSETID CAP_KILL "
			    "CAP_SETGID CAP_SETUID CAP_SETPCAP CAP_NET_BIND_SERVICE "
			    "CAP_SYS_CHROOT CAP_SETFCAP");
	shim_caps_string(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
}

static void test_parse_names(void **state)
{
	struct shim_err err = { 0 };
	uint64_t m = 0;

	(void)state;
	/* podman's spellings: with or without CAP_, any case, comma lists. */
	assert_int_equal(shim_caps_parse("--cap-add", "net_admin,CAP_SYS_TIME,Bpf", &m, &err), 0);
	assert_int_equal(m, BIT(12) | BIT(25) | BIT(39));
	assert_int_equal(shim_caps_parse("--cap-add", "checkpoint_restore", &m, &err), 0);
	assert_true(m & BIT(40));
	assert_int_equal(shim_caps_parse("--cap-add", "ALL", &m, &err), 0);
	assert_int_equal(m, SHIM_CAPS_ALL);
	m = 0;
	assert_int_equal(shim_caps_parse("--cap-drop", "CAP_", &m, &err), -1);
	assert_contains(err.msg, "unknown capability \"CAP_\"");
	assert_int_equal(shim_caps_parse("--cap-drop", "kill,", &m, &err), -1);
	assert_contains(err.msg, "--cap-drop=kill,: empty capability name");
	assert_int_equal(shim_caps_parse("--cap-drop", "CAP_CAP_KILL", &m, &err), -1);
	assert_null(shim_cap_name(41));
	assert_string_equal(shim_cap_name(21), "CAP_SYS_ADMIN");
}

static void test_resolve_as_podman(void **state)
{
	struct shim_err err = { 0 };
	uint64_t caps, def = shim_caps_default();

	(void)state;
	assert_int_equal(shim_caps_resolve(def, BIT(12), BIT(0), &caps, &err), 0);
	assert_int_equal(caps, (def | BIT(12)) & ~BIT(0));
	/* --cap-drop all keeps only what is added. */
	assert_int_equal(shim_caps_resolve(def, BIT(5), SHIM_CAPS_ALL, &caps, &err), 0);
	assert_int_equal(caps, BIT(5));
	/* --cap-add all: every known capability, less what is dropped. */
	assert_int_equal(shim_caps_resolve(def, SHIM_CAPS_ALL, BIT(21), &caps, &err), 0);
	assert_int_equal(caps, ((1ULL << 41) - 1) & ~BIT(21));
	/* The same name on both sides is a mistake, as podman says. */
	assert_int_equal(shim_caps_resolve(def, BIT(5) | BIT(12), BIT(12), &caps, &err), -1);
	assert_contains(err.msg, "CAP_NET_ADMIN is both in --cap-add and in --cap-drop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_is_podmans),
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_resolve_as_podman),
	};

	return cmocka_run_group_tests_name("caps", tests, NULL, NULL);
}
