/* bpf_net_capable(): CAP_NET_ADMIN gated BPF operations accept
 * CAP_SYS_ADMIN instead, as bpf_capable() does for CAP_BPF. Upstream
 * applies it at four places: CAP_NET_ADMIN map types (sockmap), network
 * program types (sched_cls), attaching a cgroup_skb program and
 * BPF_PROG_QUERY. Checked in the initial user namespace, without a token:
 * this process keeps CAP_SYS_ADMIN and CAP_BPF and drops CAP_NET_ADMIN;
 * then the attack: without CAP_SYS_ADMIN as well, all four refuse.
 */
#include "token_common.h"

#define TEST_COUNT 8

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21

static struct tk_res cg(int cmd, int prog, int cgroup)
{
	return tk_call(NULL, TK_OP_CGROUP, prog, cgroup, BPF_CGROUP_INET_INGRESS, cmd, NULL, NULL);
}

static struct tk_res load_close(int op, int type)
{
	struct tk_res res = tk_call(NULL, op, -1, type, 0, TK_PROG_RET0, NULL, NULL);

	if (res.rc >= 0)
		close(res.rc);
	return res;
}

static void checks(struct tap *t, int prog, int cgroup, int with_sys_admin)
{
	const char *who = with_sys_admin ? "CAP_SYS_ADMIN without CAP_NET_ADMIN" :
					   "neither CAP_SYS_ADMIN nor CAP_NET_ADMIN";
	char what[160];
	struct tk_res res;

#define CHECK(res, fmt)                                                      \
	do {                                                                 \
		snprintf(what, sizeof(what), fmt, who);                      \
		if (with_sys_admin)                                          \
			tk_ok(t, &(res), what);                              \
		else                                                         \
			tk_fails(t, &(res), EPERM, what);                    \
	} while (0)

	res = load_close(TK_OP_MAP, BPF_MAP_TYPE_SOCKMAP);
	CHECK(res, "%s: BPF_MAP_CREATE sockmap");
	res = load_close(TK_OP_PROG, BPF_PROG_TYPE_SCHED_CLS);
	CHECK(res, "%s: BPF_PROG_LOAD sched_cls");
	/* BPF_PROG_ATTACH reports a refused attach type check as EINVAL */
	res = cg(TK_CG_ATTACH, prog, cgroup);
	snprintf(what, sizeof(what), "%s: BPF_PROG_ATTACH cgroup_skb", who);
	if (with_sys_admin)
		tk_ok(t, &res, what);
	else
		tk_fails(t, &res, EINVAL, what);
	if (res.rc >= 0) {
		res = cg(TK_CG_DETACH, prog, cgroup);
		if (res.rc < 0)
			tap_diag("BPF_PROG_DETACH: %s", tk_errname(res.err));
	}
	res = cg(TK_CG_QUERY, -1, cgroup);
	CHECK(res, "%s: BPF_PROG_QUERY on a cgroup");
#undef CHECK
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_res res;
	char cgpath[128];
	int cgroup AUTOCLOSE = -1;
	int prog AUTOCLOSE = -1;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	snprintf(cgpath, sizeof(cgpath), "/sys/fs/cgroup/tk-netcap-%d", getpid());
	if (mkdir(cgpath, 0755) || (cgroup = open(cgpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		tap_diag("setup: %s: %s", cgpath, strerror(errno));
		return 1;
	}
	res = tk_call(NULL, TK_OP_PROG, -1, BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS,
		      TK_PROG_RET0, NULL, NULL);
	if (res.rc < 0) {
		tap_diag("setup: loading a cgroup_skb program: %s", tk_errname(res.err));
		return 1;
	}
	prog = res.rc;

	/* 1-4 */
	if (tk_set_caps(1ULL << CAP_NET_ADMIN_BIT))
		tap_diag("dropping CAP_NET_ADMIN: %s", strerror(errno));
	checks(&t, prog, cgroup, 1);
	/* 5-8: the attack */
	if (tk_set_caps((1ULL << CAP_NET_ADMIN_BIT) | (1ULL << CAP_SYS_ADMIN_BIT)))
		tap_diag("dropping CAP_SYS_ADMIN too: %s", strerror(errno));
	checks(&t, prog, cgroup, 0);

	if (tk_set_caps(0))
		tap_diag("restoring the capabilities: %s", strerror(errno));
	if (rmdir(cgpath))
		tap_diag("cleanup: rmdir %s: %s", cgpath, strerror(errno));
	return tap_done(&t);
}
