// SPDX-License-Identifier: GPL-2.0
/* BPF LSM policy on map creation and program loading, for
 * scenarios/token/51-lsm-create-load: the token-aware hooks of 6.9,
 * bpf_map_create (sleepable) and bpf_prog_load.
 *
 * deny_map_token: refuse every map created through a BPF token;
 * deny_prog_tgid: refuse every program load by that process.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

struct bpf_map;
struct bpf_prog;
struct bpf_token;

struct lsm_create_config {
	__u32 deny_map_token;
	__u32 deny_prog_tgid;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lsm_create_config);
} config SEC(".maps");

static __always_inline const struct lsm_create_config *get_config(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&config, &key);
}

SEC("lsm.s/bpf_map_create")
int BPF_PROG(map_create, struct bpf_map *map, union bpf_attr *attr, struct bpf_token *token)
{
	const struct lsm_create_config *cfg = get_config();

	if (cfg && cfg->deny_map_token && token)
		return -EPERM;
	return 0;
}

SEC("lsm/bpf_prog_load")
int BPF_PROG(prog_load, struct bpf_prog *prog, union bpf_attr *attr, struct bpf_token *token)
{
	const struct lsm_create_config *cfg = get_config();

	if (cfg && cfg->deny_prog_tgid &&
	    cfg->deny_prog_tgid == (__u32)(bpf_get_current_pid_tgid() >> 32))
		return -EPERM;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
