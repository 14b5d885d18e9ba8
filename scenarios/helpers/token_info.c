/* What a token shows about itself.
 *
 * fdinfo (since 6.9): allowed_cmds/maps/progs/attachs, "any" when every
 * known bit is set, else the mask in hex.
 *
 * BPF_OBJ_GET_INFO_BY_FD filling struct bpf_token_info came with 6.17; the
 * 6.12 reference answers EINVAL (a token is none of the object types the
 * command knows). The backport targets 6.9, so the patched kernel is
 * expected to answer EINVAL too. The check accepts exactly two outcomes
 * and says which one it saw: EINVAL, or success with info_len 32 and the
 * same masks as fdinfo. Anything else (another errno, wrong masks, a
 * short info_len) fails. See scenarios/token/README.md.
 */
#include "token_common.h"

#define TEST_COUNT 9

static int fdinfo_has(const char *fdinfo, const char *line)
{
	const char *p = fdinfo;
	size_t n = strlen(line);

	while ((p = strstr(p, line))) {
		if ((p == fdinfo || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static void check_fdinfo(struct tap *t, const char *fdinfo, const char *what, const char *line)
{
	if (!tap_ok(t, fdinfo_has(fdinfo, line), "%s: fdinfo has '%s'", what, line))
		tap_diag("fdinfo: %s", fdinfo);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	char fdinfo[2048];
	int mnt, mnt_any, token, token_any;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	tk_start(&ns, NULL);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "map_create:prog_load:btf_load", "array:hash",
					       "socket_filter:xdp", "any" },
			    "/sys/fs/bpf");
	mnt_any = tk_must_mount(&ns, &(struct tk_deleg){ "any", "any", "any", "any" }, "/tmp/any");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");
	token_any = tk_must_token(&ns, mnt_any, "/tmp/any");

	/* 1-4: masks */
	res = tk_call(&ns, TK_OP_FDINFO, token, 0, 0, 0, NULL, NULL);
	snprintf(fdinfo, sizeof(fdinfo), "%s", res.rc >= 0 ? res.text : "");
	check_fdinfo(&t, fdinfo, "map_create:prog_load:btf_load", "allowed_cmds:\t0x40021");
	check_fdinfo(&t, fdinfo, "array:hash", "allowed_maps:\t0x6");
	check_fdinfo(&t, fdinfo, "socket_filter:xdp", "allowed_progs:\t0x42");
	check_fdinfo(&t, fdinfo, "any", "allowed_attachs:\tany");

	/* 5-8: everything delegated */
	res = tk_call(&ns, TK_OP_FDINFO, token_any, 0, 0, 0, NULL, NULL);
	snprintf(fdinfo, sizeof(fdinfo), "%s", res.rc >= 0 ? res.text : "");
	check_fdinfo(&t, fdinfo, "any", "allowed_cmds:\tany");
	check_fdinfo(&t, fdinfo, "any", "allowed_maps:\tany");
	check_fdinfo(&t, fdinfo, "any", "allowed_progs:\tany");
	check_fdinfo(&t, fdinfo, "any", "allowed_attachs:\tany");

	/* 9: BPF_OBJ_GET_INFO_BY_FD (struct bpf_token_info, 6.17) */
	res = tk_call(&ns, TK_OP_INFO, token, 0, 0, 0, NULL, NULL);
	if (res.rc < 0 && res.err == EINVAL) {
		tap_diag("bpf_token_info: not provided by this kernel (EINVAL), as on 6.9-6.16");
		tap_ok(&t, 1, "BPF_OBJ_GET_INFO_BY_FD on a token: EINVAL or the delegated masks");
	} else if (res.rc == 0) {
		const char *want = "len=32 cmds=0x40021 maps=0x6 progs=0x42 attachs=0xffffffffffffffff";

		tap_diag("bpf_token_info: %s", res.text);
		tap_ok(&t, strcmp(res.text, want) == 0,
		       "BPF_OBJ_GET_INFO_BY_FD on a token: EINVAL or the delegated masks");
	} else {
		tap_diag("bpf_token_info: failed with %s", tk_errname(res.err));
		tap_ok(&t, 0, "BPF_OBJ_GET_INFO_BY_FD on a token: EINVAL or the delegated masks");
	}

	tk_stop(&ns);
	return tap_done(&t);
}
