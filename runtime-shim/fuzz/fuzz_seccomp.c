// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seccomp profile of shim run --seccomp FILE, in the shim's text form
 * (SYSCALL [ACTION] a line, "default ACTION", '#' comments): the file is
 * the caller's, and the shim may run as root on it.  The input is the
 * file as read_file gives it, ending at the first NUL byte.  The filter is
 * built with libseccomp as for a run, not loaded.
 */
#include "fuzz.h"
#include "seccomp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	scmp_filter_ctx ctx = NULL;
	struct shim_err err = { 0 };
	char *text = fuzz_cstr(data, size);
	int r;

	if (!text)
		return 0;
	r = shim_seccomp_from_text(text, "fuzz", &ctx, &err);
	fuzz_assert_recorded(r, &err);
	fuzz_assert((r == 0) == (ctx != NULL));
	if (ctx)
		seccomp_release(ctx);
	free(text);
	return 0;
}
