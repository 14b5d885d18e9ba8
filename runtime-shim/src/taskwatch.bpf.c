// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --watch-threads, in the kernel: follow the tasks that descend from the
 * container's init and pass each one's exit to the shim through a ring
 * buffer.  Every fork and exit of the host runs this, so it does one
 * hash lookup and nothing else for a task that is not the container's;
 * the shim is woken only for the container's exits.
 *
 * A task is followed when the task that created it is (key: its TID,
 * the host's).  The shim puts its own TID in with SHIM_TW_SEED before it
 * clones the container's init: the next task it creates, the init, is
 * followed and the seed goes.  Threads, child processes, vfork children
 * and daemons reparented to the init all descend from it that way.
 *
 * What does not fit (the table or the ring buffer full) is counted in
 * `lost`, which the shim reads after every batch: nothing goes silently.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "taskwatch.h"

/* Only the fields read; libbpf relocates them against the kernel's BTF. */
struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SHIM_TW_MAX_TASKS);
	__type(key, __u32);
	__type(value, __u32);
} followed SEC(".maps");

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
	__u32 parent = (__u32)bpf_get_current_pid_tgid();
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	__u32 *how = bpf_map_lookup_elem(&followed, &parent);
	__u32 tid, follow = SHIM_TW_FOLLOW;

	if (!how)
		return 0;
	/* The shim itself: only its first child is the container's. */
	if (*how == SHIM_TW_SEED)
		bpf_map_delete_elem(&followed, &parent);
	tid = (__u32)BPF_CORE_READ(child, pid);
	/* Before the child is woken, so its own forks find it here. */
	if (bpf_map_update_elem(&followed, &tid, &follow, BPF_ANY))
		count_lost(SHIM_TW_LOST_TABLE);
	return 0;
}

/* Runs in the task that ends, once per thread. */
SEC("raw_tp/sched_process_exit")
int taskwatch_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct shim_tw_exit *e;

	(void)ctx;
	if (!bpf_map_lookup_elem(&followed, &tid))
		return 0;
	bpf_map_delete_elem(&followed, &tid);
	e = bpf_ringbuf_reserve(&exits, sizeof(*e), 0);
	if (!e) {
		count_lost(SHIM_TW_LOST_RING);
		return 0;
	}
	e->tid = tid;
	e->pid = (__u32)(id >> 32);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * exec from a thread that is not the leader: the other threads ended
 * (their exits are above), and this one takes the leader's TID.  It is
 * followed under that TID from now on.  args: the task, its old TID.
 */
SEC("raw_tp/sched_process_exec")
int taskwatch_exec(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 old = (__u32)ctx->args[1];
	__u32 follow = SHIM_TW_FOLLOW;

	if (old == tid || !bpf_map_lookup_elem(&followed, &old))
		return 0;
	bpf_map_delete_elem(&followed, &old);
	if (bpf_map_update_elem(&followed, &tid, &follow, BPF_ANY))
		count_lost(SHIM_TW_LOST_TABLE);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
