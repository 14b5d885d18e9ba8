/* Using a token: BPF_MAP_CREATE, BPF_BTF_LOAD and BPF_PROG_LOAD succeed in
 * the container for what the BPF FS delegates and fail with EPERM for a
 * command, map type, program type or attach type it does not delegate
 * (the kernel then ignores the token and applies the initial user
 * namespace checks), and without a token.
 */
#include "token_common.h"

#define TEST_COUNT 14

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	int token, token2, root, mnt2;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	tk_start(&ns, NULL);
	tk_must_mount(&ns, &(struct tk_deleg){ "map_create:btf_load:prog_load", "array",
					     "socket_filter", "cgroup_inet_ingress" },
		      "/sys/fs/bpf");
	res = tk_call(&ns, TK_OP_OPEN, -1, 0, 0, 0, "/sys/fs/bpf", NULL);
	root = res.rc;
	token = tk_must_token(&ns, root, "/sys/fs/bpf");

	/* 1-3: maps */
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_MAP_CREATE array (delegated) with the token");
	res = tk_call(&ns, TK_OP_MAP, -1, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE array without a token");
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_HASH, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_MAP_CREATE hash (map type not delegated) with the token");

	/* 4-5: BTF */
	res = tk_call(&ns, TK_OP_BTF, token, 0, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_BTF_LOAD with the token");
	res = tk_call(&ns, TK_OP_BTF, -1, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_BTF_LOAD without a token");

	/* 6-9: programs */
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "BPF_PROG_LOAD socket_filter (delegated, attach type 0) with the token");
	res = tk_call(&ns, TK_OP_PROG, -1, BPF_PROG_TYPE_SOCKET_FILTER, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_PROG_LOAD socket_filter without a token");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_XDP, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_PROG_LOAD xdp (program type not delegated) with the token");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, BPF_CGROUP_INET_EGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_fails(&t, &res, EPERM,
		 "BPF_PROG_LOAD socket_filter with attach type cgroup_inet_egress (not delegated) with the token");

	/* 10: BPF_F_TOKEN_FD with an fd that is no token */
	res = tk_call(&ns, TK_OP_MAP, root, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EINVAL, "BPF_MAP_CREATE with BPF_F_TOKEN_FD and the BPF FS fd as token");

	/* 11-14: a BPF FS that delegates only BPF_MAP_CREATE (all types) */
	mnt2 = tk_must_mount(&ns, &(struct tk_deleg){ "map_create", "any", "any", "any" },
			     "/tmp/maps-only");
	token2 = tk_must_token(&ns, mnt2, "/tmp/maps-only");
	res = tk_call(&ns, TK_OP_MAP, token2, BPF_MAP_TYPE_HASH, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_MAP_CREATE hash with a map_create-only token");
	res = tk_call(&ns, TK_OP_BTF, token2, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_BTF_LOAD (command not delegated) with a map_create-only token");
	res = tk_call(&ns, TK_OP_PROG, token2, BPF_PROG_TYPE_SOCKET_FILTER, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_PROG_LOAD (command not delegated) with a map_create-only token");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "BPF_PROG_LOAD socket_filter with the first token still");

	tk_stop(&ns);
	return tap_done(&t);
}
