// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's cgroup: each line of the input as the value of
 * --memory, --pids-limit, --cpus, --cpuset-cpus and --cgroup-parent (the
 * caller's command line), and the whole input as the mountinfo and
 * /proc/PID/cgroup the shim and the OCI hook read (a container's, for the
 * hook: written by what runs in it).
 *
 * An accepted size reads back the same when written out in bytes; an
 * accepted --pids-limit is -1 or a count, an accepted --cpus at least
 * cpu.max's 1 ms; an accepted --cgroup-parent is absolute with no "." or
 * ".." component.  Every refusal says why.
 */
#include <inttypes.h>
#include <limits.h>

#include "cgroup.h"
#include "fuzz.h"

static void values(const char *line)
{
	struct shim_err err = { 0 };
	uint64_t quota;
	int64_t n, again;
	char round[32];
	int r;

	r = shim_parse_size("--memory", line, &n, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0) {
		fuzz_assert(n >= 0);
		snprintf(round, sizeof(round), "%" PRId64, n);
		fuzz_assert(shim_parse_size("--memory", round, &again, &err) == 0 && again == n);
	}
	r = shim_parse_pids_limit(line, &n, &err);
	fuzz_assert_recorded(r, &err);
	fuzz_assert(r != 0 || n == -1 || n >= 1);
	r = shim_parse_cpus(line, &quota, &err);
	fuzz_assert_recorded(r, &err);
	fuzz_assert(r != 0 || quota >= 1000);
	r = shim_parse_cpuset(line, &err);
	fuzz_assert_recorded(r, &err);
	r = shim_parse_cgroup_parent(line, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0) {
		fuzz_assert(line[0] == '/');
		fuzz_assert(!strstr(line, "//") && !strstr(line, "/./") && !strstr(line, "/../"));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct shim_mountinfo m;
	struct shim_err err = { 0 };
	char *text = fuzz_cstr(data, size), *line, *next;
	char point[PATH_MAX];
	int r;

	if (!text)
		return 0;
	r = shim_cgroup2_mount_of(text, point, sizeof(point), &err);
	fuzz_assert_recorded(r, &err);
	memset(&err, 0, sizeof(err));
	r = shim_cgroup2_path_of(text, point, sizeof(point), &err);
	fuzz_assert_recorded(r, &err);
	fuzz_assert(r != 0 || point[0] == '/');
	memset(&err, 0, sizeof(err));
	r = shim_cgroup_mounts_confined(text, "/", "/shim/c", &err);
	fuzz_assert_recorded(r, &err);
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (shim_mountinfo_parse(line, &m) == 0)
			fuzz_assert(strlen(m.root) < sizeof(m.root) && strlen(m.fstype) < sizeof(m.fstype));
		values(line);
	}
	free(text);
	return 0;
}
