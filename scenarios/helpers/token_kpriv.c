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

enum kp_kind {
	KP_MAP,		/* BPF_MAP_CREATE type b, key 4, value 8 */
	KP_PROG_LEAK,	/* socket filter: r0 = r10; exit */
	KP_PROG_JIFFIES,	/* socket filter: r0 = bpf_jiffies64(); exit */
	KP_NEXT_ID,	/* BPF_PROG_GET_NEXT_ID from 0 */
};

static void kp_custom(const struct tk_req *req, struct tk_res *res)
{
	struct bpf_insn insns[4];
	int n = 0;

	switch (req->a) {
	case KP_MAP: {
		struct tk_map_create attr;

		memset(&attr, 0, sizeof(attr));
		attr.map_type = (__u32)req->b;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 1;
		if (req->fd >= 0) {
			attr.map_flags = TK_BPF_F_TOKEN_FD;
			attr.map_token_fd = req->fd;
		}
		tk_res_errno(res, tk_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
		return;
	}
	case KP_PROG_LEAK:
	case KP_PROG_JIFFIES: {
		struct tk_prog_load attr;

		if (req->a == KP_PROG_LEAK) {
			insns[n++] = TK_MOV64_REG(BPF_REG_0, BPF_REG_10);
		} else {
			insns[n++] = TK_CALL(BPF_FUNC_jiffies64);
			insns[n++] = TK_MOV64_IMM(BPF_REG_0, 0);
		}
		insns[n++] = TK_EXIT();
		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insn_cnt = (__u32)n;
		attr.insns = (__u64)(uintptr_t)insns;
		attr.license = (__u64)(uintptr_t)"GPL";
		if (req->fd >= 0) {
			attr.prog_flags = TK_BPF_F_TOKEN_FD;
			attr.prog_token_fd = req->fd;
		}
		tk_res_errno(res, tk_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)));
		return;
	}
	case KP_NEXT_ID: {
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		tk_res_errno(res, tk_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)));
		return;
	}
	default:
		res->rc = -1;
		res->err = ENOSYS;
	}
}

static struct tk_res kp_call(struct tk_ns *ns, enum kp_kind kind, int token, int arg)
{
	struct tk_res res = tk_call(ns, TK_OP_CUSTOM, token, kind, arg, 0, NULL, NULL);

	if (res.rc >= 0 && kind != KP_NEXT_ID)
		tk_call(ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);
	return res;
}

/* Mount in a fresh container with delegate_cmds=value, compare /proc/mounts
 * (want != NULL) or expect fsconfig to fail with err_want.
 */
static void check_cmds_value(struct tap *t, const char *value, const char *want, int err_want)
{
	struct tk_ns ns;
	struct tk_res res;
	char why[512];
	int err, mnt;

	tk_start(&ns, NULL);
	mnt = tk_mount_bpffs(&ns, &(struct tk_deleg){ value, NULL, NULL, NULL }, "/sys/fs/bpf",
			     &err, why, sizeof(why));
	if (!want) {
		tap_ok(t, mnt < 0 && err == err_want && strstr(why, "fsconfig"),
		       "delegate_cmds=%s is refused with %s (got %s)", value, tk_errname(err_want),
		       mnt < 0 ? why : "success");
		tk_stop(&ns);
		return;
	}
	if (mnt < 0) {
		tap_diag("%s", why);
		tap_ok(t, 0, "delegate_cmds=%s: mount succeeds (got %s)", value, tk_errname(err));
		tk_stop(&ns);
		return;
	}
	res = tk_call(&ns, TK_OP_MOUNTOPTS, -1, 0, 0, 0, "/sys/fs/bpf", NULL);
	tap_ok(t, res.rc == 0 && strcmp(res.text, want) == 0,
	       "delegate_cmds=%s: /proc/mounts shows '%s' (got '%s')", value, want, res.text);
	tk_stop(&ns);
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

	tk_start(&ns, kp_custom);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "any", "any", "socket_filter", "any" },
			    "/sys/fs/bpf");
	res = tk_call(&ns, TK_OP_TOKEN, mnt, 0, 0, 0, NULL, NULL);
	if (res.rc < 0) {
		tap_diag("setup: BPF_TOKEN_CREATE: %s", tk_errname(res.err));
		return 1;
	}
	token = res.rc;

	/* 1-2: a CAP_BPF map type */
	res = kp_call(&ns, KP_MAP, token, BPF_MAP_TYPE_LRU_HASH);
	tk_ok(&t, &res, "BPF_MAP_CREATE lru_hash (CAP_BPF) with the token");
	res = kp_call(&ns, KP_MAP, -1, BPF_MAP_TYPE_LRU_HASH);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE lru_hash without a token");

	/* 3-5: the verifier and the helper lookup see the token's namespace;
	 * commands outside the token's reach keep their init-userns check
	 */
	res = kp_call(&ns, KP_PROG_LEAK, token, 0);
	tk_ok(&t, &res, "socket filter returning a pointer (CAP_PERFMON: pointer leaks) with the token");
	res = kp_call(&ns, KP_PROG_JIFFIES, token, 0);
	tk_ok(&t, &res, "socket filter calling bpf_jiffies64 (CAP_BPF helper) with the token");
	res = kp_call(&ns, KP_NEXT_ID, -1, 0);
	tk_fails(&t, &res, EPERM, "BPF_PROG_GET_NEXT_ID in the container (initial-namespace CAP_SYS_ADMIN)");

	/* 6: a CAP_NET_ADMIN map type */
	res = kp_call(&ns, KP_MAP, token, BPF_MAP_TYPE_SOCKMAP);
	tk_ok(&t, &res, "BPF_MAP_CREATE sockmap (CAP_NET_ADMIN) with the token");

	/* 7-9: without CAP_NET_ADMIN, CAP_PERFMON and CAP_SYS_ADMIN in the container */
	res = tk_call(&ns, TK_OP_CAPS, -1, (1 << CAP_NET_ADMIN_BIT) | (1 << CAP_SYS_ADMIN_BIT),
		      1 << (CAP_PERFMON_BIT - 32), 0, NULL, NULL);
	if (res.rc < 0)
		tap_diag("dropping CAP_NET_ADMIN, CAP_PERFMON, CAP_SYS_ADMIN: %s", tk_errname(res.err));
	res = kp_call(&ns, KP_MAP, token, BPF_MAP_TYPE_SOCKMAP);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE sockmap with the token, without CAP_NET_ADMIN");
	res = kp_call(&ns, KP_PROG_LEAK, token, 0);
	tk_fails(&t, &res, EACCES,
		 "socket filter returning a pointer with the token, without CAP_PERFMON: verifier refuses");
	res = kp_call(&ns, KP_MAP, token, BPF_MAP_TYPE_LRU_HASH);
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
