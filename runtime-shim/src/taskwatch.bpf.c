// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --watch-threads, in the kernel: follow the tasks that descend from the
 * container's init and pass each one's exit to the shim through a ring
 * buffer.  Every fork and exit of the host runs this, so it does one
 * hash lookup and nothing else for a task that is not the container's;
 * the shim is woken only for the container's exits, once per batch.
 *
 * A task is followed when the task that created it is.  The table's key
 * is the task's address (the raw tracepoints' task pointer, and
 * bpf_get_current_task()), not its TID: nothing is read from the task,
 * so no offset in task_struct and no kernel BTF is needed (libbpf then
 * never parses vmlinux BTF, which costs each start more than the rest
 * of the load), and a thread that execs and takes its leader's TID
 * stays the same task.  A key goes at the task's exit, before its
 * task_struct can be freed and its address reused.
 *
 * The shim writes its own TID into `seed` before it clones the
 * container's init: the next task it creates, the init, is followed, and
 * the seed is cleared.  Threads, child processes, vfork children and
 * daemons reparented to the init all descend from it that way.
 *
 * What does not fit (the table or the ring buffer full) is counted in
 * `lost`, which the shim reads after every batch: nothing goes silently.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "taskwatch.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SHIM_TW_MAX_TASKS);
	__type(key, __u64);
	__type(value, __u32);
} followed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} seed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, SHIM_TW_RING_BYTES);
} exits SEC(".maps");

/* Mapped by the shim: it reads the counts without a system call. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, SHIM_TW_LOST_NR);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static void count_lost(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &what);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* args: the parent (current, the task that called clone), the new task. */
SEC("raw_tp/sched_process_fork")
int taskwatch_fork(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 parent = bpf_get_current_task(), child = ctx->args[1];
	__u32 follow = SHIM_TW_FOLLOW, zero = 0;

	if (!bpf_map_lookup_elem(&followed, &parent)) {
		/* The shim itself: only its first child is the container's. */
		__u32 *s = bpf_map_lookup_elem(&seed, &zero);

		if (!s || *s == 0 || *s != (__u32)bpf_get_current_pid_tgid())
			return 0;
		*s = 0;
	}
	/* Before the child is woken, so its own forks find it here. */
	if (bpf_map_update_elem(&followed, &child, &follow, BPF_ANY))
		count_lost(SHIM_TW_LOST_TABLE);
	return 0;
}

/* Runs in the task that ends, once per thread. */
SEC("raw_tp/sched_process_exit")
int taskwatch_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 task = bpf_get_current_task(), id;
	struct shim_tw_exit *e;
	int full;

	(void)ctx;
	if (!bpf_map_lookup_elem(&followed, &task))
		return 0;
	bpf_map_delete_elem(&followed, &task);
	e = bpf_ringbuf_reserve(&exits, sizeof(*e), 0);
	if (!e) {
		count_lost(SHIM_TW_LOST_RING);
		return 0;
	}
	id = bpf_get_current_pid_tgid();
	e->tid = (__u32)id;
	e->pid = (__u32)(id >> 32);
	/*
	 * Without a flag the ring buffer wakes the shim only for a record
	 * it had caught up to; a full batch wakes it whatever it waits for.
	 */
	full = bpf_ringbuf_query(&exits, BPF_RB_AVAIL_DATA) >=
	       SHIM_TW_BATCH * SHIM_TW_RECORD_BYTES;
	bpf_ringbuf_submit(e, full ? BPF_RB_FORCE_WAKEUP : 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
