// SPDX-License-Identifier: GPL-2.0
/* An ordinary libbpf application object (a map, global data and a socket
 * filter), for scenarios/token/70-libbpf: it is loaded unchanged inside a
 * container, where only a BPF token makes loading possible.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

__u64 packets_seen;

SEC("socket")
int count_packets(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *val = bpf_map_lookup_elem(&counters, &key);

	if (val)
		__sync_fetch_and_add(val, 1);
	packets_seen++;
	return skb->len;
}

char LICENSE[] SEC("license") = "GPL";
