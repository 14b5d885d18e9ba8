// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host policy file of the hook (/etc/shim/bpffs-policy.conf), with
 * the built-in delegation names.  The host's root writes it, but it is
 * the one bound on what containers get: a parser that misreads it grants
 * more than the administrator wrote.  The input is the file's text;
 * shim_policy_load refuses a NUL byte, which ends it here.
 *
 * An accepted policy must allow exactly itself: a request of each option
 * as the policy resolved it passes shim_policy_check, and "any" passes
 * only where the policy allows every bit.
 */
#include "fuzz.h"
#include "policy.h"

static const char *what(int kind)
{
	return shim_deleg_option(kind);
}

static void check(const struct shim_bpffs_policy *p, const struct shim_deleg_names *names)
{
	struct shim_delegation req = { 0 };
	struct shim_err err = { 0 };
	int r;

	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		char shown[2048];

		if (!p->allow.set[k])
			continue;
		fuzz_assert(strnlen(p->allow.value[k], sizeof(p->allow.value[k])) < sizeof(p->allow.value[k]));
		fuzz_assert(shim_delegate_format(names, k, p->allow.mask[k], shown, sizeof(shown)) == 0);
		req.set[k] = true;
		req.mask[k] = p->allow.mask[k];
		memcpy(req.value[k], p->allow.value[k], sizeof(req.value[k]));
	}
	fuzz_assert(shim_policy_check(p, names, &req, what, &err) == 0);

	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		struct shim_delegation any = { 0 };

		any.set[k] = true;
		any.mask[k] = ~0ULL;
		snprintf(any.value[k], sizeof(any.value[k]), "any");
		r = shim_policy_check(p, names, &any, what, &err);
		fuzz_assert_recorded(r, &err);
		fuzz_assert((r == 0) == (p->allow.set[k] && p->allow.mask[k] == ~0ULL));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_deleg_names names = { 0 };
	struct shim_bpffs_policy p;
	struct shim_err err = { 0 };
	char *text = fuzz_cstr(data, size);
	int r;

	if (!text)
		return 0;
	shim_deleg_names_builtin(&names);
	r = shim_policy_parse(text, "fuzz", &names, &p, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0)
		check(&p, &names);
	shim_deleg_names_free(&names);
	free(text);
	return 0;
}
