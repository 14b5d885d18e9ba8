/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmocka boilerplate for the shim's unit tests. */
#ifndef SHIM_TESTUTIL_H
#define SHIM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define assert_contains(haystack, needle)					\
	do {									\
		const char *h_ = (haystack);					\
		const char *n_ = (needle);					\
		if (!strstr(h_, n_))						\
			fail_msg("\"%s\" does not contain \"%s\"", h_, n_);	\
	} while (0)

#endif
