/* The token-aware LSM hooks of 6.9: bpf_map_create(map, attr, token) and
 * bpf_prog_load(prog, attr, token) replace bpf_map_alloc_security and
 * bpf_prog_alloc_security. A BPF LSM policy, loaded by the privileged
 * side, refuses maps created through a token (the hook sees the token;
 * the map program is sleepable, as the hook allows) and program loads by
 * the container's process; what it does not cover keeps working.
 */

#include "token_lsm.h"

#define TEST_COUNT 9

#define LSM_OBJ "/opt/scenarios/bpf/token_lsm_create.bpf.o"

struct lsm_create_config {
	__u32 deny_map_token;
	__u32 deny_prog_tgid;
};

static void set_policy(const struct tk_lsm *l, __u32 deny_map_token, __u32 deny_prog_tgid)
{
	struct lsm_create_config cfg = { deny_map_token, deny_prog_tgid };

	tk_lsm_set(l, &cfg);
}

static struct tk_res load_close(struct tk_ns *ns, int op, int token, int type)
{
	struct tk_res res = tk_call(ns, op, token, type, 0, TK_PROG_RET0, NULL, NULL);

	if (res.rc >= 0)
		tk_call(ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);
	return res;
}

int main(void)
{
	static const char *const progs[] = { "map_create", "prog_load", NULL };
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
	if (!tk_lsm_start(&t, &lsm,
			  LSM_OBJ, "LSM object with programs on bpf_map_create (sleepable) and bpf_prog_load loads",
			  progs))
		return tap_done(&t);

	tk_start(&ns, NULL);
	res = tk_call(&ns, TK_OP_PID, -1, 0, 0, 0, NULL, NULL);
	tgid = (__u32)res.rc;
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "map_create:prog_load", "array", "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 4: nothing denied */
	set_policy(&lsm, 0, 0);
	res = load_close(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY);
	tk_ok(&t, &res, "no denial: container BPF_MAP_CREATE with the token");

	/* 5-7: maps through a token are refused */
	set_policy(&lsm, 1, 0);
	res = load_close(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY);
	tk_fails(&t, &res, EPERM, "bpf_map_create denies token maps: container BPF_MAP_CREATE with the token");
	res = load_close(NULL, TK_OP_MAP, -1, BPF_MAP_TYPE_ARRAY);
	tk_ok(&t, &res, "bpf_map_create denies token maps: initial-namespace root without a token");
	res = load_close(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER);
	tk_ok(&t, &res, "bpf_map_create denies token maps: container BPF_PROG_LOAD with the token");

	/* 8-9: program loads by the container are refused */
	set_policy(&lsm, 0, tgid);
	res = load_close(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER);
	tk_fails(&t, &res, EPERM, "bpf_prog_load denies the container: BPF_PROG_LOAD with the token");
	set_policy(&lsm, 0, 0);
	res = load_close(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER);
	tk_ok(&t, &res, "denial lifted: container BPF_PROG_LOAD with the token");

	tk_stop(&ns);
	return tap_done(&t);
}
