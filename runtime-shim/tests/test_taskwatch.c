// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BPF object embedded in the shim for --watch-threads, opened (never
 * loaded: the host tests put nothing into the kernel): its programs on
 * the tracepoints the supervision relies on, and its maps as the shim
 * reads them.
 */
#include <bpf/libbpf.h>

#include "testutil.h"
#include "taskwatch.h"

static void test_programs(void **state)
{
	static const char *const want[][2] = {
		{ "taskwatch_fork", "raw_tp/sched_process_fork" },
		{ "taskwatch_exit", "raw_tp/sched_process_exit" },
	};
	struct shim_err err = { 0 };
	struct bpf_object *obj = shim_taskwatch_open(&err);

	(void)state;
	assert_non_null(obj);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct bpf_program *p = bpf_object__find_program_by_name(obj, want[i][0]);

		assert_non_null(p);
		assert_string_equal(bpf_program__section_name(p), want[i][1]);
		assert_int_equal(bpf_program__type(p), BPF_PROG_TYPE_RAW_TRACEPOINT);
	}
	bpf_object__close(obj);
}

static void test_maps(void **state)
{
	struct shim_err err = { 0 };
	struct bpf_object *obj = shim_taskwatch_open(&err);
	struct bpf_map *m;

	(void)state;
	assert_non_null(obj);
	m = bpf_object__find_map_by_name(obj, "followed");
	assert_non_null(m);
	assert_int_equal(bpf_map__type(m), BPF_MAP_TYPE_HASH);
	assert_int_equal(bpf_map__max_entries(m), SHIM_TW_MAX_TASKS);
	/* Keyed by the task's address. */
	assert_int_equal(bpf_map__key_size(m), 8);
	m = bpf_object__find_map_by_name(obj, "seed");
	assert_non_null(m);
	assert_int_equal(bpf_map__type(m), BPF_MAP_TYPE_ARRAY);
	assert_int_equal(bpf_map__max_entries(m), 1);
	m = bpf_object__find_map_by_name(obj, "exits");
	assert_non_null(m);
	assert_int_equal(bpf_map__type(m), BPF_MAP_TYPE_RINGBUF);
	assert_int_equal(bpf_map__max_entries(m), SHIM_TW_RING_BYTES);
	m = bpf_object__find_map_by_name(obj, "lost");
	assert_non_null(m);
	assert_int_equal(bpf_map__type(m), BPF_MAP_TYPE_ARRAY);
	assert_int_equal(bpf_map__max_entries(m), SHIM_TW_LOST_NR);
	assert_int_equal(bpf_map__value_size(m), 8);
	bpf_object__close(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_maps),
	};

	return cmocka_run_group_tests_name("taskwatch", tests, NULL, NULL);
}
