// SPDX-License-Identifier: GPL-2.0
/* BPF LSM policy on BPF token use, for scenarios/token/50-lsm.
 *
 * For the one process named in the config map, deny through a token the
 * bpf() commands in deny_cmds (bit per enum bpf_cmd) and the capabilities
 * in deny_caps (bit per capability). Everything else is left alone.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

struct bpf_token;

struct token_lsm_config {
	__u32 tgid;
	__u32 pad;
	__u64 deny_cmds;
	__u64 deny_caps;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct token_lsm_config);
} config SEC(".maps");

static __always_inline const struct token_lsm_config *config_for_current(void)
{
	const struct token_lsm_config *cfg;
	__u32 key = 0;

	cfg = bpf_map_lookup_elem(&config, &key);
	if (!cfg || !cfg->tgid || cfg->tgid != (__u32)(bpf_get_current_pid_tgid() >> 32))
		return 0;
	return cfg;
}

SEC("lsm/bpf_token_cmd")
int BPF_PROG(token_cmd, const struct bpf_token *token, enum bpf_cmd cmd)
{
	const struct token_lsm_config *cfg = config_for_current();

	if (cfg && (unsigned int)cmd < 64 && (cfg->deny_cmds & (1ULL << cmd)))
		return -EPERM;
	return 0;
}

SEC("lsm/bpf_token_capable")
int BPF_PROG(token_capable, const struct bpf_token *token, int cap)
{
	const struct token_lsm_config *cfg = config_for_current();

	if (cfg && (unsigned int)cap < 64 && (cfg->deny_caps & (1ULL << cap)))
		return -EPERM;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
