// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_skb program for the shim attach-scope scenario: counts the packets and
 * bytes that reach the sockets of the cgroup it is attached to, in an
 * array map as shim_count.bpf.c does, and lets them all pass.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

SEC("cgroup_skb/ingress")
int count_packets(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *val;

	val = bpf_map_lookup_elem(&counts, &key);
	if (val)
		__sync_fetch_and_add(val, 1);
	key = 1;
	val = bpf_map_lookup_elem(&counts, &key);
	if (val)
		__sync_fetch_and_add(val, skb->len);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
