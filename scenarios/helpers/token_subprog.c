/* Subprograms of a program loaded through a token carry no token, as
 * upstream: the token is the main program's. What shows it is kallsyms:
 * a JITed program is listed in /proc/kallsyms only when its loader had
 * CAP_BPF, judged through the program's token; subprograms ("..._F") have
 * none, so for a loader without CAP_BPF in the initial namespace only the
 * main program is listed. The control: the same program loaded by root
 * of the initial namespace lists its subprograms too.
 */
#include "token_common.h"

#define TEST_COUNT 5

#define PROG_NAME "tk_subprog"

/* A socket filter that calls a subprogram: 2 functions. */
static void load_subprog(const struct tk_req *req, struct tk_res *res)
{
	struct bpf_insn insns[] = {
		tk_insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 2),
		TK_MOV64_IMM(BPF_REG_0, 0),
		TK_EXIT(),
		TK_MOV64_IMM(BPF_REG_0, 0),
		TK_EXIT(),
	};
	struct tk_prog_load attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.insns = (__u64)(uintptr_t)insns;
	attr.license = (__u64)(uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", PROG_NAME);
	if (req->fd >= 0) {
		attr.prog_flags = TK_BPF_F_TOKEN_FD;
		attr.prog_token_fd = req->fd;
	}
	memset(res, 0, sizeof(*res));
	tk_res_errno(res, tk_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)));
}

/* BPF program symbols in /proc/kallsyms: *main named PROG_NAME, *subs
 * subprograms ("bpf_prog_<tag>_F").
 */
static int count_syms(int *main_syms, int *subs)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];

	*main_syms = *subs = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " bpf_prog_") || !strstr(line, "[bpf]"))
			continue;
		if (strstr(line, "_" PROG_NAME "\t"))
			(*main_syms)++;
		else if (strstr(line, "_F\t"))
			(*subs)++;
	}
	fclose(f);
	return 0;
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	struct tk_req req = { .fd = -1 };
	int main0, subs0, main1, subs1;
	int token, mnt, prog;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	tk_start(&ns, load_subprog);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "prog_load", NULL, "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 1-3: the container, with its token */
	if (count_syms(&main0, &subs0))
		tap_diag("reading /proc/kallsyms: %s", strerror(errno));
	res = tk_call(&ns, TK_OP_CUSTOM, token, 0, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "container: loading a socket filter with a subprogram through the token");
	prog = res.rc;
	count_syms(&main1, &subs1);
	tap_ok(&t, main1 - main0 == 1, "the main program is in /proc/kallsyms (%d new)", main1 - main0);
	tap_ok(&t, subs1 == subs0,
	       "its subprograms are not: they carry no token (%d new)", subs1 - subs0);

	/* 4-5: the control, root of the initial namespace without a token; the
	 * container keeps its program meanwhile (a closed program leaves
	 * kallsyms later, which would blur the counts)
	 */
	count_syms(&main0, &subs0);
	load_subprog(&req, &res);
	tk_ok(&t, &res, "initial-namespace root: loading the same program without a token");
	count_syms(&main1, &subs1);
	tap_ok(&t, main1 - main0 == 1 && subs1 > subs0,
	       "the main program and its subprograms are in /proc/kallsyms (%d and %d new)",
	       main1 - main0, subs1 - subs0);
	if (res.rc >= 0)
		close(res.rc);
	if (prog >= 0)
		tk_call(&ns, TK_OP_CLOSE, prog, 0, 0, 0, NULL, NULL);
	tk_stop(&ns);
	return tap_done(&t);
}
