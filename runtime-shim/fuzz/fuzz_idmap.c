// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --uid-map and --gid-map values (INSIDE:OUTSIDE:COUNT), one a line, at
 * most SHIM_MAX_IDMAPS, as shim run collects them from its command line
 * (a caller without root among them).  The accepted ones are then used as
 * the shim uses them: rendered for /proc/PID/uid_map, checked for host
 * root and the caller's ID, looked up both ways.
 *
 * An accepted map stays within 0..4294967294 and reads back the same when
 * written out; a container ID that maps to host ID h maps back from h
 * when no two ranges overlap outside.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "idmap.h"

static bool overlap_outside(const struct shim_idmaps *m)
{
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = i + 1; j < m->n; j++) {
			uint64_t a = m->map[i].outside, b = m->map[j].outside;

			if (a < b + m->map[j].count && b < a + m->map[i].count)
				return true;
		}
	return false;
}

static void use(const struct shim_idmaps *m)
{
	char buf[SHIM_MAX_IDMAPS * 40];
	struct shim_err err = { 0 };
	uint32_t host, inside;
	int r;

	fuzz_assert(shim_format_idmaps(m, buf, sizeof(buf)) >= 0);
	r = shim_idmaps_check_host_root(m, "--uid-map", &err);
	fuzz_assert_recorded(r, &err);
	r = shim_idmaps_check_owner(m, 1000, "--uid-map", &err);
	fuzz_assert_recorded(r, &err);
	inside = shim_idmap_root(m);
	fuzz_assert(shim_idmap_to_host(m, inside, &host));
	for (size_t i = 0; i < m->n; i++) {
		const struct shim_idmap *x = &m->map[i];
		uint32_t last = x->inside + (x->count - 1), back;

		fuzz_assert(shim_idmap_to_host(m, last, &host));
		if (overlap_outside(m))
			continue;
		fuzz_assert(shim_idmap_from_host(m, host, &back));
		fuzz_assert(back == last);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_idmaps m = { 0 };
	char *text = fuzz_cstr(data, size), *line, *next;

	if (!text)
		return 0;
	for (line = text; line && m.n < SHIM_MAX_IDMAPS; line = next) {
		struct shim_idmap *x = &m.map[m.n], again;
		struct shim_err err = { 0 };
		char round[64];
		int r;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r = shim_parse_idmap(line, x, &err);
		fuzz_assert_recorded(r, &err);
		if (r)
			continue;
		fuzz_assert(x->count >= 1);
		fuzz_assert((uint64_t)x->inside + x->count - 1 <= UINT32_MAX - 1);
		fuzz_assert((uint64_t)x->outside + x->count - 1 <= UINT32_MAX - 1);
		snprintf(round, sizeof(round), "%" PRIu32 ":%" PRIu32 ":%" PRIu32,
			 x->inside, x->outside, x->count);
		fuzz_assert(shim_parse_idmap(round, &again, &err) == 0);
		fuzz_assert(again.inside == x->inside && again.outside == x->outside &&
			    again.count == x->count);
		m.n++;
	}
	if (m.n)
		use(&m);
	free(text);
	return 0;
}
