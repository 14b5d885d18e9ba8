// SPDX-License-Identifier: GPL-2.0
/*
 * Socket filter for the shim scenarios and the demo: counts the packets
 * and bytes a socket receives in an array map, and lets them all pass.
 * shim_cgcount.bpf.c is the same count as a cgroup_skb program: it sets
 * COUNT_SECTION and COUNT_PASS, the verdict that lets a packet through.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef COUNT_SECTION
#define COUNT_SECTION "socket"
#define COUNT_PASS(skb) ((skb)->len)
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

SEC(COUNT_SECTION)
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
	return COUNT_PASS(skb);
}

char LICENSE[] SEC("license") = "GPL";
