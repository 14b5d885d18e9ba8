// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bundle's config.json, which the hook reads from the bundle the
 * OCI state names: written by whoever creates the container.  The input
 * is the file's content, by length.
 */
#include "fuzz.h"
#include "oci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_oci_config cfg;
	struct shim_err err = { 0 };
	int r;

	r = shim_oci_config_parse((const char *)data, size, &cfg, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0) {
		/* A raw NUL byte is never JSON, not even white space. */
		fuzz_assert(!memchr(data, '\0', size));
		fuzz_assert(cfg.root[0] != '\0');
		fuzz_assert(strnlen(cfg.root, sizeof(cfg.root)) < sizeof(cfg.root));
		fuzz_assert(cfg.annotations.n <= SHIM_OCI_MAX_ANNOTATIONS);
	}
	shim_oci_config_free(&cfg);
	return 0;
}
