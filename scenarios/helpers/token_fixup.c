/* BPF_PROG_LOAD fills in a default expected_attach_type for program types
 * that had none before attach types existed (cgroup_sock: inet_sock_create,
 * sk_reuseport: select) before it looks at the token, so the token's
 * delegate_attachs is checked against the attach type the program gets,
 * not against 0 (cgroup_inet_ingress). Loads with expected_attach_type 0:
 * through a token delegating the real default they load; through a token
 * delegating only cgroup_inet_ingress (the attack) they are refused.
 */
#include "token_common.h"

#define TEST_COUNT 4

static void check(struct tap *t, struct tk_ns *ns, int token, int type, const char *name,
		  int want_ok, const char *attachs)
{
	char what[200];
	struct tk_res res;

	res = tk_call(ns, TK_OP_PROG, token, type, 0, TK_PROG_RET0, NULL, NULL);
	snprintf(what, sizeof(what), "%s with expected_attach_type 0, token delegating %s", name,
		 attachs);
	if (want_ok)
		tk_ok(t, &res, what);
	else
		tk_fails(t, &res, EPERM, what);
	if (res.rc >= 0)
		tk_call(ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);
}

int main(void)
{
	const char *progs = "cgroup_sock:sk_reuseport";
	const char *real = "cgroup_inet_sock_create:sk_reuseport_select";
	const char *zero = "cgroup_inet_ingress";
	struct tap t = { 0 };
	struct tk_ns ns;
	int token_real, token_zero, mnt;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	tk_start(&ns, NULL);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "prog_load", NULL, progs, real }, "/sys/fs/bpf");
	token_real = tk_must_token(&ns, mnt, "/sys/fs/bpf");
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "prog_load", NULL, progs, zero }, "/tmp/zero");
	token_zero = tk_must_token(&ns, mnt, "/tmp/zero");

	/* 1-2 */
	check(&t, &ns, token_real, BPF_PROG_TYPE_CGROUP_SOCK, "cgroup_sock", 1, real);
	check(&t, &ns, token_real, BPF_PROG_TYPE_SK_REUSEPORT, "sk_reuseport", 1, real);
	/* 3-4: the attack */
	check(&t, &ns, token_zero, BPF_PROG_TYPE_CGROUP_SOCK, "cgroup_sock", 0, zero);
	check(&t, &ns, token_zero, BPF_PROG_TYPE_SK_REUSEPORT, "sk_reuseport", 0, zero);

	tk_stop(&ns);
	return tap_done(&t);
}
