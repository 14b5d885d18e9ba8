// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errno names (errno:ENAME in a seccomp profile): every name the kernel's
 * UAPI headers define resolves to its number, read from the headers
 * themselves rather than from a list written here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "errname.h"

/* Check one header; returns how many names it defined. */
static int check_header(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int n = 0;

	if (!f)
		fail_msg("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[64], value[64];

		if (sscanf(line, "#define %63s %63s", name, value) != 2 ||
		    name[0] != 'E' || !isalnum((unsigned char)name[1]))
			continue;
		if (value[0] >= '0' && value[0] <= '9') {
			if (shim_errno_from_name(name) != atoi(value))
				fail_msg("%s: %s is %s, resolved to %d", path, name,
					 value, shim_errno_from_name(name));
		} else if (shim_errno_from_name(name) != shim_errno_from_name(value) ||
			   shim_errno_from_name(name) < 0) {
			fail_msg("%s: alias %s of %s resolved to %d", path, name, value,
				 shim_errno_from_name(name));
		}
		n++;
	}
	fclose(f);
	return n;
}

static void test_every_uapi_name(void **state)
{
	(void)state;
	assert_true(check_header("/usr/include/asm-generic/errno-base.h") >= 34);
	assert_true(check_header("/usr/include/asm-generic/errno.h") >= 90);
}

static void test_names_and_unknowns(void **state)
{
	char all[4096];

	(void)state;
	assert_int_equal(shim_errno_from_name("EPERM"), EPERM);
	assert_int_equal(shim_errno_from_name("EHWPOISON"), EHWPOISON);
	assert_int_equal(shim_errno_from_name("ENOTSUP"), EOPNOTSUPP);
	assert_int_equal(shim_errno_from_name("EWOULDBLOCK"), EAGAIN);
	assert_int_equal(shim_errno_from_name("eperm"), -1);
	assert_int_equal(shim_errno_from_name("EFROB"), -1);
	assert_int_equal(shim_errno_from_name(""), -1);
	assert_string_equal(shim_errno_name(EACCES), "EACCES");
	assert_null(shim_errno_name(0));
	assert_null(shim_errno_name(-1));
	assert_int_equal(shim_errno_names(all, sizeof(all)), 0);
	assert_contains(all, "EPERM, ENOENT, ESRCH,");
	assert_contains(all, ", EHWPOISON");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_uapi_name),
		cmocka_unit_test(test_names_and_unknowns),
	};

	return cmocka_run_group_tests_name("errname", tests, NULL, NULL);
}
