/* A privileged-only verifier feature through a token.
 *
 * bpf_probe_read_kernel() is offered to programs only with CAP_BPF and
 * CAP_PERFMON (both 6.1 and 6.12 gate it in bpf_base_func_proto()). With a
 * token, the kernel checks those capabilities in the token's user
 * namespace: the container's root loads a socket filter calling it; once
 * the container drops CAP_PERFMON (and CAP_SYS_ADMIN, which implies it),
 * the verifier no longer knows the helper (EINVAL), while a program
 * without it still loads.
 */
#include "token_common.h"

#define TEST_COUNT 5

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	int token, mnt;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	/* 1: control: the initial user namespace's root, no token */
	res = tk_call(NULL, TK_OP_PROG, -1, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_READ_KERNEL,
		      NULL, NULL);
	tk_ok(&t, &res, "initial-namespace root: loading a socket filter calling bpf_probe_read_kernel");
	if (res.rc >= 0)
		close(res.rc);

	tk_start(&ns, NULL);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "prog_load", NULL, "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 2-3: in the container */
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_READ_KERNEL,
		      NULL, NULL);
	tk_ok(&t, &res, "container with token and CAP_PERFMON: loading the bpf_probe_read_kernel program");
	res = tk_call(&ns, TK_OP_PROG, -1, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_READ_KERNEL,
		      NULL, NULL);
	tk_fails(&t, &res, EPERM, "container without token: bpf_probe_read_kernel program");

	/* 4-5: the container's root gives up CAP_PERFMON and CAP_SYS_ADMIN */
	res = tk_call(&ns, TK_OP_CAPS, -1, 1 << CAP_SYS_ADMIN_BIT, 1 << (CAP_PERFMON_BIT - 32), 0,
		      NULL, NULL);
	if (res.rc < 0)
		tap_diag("dropping CAP_PERFMON and CAP_SYS_ADMIN: %s", tk_errname(res.err));
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_READ_KERNEL,
		      NULL, NULL);
	tk_fails(&t, &res, EINVAL,
		 "container with token, without CAP_PERFMON: bpf_probe_read_kernel is refused by the verifier");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "container with token, without CAP_PERFMON: loading a program without the helper");

	tk_stop(&ns);
	return tap_done(&t);
}
