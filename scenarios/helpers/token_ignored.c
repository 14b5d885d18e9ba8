/* Attribute fields upstream ignores stay ignored with a token:
 * - BPF_MAP_CREATE value_type_btf_obj_fd without BPF_F_VTYPE_BTF_OBJ_FD;
 * - BPF_PROG_LOAD log_true_size and BPF_BTF_LOAD btf_log_true_size, which
 *   are output fields (their input value does not matter);
 * - BPF_OBJ_GET_INFO_BY_FD on a token with an info_len longer than
 *   struct bpf_token_info: a zeroed tail is ignored and the answer
 *   truncated to the struct. A non-zero tail is E2BIG, as for every other
 *   object type (upstream 6.17+ does so, measured on 6.18). On 6.9-6.16,
 *   the reference, the command does not know tokens: EINVAL for both.
 */
#include "token_common.h"

#define TEST_COUNT 5

#define GARBAGE 12345

enum { IG_MAP, IG_PROG, IG_BTF, IG_INFO };

static void ignored_op(const struct tk_req *req, struct tk_res *res)
{
	struct bpf_insn insns[2] = { TK_MOV64_IMM(BPF_REG_0, 0), TK_EXIT() };
	struct tk_token_info info[2];
	struct tk_map_create map;
	struct tk_prog_load prog;
	struct tk_btf_load btf;
	struct tk_btf_blob blob;
	struct tk_obj_info obj;

	memset(res, 0, sizeof(*res));
	switch (req->a) {
	case IG_MAP:
		memset(&map, 0, sizeof(map));
		map.map_type = BPF_MAP_TYPE_ARRAY;
		map.key_size = 4;
		map.value_size = 8;
		map.max_entries = 1;
		map.map_flags = TK_BPF_F_TOKEN_FD;
		map.map_token_fd = req->fd;
		map.value_type_btf_obj_fd = GARBAGE;
		tk_res_errno(res, tk_bpf(BPF_MAP_CREATE, &map, sizeof(map)));
		break;
	case IG_PROG:
		memset(&prog, 0, sizeof(prog));
		prog.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		prog.insn_cnt = 2;
		prog.insns = (__u64)(uintptr_t)insns;
		prog.license = (__u64)(uintptr_t)"GPL";
		prog.prog_flags = TK_BPF_F_TOKEN_FD;
		prog.prog_token_fd = req->fd;
		prog.log_true_size = GARBAGE;
		tk_res_errno(res, tk_bpf(BPF_PROG_LOAD, &prog, sizeof(prog)));
		break;
	case IG_BTF:
		tk_fill_btf(&blob);
		memset(&btf, 0, sizeof(btf));
		btf.btf = (__u64)(uintptr_t)&blob;
		btf.btf_size = sizeof(blob.hdr) + blob.hdr.type_len + blob.hdr.str_len;
		btf.btf_flags = TK_BPF_F_TOKEN_FD;
		btf.btf_token_fd = req->fd;
		btf.btf_log_true_size = GARBAGE;
		tk_res_errno(res, tk_bpf(BPF_BTF_LOAD, &btf, sizeof(btf)));
		break;
	case IG_INFO:
		/* b: the tail past struct bpf_token_info is non-zero */
		memset(info, 0, sizeof(info));
		if (req->b)
			memset(&info[1], 0xff, sizeof(info[1]));
		memset(&obj, 0, sizeof(obj));
		obj.bpf_fd = (__u32)req->fd;
		obj.info_len = sizeof(info);
		obj.info = (__u64)(uintptr_t)info;
		tk_res_errno(res, tk_bpf(BPF_OBJ_GET_INFO_BY_FD, &obj, sizeof(obj)));
		if (res->rc == 0)
			snprintf(res->text, sizeof(res->text), "len=%u cmds=0x%llx", obj.info_len,
				 (unsigned long long)info[0].allowed_cmds);
		break;
	}
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

	tk_start(&ns, ignored_op);
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "map_create:prog_load:btf_load", "array",
					       "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 1-3 */
	res = tk_call(&ns, TK_OP_CUSTOM, token, IG_MAP, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_MAP_CREATE with value_type_btf_obj_fd set, BPF_F_VTYPE_BTF_OBJ_FD not");
	res = tk_call(&ns, TK_OP_CUSTOM, token, IG_PROG, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_PROG_LOAD with a non-zero log_true_size on input");
	res = tk_call(&ns, TK_OP_CUSTOM, token, IG_BTF, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_BTF_LOAD with a non-zero btf_log_true_size on input");

	/* 4-5 */
	res = tk_call(&ns, TK_OP_CUSTOM, token, IG_INFO, 0, 0, NULL, NULL);
	if (res.rc < 0 && res.err == EINVAL) {
		tap_diag("bpf_token_info: not provided by this kernel (EINVAL), as on 6.9-6.16");
		tap_ok(&t, 1, "BPF_OBJ_GET_INFO_BY_FD on a token, info_len 64, zeroed tail: "
			      "EINVAL or truncated to 32");
	} else {
		tap_diag("bpf_token_info: %s", res.rc == 0 ? res.text : tk_errname(res.err));
		tap_ok(&t, res.rc == 0 && strcmp(res.text, "len=32 cmds=0x40021") == 0,
		       "BPF_OBJ_GET_INFO_BY_FD on a token, info_len 64, zeroed tail: "
		       "EINVAL or truncated to 32");
	}
	res = tk_call(&ns, TK_OP_CUSTOM, token, IG_INFO, 1, 0, NULL, NULL);
	tap_ok(&t, res.rc < 0 && (res.err == EINVAL || res.err == E2BIG),
	       "BPF_OBJ_GET_INFO_BY_FD on a token, info_len 64, non-zero tail: EINVAL or E2BIG (got %s)",
	       res.rc < 0 ? tk_errname(res.err) : "success");

	tk_stop(&ns);
	return tap_done(&t);
}
