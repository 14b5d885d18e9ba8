/* BPF LSM on token use: programs on the bpf_token_cmd and
 * bpf_token_capable hooks, loaded by the privileged side, deny a
 * container's use of its token; the kernel then falls back to the initial
 * user namespace checks and the operation fails with EPERM.
 */

#include "token_lsm.h"

#define TEST_COUNT 8

#define CAP_BPF_BIT 39

#define LSM_OBJ "/opt/scenarios/bpf/token_lsm.bpf.o"

struct token_lsm_config {
	__u32 tgid;
	__u32 pad;
	__u64 deny_cmds;
	__u64 deny_caps;
};

static void set_policy(const struct tk_lsm *l, __u32 tgid, __u64 deny_cmds, __u64 deny_caps)
{
	struct token_lsm_config cfg = { .tgid = tgid, .deny_cmds = deny_cmds, .deny_caps = deny_caps };

	tk_lsm_set(l, &cfg);
}

int main(void)
{
	static const char *const progs[] = { "token_cmd", "token_capable", NULL };
	struct tk_lsm lsm AUTOCLOSE_LSM = { NULL, -1 };
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	int token, mnt;
	__u32 tgid;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	/* 1-3 */
	if (!tk_lsm_start(&t, &lsm, LSM_OBJ, "LSM object with bpf_token_cmd and bpf_token_capable programs loads",
			  progs))
		return tap_done(&t);

	tk_start(&ns, NULL);
	res = tk_call(&ns, TK_OP_PID, -1, 0, 0, 0, NULL, NULL);
	tgid = (__u32)res.rc;
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "map_create:prog_load", "array", "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 4: policy installed, nothing denied */
	set_policy(&lsm, tgid, 0, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "no denial: BPF_MAP_CREATE with the token");

	/* 5-6: bpf_token_cmd denies BPF_MAP_CREATE */
	set_policy(&lsm, tgid, 1ULL << BPF_MAP_CREATE, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "bpf_token_cmd denies BPF_MAP_CREATE: BPF_MAP_CREATE with the token");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "bpf_token_cmd denies BPF_MAP_CREATE: BPF_PROG_LOAD with the token");

	/* 7-8: bpf_token_capable denies CAP_BPF */
	set_policy(&lsm, tgid, 0, 1ULL << CAP_BPF_BIT);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "bpf_token_capable denies CAP_BPF: BPF_MAP_CREATE with the token");
	set_policy(&lsm, tgid, 0, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "denial lifted: BPF_MAP_CREATE with the token");

	tk_stop(&ns);
	return tap_done(&t);
}
