// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OCI state a createRuntime hook reads on stdin: whoever runs the
 * container writes it.  The input is the document as it comes, by length
 * and not NUL terminated, as shim_read_all hands it over.
 */
#include "fuzz.h"
#include "oci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_oci_state st;
	struct shim_err err = { 0 };
	int r;

	r = shim_oci_state_parse((const char *)data, size, &st, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0) {
		/* A raw NUL byte is never JSON, not even white space. */
		fuzz_assert(!memchr(data, '\0', size));
		/* What the hook goes on to use without checking again. */
		fuzz_assert(st.pid > 0);
		fuzz_assert(st.bundle[0] == '/');
		fuzz_assert(strnlen(st.id, sizeof(st.id)) < sizeof(st.id));
		fuzz_assert(strnlen(st.bundle, sizeof(st.bundle)) < sizeof(st.bundle));
		fuzz_assert(st.annotations.n <= SHIM_OCI_MAX_ANNOTATIONS);
		for (size_t i = 0; i < st.annotations.n; i++)
			fuzz_assert(shim_oci_annotation(&st.annotations, st.annotations.a[i].key));
	}
	shim_oci_state_free(&st);
	return 0;
}
