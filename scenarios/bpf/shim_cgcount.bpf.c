// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_skb program for the shim attach-scope scenario: counts the packets
 * and bytes that reach the sockets of the cgroup it is attached to, as
 * shim_count.bpf.c counts them, and lets them all pass.
 */
#define COUNT_SECTION "cgroup_skb/ingress"
#define COUNT_PASS(skb) 1
#include "shim_count.bpf.c"
