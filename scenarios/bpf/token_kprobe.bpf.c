// SPDX-License-Identifier: GPL-2.0
/* A tracing-only libbpf object (one kprobe program, no maps), for
 * scenarios/token/70-libbpf-object: loaded through a token that delegates
 * kprobe programs and nothing else.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/do_nanosleep")
int on_nanosleep(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
