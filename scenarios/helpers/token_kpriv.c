/* Kernel privilege decisions a token moves into the container's user
 * namespace, beyond the load-time checks of 30-token-use:
 *
 * - map types gated by CAP_BPF (LRU hash) and by CAP_NET_ADMIN (sockmap);
 * - the verifier's CAP_PERFMON decision to allow pointer leaks (a socket
 *   filter returning its frame pointer);
 * - a CAP_BPF gated helper (bpf_jiffies64) offered by the helper lookup;
 * - commands that stay CAP_SYS_ADMIN in the initial namespace
 *   (BPF_PROG_GET_NEXT_ID) even with a delegate_cmds=any token around;
 * - delegate_* parsing corners: a numeric element replaces what came
 *   before it, names are case-insensitive, an empty element or an
 *   overflowing number is refused.
 */
#include "token_common.h"

#define TEST_COUNT 14

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

/* BPF_PROG_GET_NEXT_ID from 0, in the container */
static void kp_next_id(const struct tk_req *req, struct tk_res *res)
{
	union bpf_attr attr;

	(void)req;
	memset(&attr, 0, sizeof(attr));
	tk_res_errno(res, tk_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)));
}

/* Load a map or program; the fd is closed at once, only the answer counts. */
static struct tk_res kp_load(struct tk_ns *ns, int op, int token, int a, int c)
{
	struct tk_res res = tk_call(ns, op, token, a, 0, c, NULL, NULL);

	if (res.rc >= 0)
		tk_call(ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);
	return res;
}

#define kp_map(ns, token, type) kp_load(ns, TK_OP_MAP, token, type, 0)
#define kp_filter(ns, token, kind) kp_load(ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, kind)

static void check_cmds_value(struct tap *t, const char *value, const char *want, int err_want)
{
	char what[128];

	snprintf(what, sizeof(what), "delegate_cmds=%s", value);
	tk_check_mount(t, what, &(struct tk_deleg){ value, NULL, NULL, NULL }, want, err_want);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	int token, mnt;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	tk_start(&ns, kp_next_id);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "any", "any", "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 1-2: a CAP_BPF map type */
	res = kp_map(&ns, token, BPF_MAP_TYPE_LRU_HASH);
	tk_ok(&t, &res, "BPF_MAP_CREATE lru_hash (CAP_BPF) with the token");
	res = kp_map(&ns, -1, BPF_MAP_TYPE_LRU_HASH);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE lru_hash without a token");

	/* 3-5: the verifier and the helper lookup see the token's namespace;
	 * commands outside the token's reach keep their init-userns check
	 */
	res = kp_filter(&ns, token, TK_PROG_LEAK_FP);
	tk_ok(&t, &res, "socket filter returning a pointer (CAP_PERFMON: pointer leaks) with the token");
	res = kp_filter(&ns, token, TK_PROG_JIFFIES);
	tk_ok(&t, &res, "socket filter calling bpf_jiffies64 (CAP_BPF helper) with the token");
	res = tk_call(&ns, TK_OP_CUSTOM, -1, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_PROG_GET_NEXT_ID in the container (initial-namespace CAP_SYS_ADMIN)");

	/* 6: a CAP_NET_ADMIN map type */
	res = kp_map(&ns, token, BPF_MAP_TYPE_SOCKMAP);
	tk_ok(&t, &res, "BPF_MAP_CREATE sockmap (CAP_NET_ADMIN) with the token");

	/* 7-9: without CAP_NET_ADMIN, CAP_PERFMON and CAP_SYS_ADMIN in the container */
	res = tk_call(&ns, TK_OP_CAPS, -1, (1 << CAP_NET_ADMIN_BIT) | (1 << CAP_SYS_ADMIN_BIT),
		      1 << (CAP_PERFMON_BIT - 32), 0, NULL, NULL);
	if (res.rc < 0)
		tap_diag("dropping CAP_NET_ADMIN, CAP_PERFMON, CAP_SYS_ADMIN: %s", tk_errname(res.err));
	res = kp_map(&ns, token, BPF_MAP_TYPE_SOCKMAP);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE sockmap with the token, without CAP_NET_ADMIN");
	res = kp_filter(&ns, token, TK_PROG_LEAK_FP);
	tk_fails(&t, &res, EACCES,
		 "socket filter returning a pointer with the token, without CAP_PERFMON: verifier refuses");
	res = kp_map(&ns, token, BPF_MAP_TYPE_LRU_HASH);
	tk_ok(&t, &res, "BPF_MAP_CREATE lru_hash with the token still (CAP_BPF kept)");
	tk_stop(&ns);

	/* 10-14: delegate_* parsing corners, set by the privileged side */
	check_cmds_value(&t, "map_create:0x2:prog_load", "delegate_cmds=map_lookup_elem:prog_load", 0);
	check_cmds_value(&t, "MAP_Create:Btf_Load", "delegate_cmds=map_create:btf_load", 0);
	check_cmds_value(&t, "0x20:any", "delegate_cmds=any", 0);
	check_cmds_value(&t, "map_create::prog_load", NULL, EINVAL);
	check_cmds_value(&t, "0x10000000000000000", NULL, ERANGE);

	return tap_done(&t);
}
