// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bytes of a BPF object as shim bpf-needs reads them itself (an object
 * comes from an image): the ELF checks, then the scan of .text for helper
 * calls.  Whatever passes the checks has every section inside the bytes,
 * which the scan relies on; a refusal says why.  libbpf's own parser, which
 * runs after these, is fuzzed upstream (OSS-Fuzz) and not here.
 */
#include "fuzz.h"
#include "needs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_needs *n = calloc(1, sizeof(*n));
	struct shim_err err = { 0 };
	/* A copy of exactly size bytes: ASan sees a read past the object's end. */
	void *copy = malloc(size ? size : 1);
	int r;

	fuzz_assert(n && copy);
	memcpy(copy, data, size);
	r = shim_needs_scan_elf(copy, size, n, "fuzz.o", &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0)
		fuzz_assert(shim_needs_check_elf(copy, size, &err) == 0);
	/* The scan adds capabilities only: never a delegate_* bit. */
	for (int k = 0; k < SHIM_DELEG_NR; k++)
		fuzz_assert(n->mask[k] == 0);
	free(copy);
	free(n);
	return 0;
}
