/* BPF LSM on token use: programs on the bpf_token_cmd and
 * bpf_token_capable hooks, loaded by the privileged side, deny a
 * container's use of its token; the kernel then falls back to the initial
 * user namespace checks and the operation fails with EPERM.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "token_common.h"

#define TEST_COUNT 8

#define CAP_BPF_BIT 39

#define LSM_OBJ "/opt/scenarios/bpf/token_lsm.bpf.o"

struct token_lsm_config {
	__u32 tgid;
	__u32 pad;
	__u64 deny_cmds;
	__u64 deny_caps;
};

static void close_obj(struct bpf_object **obj)
{
	bpf_object__close(*obj);
}

static int set_policy(int map_fd, __u32 tgid, __u64 deny_cmds, __u64 deny_caps)
{
	struct token_lsm_config cfg = { .tgid = tgid, .deny_cmds = deny_cmds, .deny_caps = deny_caps };
	__u32 key = 0;

	if (bpf_map_update_elem(map_fd, &key, &cfg, BPF_ANY)) {
		tap_diag("setup: updating the LSM config map: %s", strerror(errno));
		exit(1);
	}
	return 0;
}

static int attach(struct tap *t, struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);
	struct bpf_link *link = prog ? bpf_program__attach_lsm(prog) : NULL;

	if (!link)
		tap_diag("attaching %s: %s", name, strerror(errno));
	return tap_ok(t, link != NULL, "LSM program %s attaches", name);
}

int main(void)
{
	struct bpf_object *obj __attribute__((cleanup(close_obj))) = NULL;
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	struct bpf_map *map;
	int token, mnt, map_fd, err;
	__u32 tgid;

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	obj = bpf_object__open_file(LSM_OBJ, NULL);
	if (!obj) {
		tap_diag("setup: opening %s: %s", LSM_OBJ, strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	/* 1 */
	if (!tap_ok(&t, err == 0, "LSM object with bpf_token_cmd and bpf_token_capable programs loads"))
		tap_diag("loading %s: %s", LSM_OBJ, strerror(-err));
	if (err)
		return tap_done(&t);
	map = bpf_object__find_map_by_name(obj, "config");
	map_fd = map ? bpf_map__fd(map) : -1;
	if (map_fd < 0) {
		tap_diag("setup: no config map in %s", LSM_OBJ);
		return 1;
	}
	/* 2-3 */
	attach(&t, obj, "token_cmd");
	attach(&t, obj, "token_capable");

	tk_start(&ns, NULL);
	res = tk_call(&ns, TK_OP_PID, -1, 0, 0, 0, NULL, NULL);
	tgid = (__u32)res.rc;
	mnt = tk_must_mount(&ns, &(struct tk_deleg){ "map_create:prog_load", "array", "socket_filter", "any" },
			    "/sys/fs/bpf");
	token = tk_must_token(&ns, mnt, "/sys/fs/bpf");

	/* 4: policy installed, nothing denied */
	set_policy(map_fd, tgid, 0, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "no denial: BPF_MAP_CREATE with the token");

	/* 5-6: bpf_token_cmd denies BPF_MAP_CREATE */
	set_policy(map_fd, tgid, 1ULL << BPF_MAP_CREATE, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "bpf_token_cmd denies BPF_MAP_CREATE: BPF_MAP_CREATE with the token");
	res = tk_call(&ns, TK_OP_PROG, token, BPF_PROG_TYPE_SOCKET_FILTER, 0, TK_PROG_RET0, NULL, NULL);
	tk_ok(&t, &res, "bpf_token_cmd denies BPF_MAP_CREATE: BPF_PROG_LOAD with the token");

	/* 7-8: bpf_token_capable denies CAP_BPF */
	set_policy(map_fd, tgid, 0, 1ULL << CAP_BPF_BIT);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "bpf_token_capable denies CAP_BPF: BPF_MAP_CREATE with the token");
	set_policy(map_fd, tgid, 0, 0);
	res = tk_call(&ns, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "denial lifted: BPF_MAP_CREATE with the token");

	tk_stop(&ns);
	return tap_done(&t);
}
