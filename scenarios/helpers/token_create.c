/* BPF_TOKEN_CREATE: success and each documented error, with the BPF FS set
 * up by the privileged side the way a container manager does.
 */
#include "token_common.h"

#define TEST_COUNT 13

#define CAP_BPF_BIT 39

static const struct tk_deleg deleg = {
	"map_create:prog_load:btf_load", "array", "socket_filter", "cgroup_inet_ingress",
};

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns a, b;
	struct tk_res res;
	struct tk_req req;
	int mnt, root, sub, tmp, plain, token, local_fs;
	int mnt_here AUTOCLOSE = -1;
	int init_mnt AUTOCLOSE = -1;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	tk_start(&a, NULL);
	mnt = tk_must_mount(&a, &deleg, "/sys/fs/bpf");

	/* 1-2: a token from the delegating BPF FS root, O_CLOEXEC */
	res = tk_call(&a, TK_OP_OPEN, -1, 0, 0, 0, "/sys/fs/bpf", NULL);
	root = res.rc;
	res = tk_call(&a, TK_OP_TOKEN, root, 0, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_TOKEN_CREATE in the container on its delegating BPF FS");
	token = res.rc;
	res = tk_call(&a, TK_OP_GETFD, token, 0, 0, 0, NULL, NULL);
	tap_ok(&t, res.rc >= 0 && (res.rc & FD_CLOEXEC), "the token fd is close-on-exec (F_GETFD %d)",
	       res.rc);

	/* 3: flags must be 0 */
	res = tk_call(&a, TK_OP_TOKEN, root, 1, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EINVAL, "BPF_TOKEN_CREATE with flags 1");

	/* 4-6: the fd must be the root of a BPF FS */
	tk_call(&a, TK_OP_MKDIR, -1, 0, 0, 0, "/sys/fs/bpf/sub", NULL);
	res = tk_call(&a, TK_OP_OPEN, -1, 0, 0, 0, "/sys/fs/bpf/sub", NULL);
	sub = res.rc;
	res = tk_call(&a, TK_OP_TOKEN, sub, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EINVAL, "BPF_TOKEN_CREATE on a subdirectory of the BPF FS");
	res = tk_call(&a, TK_OP_OPEN, -1, 0, 0, 0, "/tmp", NULL);
	tmp = res.rc;
	res = tk_call(&a, TK_OP_TOKEN, tmp, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EINVAL, "BPF_TOKEN_CREATE on a directory that is not a BPF FS (/tmp)");
	res = tk_call(&a, TK_OP_TOKEN, -1, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EBADF, "BPF_TOKEN_CREATE with bpffs_fd -1");

	/* 7: a BPF FS without delegation */
	plain = tk_must_mount(&a, NULL, "/tmp/plain-bpffs");
	res = tk_call(&a, TK_OP_TOKEN, plain, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, ENOENT, "BPF_TOKEN_CREATE on a BPF FS without delegate_* options");

	/* 8: CAP_BPF is needed in the owning user namespace */
	res = tk_call(&a, TK_OP_CAPS, -1, 0, 1 << (CAP_BPF_BIT - 32), 0, NULL, NULL);
	if (res.rc < 0)
		tap_diag("dropping CAP_BPF: %s", tk_errname(res.err));
	res = tk_call(&a, TK_OP_TOKEN, mnt, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_TOKEN_CREATE without CAP_BPF in the owning user namespace");
	tk_call(&a, TK_OP_CAPS, -1, 0, 0, 0, NULL, NULL);

	/* 9: a sibling user namespace */
	tk_start(&b, NULL);
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_SENDFD;
	req.fd = mnt;
	tk_call_fd(&a, &req, &res, -1, &mnt_here);
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_RECVFD;
	tk_call_fd(&b, &req, &res, mnt_here, NULL);
	res = tk_call(&b, TK_OP_TOKEN, res.rc, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_TOKEN_CREATE from a sibling user namespace");
	tk_stop(&b);

	/* 10: the initial user namespace on the container's BPF FS: the
	 * user namespace mismatch comes before EOPNOTSUPP
	 */
	res = tk_call(NULL, TK_OP_TOKEN, mnt_here, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "BPF_TOKEN_CREATE from the initial user namespace on the container's BPF FS");

	/* 11: a delegating BPF FS owned by the initial user namespace */
	local_fs = tk_mount_bpffs(NULL, &(struct tk_deleg){ "any", "any", "any", "any" }, "",
				  &res.err, res.text, sizeof(res.text));
	init_mnt = local_fs;
	if (local_fs < 0) {
		tap_diag("%s", res.text);
		tap_ok(&t, 0, "BPF_TOKEN_CREATE in the initial user namespace: BPF FS setup failed");
	} else {
		res = tk_call(NULL, TK_OP_TOKEN, local_fs, 0, 0, 0, NULL, NULL);
		tk_fails(&t, &res, EOPNOTSUPP, "BPF_TOKEN_CREATE in the initial user namespace");
	}

	/* 12-13: the token still works after all that, and a second one too */
	res = tk_call(&a, TK_OP_MAP, token, BPF_MAP_TYPE_ARRAY, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "BPF_MAP_CREATE (array) with the token");
	res = tk_call(&a, TK_OP_TOKEN, mnt, 0, 0, 0, NULL, NULL);
	tk_ok(&t, &res, "a second BPF_TOKEN_CREATE on the same BPF FS");

	tk_stop(&a);
	return tap_done(&t);
}
