/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every fuzz target shares.  Each fuzz_NAME.c is one libFuzzer
 * target (make fuzz); it keeps no state between inputs, frees what it
 * allocates (LeakSanitizer runs after each input) and is silent unless a
 * check fails.
 */
#ifndef SHIM_FUZZ_H
#define SHIM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A property the parser promises, beyond not crashing: abort, so that
 * libFuzzer saves the input as a crash.
 */
#define fuzz_assert(cond)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: fuzz_assert(%s) failed\n",	\
				__FILE__, __LINE__, #cond);			\
			abort();						\
		}								\
	} while (0)

/*
 * r is 0, or -1 with the failure recorded in err: a -1 with an empty
 * message would reach the user as a bare "shim: ".
 */
#define fuzz_assert_recorded(r, err)						\
	fuzz_assert((r) == 0 || ((r) == -1 && (err)->msg[0] != '\0'))

/*
 * The input as the C string these parsers get (from argv, a file read
 * whole, a JSON string): it ends at the first NUL byte, as theirs do.
 */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	return strndup((const char *)data, size);
}

#endif
