// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The delegate_* values: --bpf-delegate-* on shim run's command line, the
 * hook's annotations (the container's), the policy's lines.  Built-in
 * names.  The first input byte picks the option (its value modulo 4) and
 * how the caller asks (the bits above: the normalized buffer's size, the
 * size formatting gets); the rest is the value.
 *
 * A value that passes the full check passes the syntax check, its
 * normalized form resolves to the same mask, and the mask formats.
 */
#include "fuzz.h"
#include "delegate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t norm_sizes[] = { 0, 8, 64, 1024 };
	static const size_t fmt_sizes[] = { 1, 16, 256, 4096 };
	struct shim_deleg_names names = { 0 };
	struct shim_err err = { 0 }, syntax_err = { 0 };
	size_t norm_len, fmt_len;
	char norm[1024], fmt[4096];
	uint64_t mask = 0;
	char *value;
	int kind, r, syntax;

	if (size < 1)
		return 0;
	kind = data[0] % SHIM_DELEG_NR;
	norm_len = norm_sizes[(data[0] >> 2) & 3];
	fmt_len = fmt_sizes[(data[0] >> 4) & 3];
	value = fuzz_cstr(data + 1, size - 1);
	if (!value)
		return 0;
	shim_deleg_names_builtin(&names);

	syntax = shim_delegate_syntax_check(kind, value, NULL, &syntax_err);
	fuzz_assert_recorded(syntax, &syntax_err);
	r = shim_delegate_resolve(&names, kind, value, NULL, &mask, norm_len ? norm : NULL,
				  norm_len, &err);
	fuzz_assert_recorded(r, &err);
	fuzz_assert(r == -1 || syntax == 0);
	if (r == 0 && norm_len) {
		uint64_t again = 0;
		struct shim_err err2 = { 0 };

		fuzz_assert(strnlen(norm, norm_len) < norm_len);
		fuzz_assert(shim_delegate_resolve(&names, kind, norm, NULL, &again, NULL, 0, &err2) == 0);
		fuzz_assert(again == mask);
	}
	if (r == 0) {
		r = shim_delegate_format(&names, kind, mask, fmt, fmt_len);
		fuzz_assert(r == 0 || r == -1);
		fuzz_assert(strnlen(fmt, fmt_len) < fmt_len);
	}
	shim_deleg_names_free(&names);
	free(value);
	return 0;
}
