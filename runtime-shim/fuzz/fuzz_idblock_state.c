// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ID blocks' state file (/run/shim/idblocks), which shim run reads
 * before it gives a container a block: any bytes, as a corrupt or forged
 * file holds them.  A file is taken whole or refused whole; a taken one
 * has blocks within 0..4294967294 that share no host ID, and writes back
 * as the same text, which parses to the same table.
 */
#include "fuzz.h"
#include "idblock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_idblock_table t, again;
	struct shim_err err = { 0 };
	char *text;
	int r;

	r = shim_idblock_parse((const char *)data, size, &t, &err);
	fuzz_assert_recorded(r, &err);
	if (r) {
		fuzz_assert(t.e == NULL && t.n == 0);
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct shim_idblock *e = &t.e[i];

		fuzz_assert(e->count >= 1 && e->pid > 0 && e->rootfs[0] == '/');
		fuzz_assert((uint64_t)e->uid + e->count - 1 <= UINT32_MAX - 1);
		fuzz_assert((uint64_t)e->gid + e->count - 1 <= UINT32_MAX - 1);
		if (i)
			fuzz_assert((uint64_t)t.e[i - 1].uid + t.e[i - 1].count <= e->uid);
	}
	text = shim_idblock_format(&t);
	fuzz_assert(text);
	r = shim_idblock_parse(text, strlen(text), &again, &err);
	fuzz_assert(r == 0 && again.n == t.n);
	for (size_t i = 0; i < t.n; i++)
		fuzz_assert(memcmp(&again.e[i], &t.e[i], offsetof(struct shim_idblock, rootfs)) == 0 &&
			    strcmp(again.e[i].rootfs, t.e[i].rootfs) == 0);
	free(text);
	shim_idblock_table_free(&again);
	shim_idblock_table_free(&t);
	return 0;
}
