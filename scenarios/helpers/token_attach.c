/* Attaching a cgroup_skb program loaded through a token.
 *
 * cgroup_skb programs load without CAP_NET_ADMIN; the kernel checks
 * CAP_NET_ADMIN when they are attached, with BPF_PROG_ATTACH or
 * BPF_LINK_CREATE. Upstream checks it against the token the program was
 * loaded with (its user namespace), so a container that loads the program
 * through its token can attach it to a cgroup. The attack: once the
 * container drops CAP_NET_ADMIN (and CAP_SYS_ADMIN, which implies it),
 * both attach paths must refuse the program it holds (BPF_PROG_ATTACH
 * says EINVAL for any refusal of its attach type check, BPF_LINK_CREATE
 * passes the EPERM on).
 */
#include "token_common.h"

#define TEST_COUNT 6

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21

static struct tk_res cg(struct tk_ns *ns, int cmd, int prog, int cgroup)
{
	return tk_call(ns, TK_OP_CGROUP, prog, cgroup, BPF_CGROUP_INET_INGRESS, cmd, NULL, NULL);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	char cgpath[128];
	int host_cgroup AUTOCLOSE = -1;
	int token, mnt, prog, cgroup;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	snprintf(cgpath, sizeof(cgpath), "/sys/fs/cgroup/tk-attach-%d", getpid());
	if (mkdir(cgpath, 0755)) {
		tap_diag("setup: mkdir %s: %s", cgpath, strerror(errno));
		return 1;
	}

	host_cgroup = open(cgpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	tk_start(&ns, NULL);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "prog_load", NULL, "cgroup_skb", "cgroup_inet_ingress" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");
	res = tk_call(&ns, TK_OP_OPEN, -1, 0, 0, 0, cgpath, NULL);
	if (res.rc < 0) {
		tap_diag("setup: opening %s in the container: %s", cgpath, tk_errname(res.err));
		return 1;
	}
	cgroup = res.rc;

	/* 1: load */
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "container: BPF_PROG_LOAD cgroup_skb with the token");
	prog = res.rc;

	/* 2-4: attach both ways */
	res = cg(&ns, TK_CG_ATTACH, prog, cgroup);
	tk_ok(&t, &res, "container: BPF_PROG_ATTACH of the token-loaded cgroup_skb program to a cgroup");
	if (res.rc >= 0) {
		res = cg(&ns, TK_CG_DETACH, prog, cgroup);
		if (res.rc < 0)
			tap_diag("BPF_PROG_DETACH: %s", tk_errname(res.err));
	}
	res = cg(&ns, TK_CG_LINK, prog, cgroup);
	tk_ok(&t, &res, "container: BPF_LINK_CREATE of the token-loaded cgroup_skb program on a cgroup");
	if (res.rc >= 0)
		tk_call(&ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);
	/* BPF_PROG_QUERY wants CAP_NET_ADMIN in the initial namespace: ask from here */
	res = cg(NULL, TK_CG_QUERY, -1, host_cgroup);
	tap_ok(&t, res.rc == 0 && strcmp(res.text, "0") == 0,
	       "nothing stays attached after detach and link close (got %s)",
	       res.rc == 0 ? res.text : tk_errname(res.err));

	/* 5-6: the attack: without CAP_NET_ADMIN and CAP_SYS_ADMIN */
	res = tk_call(&ns, TK_OP_CAPS, -1, (1 << CAP_NET_ADMIN_BIT) | (1 << CAP_SYS_ADMIN_BIT), 0, 0,
		      NULL, NULL);
	if (res.rc < 0)
		tap_diag("dropping CAP_NET_ADMIN and CAP_SYS_ADMIN: %s", tk_errname(res.err));
	res = cg(&ns, TK_CG_ATTACH, prog, cgroup);
	/* BPF_PROG_ATTACH reports any refusal of the attach type check as EINVAL */
	tk_fails(&t, &res, EINVAL, "container without CAP_NET_ADMIN: BPF_PROG_ATTACH");
	res = cg(&ns, TK_CG_LINK, prog, cgroup);
	tk_fails(&t, &res, EPERM, "container without CAP_NET_ADMIN: BPF_LINK_CREATE");
	if (res.rc >= 0)
		tk_call(&ns, TK_OP_CLOSE, res.rc, 0, 0, 0, NULL, NULL);

	tk_stop(&ns);
	if (rmdir(cgpath))
		tap_diag("cleanup: rmdir %s: %s", cgpath, strerror(errno));
	return tap_done(&t);
}
