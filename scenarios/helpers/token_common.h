/* Shared plumbing of the token_* scenario helpers.
 *
 * - Raw bpf() attr layouts for the BPF token interface, defined here so the
 *   helpers build against UAPI headers that predate it (stock 6.1) and do
 *   not depend on what the kernel headers under test declare.
 * - A "container": a child process in a new user + mount namespace that
 *   executes requests sent by the privileged parent over a unix socket and
 *   answers with {rc, errno, text}. File descriptors travel with
 *   SCM_RIGHTS in both directions.
 * - A container manager's delegation of a BPF FS: the child calls
 *   fsopen("bpf") in its user namespace and passes the fd up, the parent
 *   sets delegate_* and runs FSCONFIG_CMD_CREATE, the child runs
 *   fsmount + move_mount.
 *
 * Every helper starts with tk_require_tokens(), which skips the whole
 * scenario when the kernel lacks BPF_TOKEN_CREATE (stock 6.1).
 */
#ifndef SCENARIO_TOKEN_COMMON_H
#define SCENARIO_TOKEN_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "cleanup.h"
#include "tap.h"

/* ---- BPF token UAPI, as upstream (>= 6.9) lays it out ---- */

#define TK_BPF_TOKEN_CREATE	36
#define TK_BPF_F_TOKEN_FD	(1U << 16)

struct tk_map_create {
	__u32 map_type;
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;
	__u32 map_flags;
	__u32 inner_map_fd;
	__u32 numa_node;
	char map_name[16];
	__u32 map_ifindex;
	__u32 btf_fd;
	__u32 btf_key_type_id;
	__u32 btf_value_type_id;
	__u32 btf_vmlinux_value_type_id;
	__u64 map_extra;
	__s32 value_type_btf_obj_fd;
	__s32 map_token_fd;
};

struct tk_prog_load {
	__u32 prog_type;
	__u32 insn_cnt;
	__u64 insns;
	__u64 license;
	__u32 log_level;
	__u32 log_size;
	__u64 log_buf;
	__u32 kern_version;
	__u32 prog_flags;
	char prog_name[16];
	__u32 prog_ifindex;
	__u32 expected_attach_type;
	__u32 prog_btf_fd;
	__u32 func_info_rec_size;
	__u64 func_info;
	__u32 func_info_cnt;
	__u32 line_info_rec_size;
	__u64 line_info;
	__u32 line_info_cnt;
	__u32 attach_btf_id;
	__u32 attach_prog_fd;
	__u32 core_relo_cnt;
	__u64 fd_array;
	__u64 core_relos;
	__u32 core_relo_rec_size;
	__u32 log_true_size;
	__s32 prog_token_fd;
};

struct tk_btf_load {
	__u64 btf;
	__u64 btf_log_buf;
	__u32 btf_size;
	__u32 btf_log_size;
	__u32 btf_log_level;
	__u32 btf_log_true_size;
	__u32 btf_flags;
	__s32 btf_token_fd;
};

struct tk_token_create {
	__u32 flags;
	__u32 bpffs_fd;
};

struct tk_obj_info {
	__u32 bpf_fd;
	__u32 info_len;
	__u64 info;
};

/* 6.17's struct bpf_token_info */
struct tk_token_info {
	__u64 allowed_cmds;
	__u64 allowed_maps;
	__u64 allowed_progs;
	__u64 allowed_attachs;
};

_Static_assert(offsetof(struct tk_map_create, map_token_fd) == 76, "map_token_fd offset");
_Static_assert(offsetof(struct tk_prog_load, prog_token_fd) == 144, "prog_token_fd offset");
_Static_assert(offsetof(struct tk_btf_load, btf_flags) == 32, "btf_flags offset");
_Static_assert(offsetof(struct tk_btf_load, btf_token_fd) == 36, "btf_token_fd offset");

static inline long tk_bpf(int cmd, void *attr, unsigned int size)
{
	return syscall(SYS_bpf, cmd, attr, size);
}

/* ---- new mount API (raw syscalls: glibc's and the UAPI headers clash) ---- */

#define TK_FSOPEN_CLOEXEC		0x1
#define TK_FSCONFIG_SET_STRING		1
#define TK_FSCONFIG_CMD_CREATE		6
#define TK_FSMOUNT_CLOEXEC		0x1
#define TK_MOVE_MOUNT_F_EMPTY_PATH	0x4

static inline int tk_fsopen(const char *fs)
{
	return (int)syscall(SYS_fsopen, fs, TK_FSOPEN_CLOEXEC);
}

static inline int tk_fsconfig_str(int fd, const char *key, const char *val)
{
	return (int)syscall(SYS_fsconfig, fd, TK_FSCONFIG_SET_STRING, key, val, 0);
}

static inline int tk_fsconfig_create(int fd)
{
	return (int)syscall(SYS_fsconfig, fd, TK_FSCONFIG_CMD_CREATE, NULL, NULL, 0);
}

static inline int tk_fsmount(int fd)
{
	return (int)syscall(SYS_fsmount, fd, TK_FSMOUNT_CLOEXEC, 0);
}

static inline int tk_move_mount(int mnt_fd, const char *to)
{
	return (int)syscall(SYS_move_mount, mnt_fd, "", AT_FDCWD, to, TK_MOVE_MOUNT_F_EMPTY_PATH);
}

/* ---- small BPF programs and BTF ---- */

static inline struct bpf_insn tk_insn(__u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn insn = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };

	return insn;
}

#define TK_MOV64_IMM(dst, imm)	tk_insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define TK_MOV64_REG(dst, src)	tk_insn(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0)
#define TK_ADD64_IMM(dst, imm)	tk_insn(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm)
#define TK_CALL(fn)		tk_insn(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define TK_EXIT()		tk_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

enum tk_prog_kind {
	TK_PROG_RET0,		/* r0 = 0; exit */
	TK_PROG_READ_KERNEL,	/* bpf_probe_read_kernel(fp - 8, 8, NULL); needs CAP_PERFMON */
	TK_PROG_JIFFIES,	/* bpf_jiffies64(); needs CAP_BPF */
	TK_PROG_LEAK_FP,	/* r0 = fp; exit: a pointer leak, needs CAP_PERFMON */
};

static inline int tk_fill_prog(enum tk_prog_kind kind, struct bpf_insn *insns)
{
	int n = 0;

	switch (kind) {
	case TK_PROG_READ_KERNEL:
		insns[n++] = TK_MOV64_REG(BPF_REG_1, BPF_REG_10);
		insns[n++] = TK_ADD64_IMM(BPF_REG_1, -8);
		insns[n++] = TK_MOV64_IMM(BPF_REG_2, 8);
		insns[n++] = TK_MOV64_IMM(BPF_REG_3, 0);
		insns[n++] = TK_CALL(BPF_FUNC_probe_read_kernel);
		break;
	case TK_PROG_JIFFIES:
		insns[n++] = TK_CALL(BPF_FUNC_jiffies64);
		break;
	case TK_PROG_LEAK_FP:
		insns[n++] = TK_MOV64_REG(BPF_REG_0, BPF_REG_10);
		insns[n++] = TK_EXIT();
		return n;
	case TK_PROG_RET0:
		break;
	}
	insns[n++] = TK_MOV64_IMM(BPF_REG_0, 0);
	insns[n++] = TK_EXIT();
	return n;
}

/* A BTF blob describing one type: int. */
struct tk_btf_blob {
	struct btf_header hdr;
	__u32 types[4];
	char strs[6];
};

static inline void tk_fill_btf(struct tk_btf_blob *b)
{
	memset(b, 0, sizeof(*b));
	b->hdr.magic = BTF_MAGIC;
	b->hdr.version = BTF_VERSION;
	b->hdr.hdr_len = sizeof(b->hdr);
	b->hdr.type_off = 0;
	b->hdr.type_len = sizeof(b->types[0]) * 4;
	b->hdr.str_off = b->hdr.type_len;
	b->hdr.str_len = 5;
	b->types[0] = 1;				/* name_off: "int" */
	b->types[1] = (__u32)BTF_KIND_INT << 24;	/* info */
	b->types[2] = 4;				/* size */
	b->types[3] = (1U << 24) | 32;			/* BTF_INT_SIGNED, 32 bits */
	memcpy(b->strs, "\0int\0", 5);
}

/* ---- requests executed in (or outside) the container ---- */

enum tk_op {
	TK_OP_EXIT,
	TK_OP_FSOPEN,		/* fsopen("bpf"); the fd is also passed up */
	TK_OP_FSCONFIG,		/* fsconfig(fd, SET_STRING, s1, s2) */
	TK_OP_FSCREATE,		/* fsconfig(fd, CMD_CREATE) */
	TK_OP_FSMOUNT,		/* fsmount(fd), move_mount onto s1 unless empty; rc: its root, opened */
	TK_OP_OPEN,		/* open(s1, O_RDONLY | O_DIRECTORY | O_CLOEXEC) */
	TK_OP_MKDIR,		/* mkdir(s1) */
	TK_OP_TOKEN,		/* BPF_TOKEN_CREATE {flags = a, bpffs_fd = fd} */
	TK_OP_MAP,		/* BPF_MAP_CREATE type a, token fd (-1: none) */
	TK_OP_BTF,		/* BPF_BTF_LOAD, token fd (-1: none) */
	TK_OP_PROG,		/* BPF_PROG_LOAD type a, attach b, kind c, token fd */
	TK_OP_CAPS,		/* effective caps = permitted minus the mask (lo a, hi b) */
	TK_OP_FDINFO,		/* text: /proc/self/fdinfo/fd */
	TK_OP_INFO,		/* BPF_OBJ_GET_INFO_BY_FD on fd into struct tk_token_info */
	TK_OP_GETFD,		/* fcntl(fd, F_GETFD) */
	TK_OP_CLOSE,		/* close(fd) */
	TK_OP_SENDFD,		/* pass a copy of fd up */
	TK_OP_RECVFD,		/* take the fd that comes with the request */
	TK_OP_MOUNTOPTS,	/* text: delegate_* options of the mount at s1 */
	TK_OP_PID,		/* rc: getpid() */
	TK_OP_CGROUP,		/* cgroup BPF command c (enum tk_cg_cmd): prog fd, cgroup fd a, attach type b */
	TK_OP_CUSTOM,		/* the helper's own tk_custom_fn */
};

enum tk_cg_cmd {
	TK_CG_ATTACH,		/* BPF_PROG_ATTACH */
	TK_CG_DETACH,		/* BPF_PROG_DETACH */
	TK_CG_LINK,		/* BPF_LINK_CREATE; rc: the link fd */
	TK_CG_QUERY,		/* BPF_PROG_QUERY; rc: 0, text: the program count */
};

struct tk_req {
	int op;
	int fd;
	int a;
	int b;
	int c;
	char s1[256];
	char s2[256];
};

struct tk_res {
	int rc;
	int err;
	char text[2048];
};

/* Helper-specific operation for TK_OP_CUSTOM, run where the request runs. */
typedef void (*tk_custom_fn)(const struct tk_req *req, struct tk_res *res);

struct tk_ns {
	pid_t pid;
	int sock;
	tk_custom_fn custom;
};

/* Send a message with an optional fd (fd < 0: none). */
static inline int tk_sendmsg(int sock, const void *buf, size_t len, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* Receive a message; *fd gets a passed fd or -1. Returns the length or -1. */
static inline ssize_t tk_recvmsg(int sock, void *buf, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cmsg;
	ssize_t n;

	if (fd)
		*fd = -1;
	n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (n <= 0)
		return -1;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS) {
			int got;

			memcpy(&got, CMSG_DATA(cmsg), sizeof(int));
			if (fd)
				*fd = got;
			else
				close(got);
		}
	}
	return n;
}

static inline void tk_res_errno(struct tk_res *res, long rc)
{
	res->rc = (int)rc;
	res->err = rc < 0 ? errno : 0;
}

static inline int tk_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while ((size_t)total < len - 1 && (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	buf[total] = '\0';
	close(fd);
	return (int)total;
}

/* The delegate_* options of the mount at path, from /proc/self/mounts,
 * joined by ',' in the order the kernel shows them.
 */
static inline int tk_mount_delegate_opts(const char *path, char *out, size_t len)
{
	char buf[16384], *line, *save = NULL;

	out[0] = '\0';
	if (tk_read_file("/proc/self/mounts", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[256], dir[256], type[64], opts[4096], *o, *osave = NULL;

		if (sscanf(line, "%255s %255s %63s %4095s", dev, dir, type, opts) != 4)
			continue;
		if (strcmp(dir, path) != 0 || strcmp(type, "bpf") != 0)
			continue;
		out[0] = '\0';	/* the last mount on path is the visible one */
		for (o = strtok_r(opts, ",", &osave); o; o = strtok_r(NULL, ",", &osave)) {
			if (strncmp(o, "delegate_", 9) != 0)
				continue;
			if (out[0])
				strncat(out, ",", len - strlen(out) - 1);
			strncat(out, o, len - strlen(out) - 1);
		}
	}
	return 0;
}

static inline int tk_set_caps(__u64 drop)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective = data[0].permitted & ~(__u32)drop;
	data[1].effective = data[1].permitted & ~(__u32)(drop >> 32);
	return (int)syscall(SYS_capset, &hdr, data);
}

/* The cgroup side of BPF: attach, detach, link, query (see TK_OP_CGROUP). */
static inline void tk_cgroup_cmd(const struct tk_req *req, struct tk_res *res)
{
	union bpf_attr attr;
	__u32 prog_ids[8];

	memset(&attr, 0, sizeof(attr));
	switch (req->c) {
	case TK_CG_ATTACH:
	case TK_CG_DETACH:
		attr.target_fd = (__u32)req->a;
		attr.attach_bpf_fd = (__u32)req->fd;
		attr.attach_type = (__u32)req->b;
		tk_res_errno(res, tk_bpf(req->c == TK_CG_ATTACH ? BPF_PROG_ATTACH : BPF_PROG_DETACH,
					 &attr, sizeof(attr)));
		break;
	case TK_CG_LINK:
		attr.link_create.prog_fd = (__u32)req->fd;
		attr.link_create.target_fd = (__u32)req->a;
		attr.link_create.attach_type = (__u32)req->b;
		tk_res_errno(res, tk_bpf(BPF_LINK_CREATE, &attr, sizeof(attr)));
		break;
	case TK_CG_QUERY:
		attr.query.target_fd = (__u32)req->a;
		attr.query.attach_type = (__u32)req->b;
		attr.query.prog_ids = (__u64)(uintptr_t)prog_ids;
		attr.query.prog_cnt = sizeof(prog_ids) / sizeof(prog_ids[0]);
		tk_res_errno(res, tk_bpf(BPF_PROG_QUERY, &attr, sizeof(attr)));
		if (res->rc == 0)
			snprintf(res->text, sizeof(res->text), "%u", attr.query.prog_cnt);
		break;
	default:
		res->rc = -1;
		res->err = ENOSYS;
	}
}

static inline void tk_exec(const struct tk_ns *ns, const struct tk_req *req,
			   struct tk_res *res, int in_fd, int *out_fd)
{
	struct bpf_insn insns[16];
	long rc;

	memset(res, 0, sizeof(*res));
	switch (req->op) {
	case TK_OP_FSOPEN:
		tk_res_errno(res, tk_fsopen("bpf"));
		if (res->rc >= 0 && out_fd)
			*out_fd = res->rc;
		break;
	case TK_OP_FSCONFIG:
		tk_res_errno(res, tk_fsconfig_str(req->fd, req->s1, req->s2));
		break;
	case TK_OP_FSCREATE:
		tk_res_errno(res, tk_fsconfig_create(req->fd));
		break;
	case TK_OP_FSMOUNT: {
		int mnt = tk_fsmount(req->fd);

		tk_res_errno(res, mnt);
		if (mnt < 0) {
			snprintf(res->text, sizeof(res->text), "fsmount: %s", strerror(res->err));
			break;
		}
		close(req->fd);
		if (req->s1[0]) {
			if (mkdir(req->s1, 0755) && errno != EEXIST) {
				tk_res_errno(res, -1);
				snprintf(res->text, sizeof(res->text), "mkdir %s: %s", req->s1,
					 strerror(res->err));
				close(mnt);
				break;
			}
			if (tk_move_mount(mnt, req->s1)) {
				tk_res_errno(res, -1);
				snprintf(res->text, sizeof(res->text), "move_mount to %s: %s",
					 req->s1, strerror(res->err));
				close(mnt);
				break;
			}
		}
		/* the fsmount fd is O_PATH, which bpf() does not take: open the root */
		tk_res_errno(res, openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
		if (res->rc < 0)
			snprintf(res->text, sizeof(res->text), "opening the new mount: %s",
				 strerror(res->err));
		close(mnt);
		break;
	}
	case TK_OP_OPEN:
		tk_res_errno(res, open(req->s1, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
		break;
	case TK_OP_MKDIR:
		tk_res_errno(res, mkdir(req->s1, 0755));
		break;
	case TK_OP_TOKEN: {
		struct tk_token_create attr = { .flags = (__u32)req->a, .bpffs_fd = (__u32)req->fd };

		tk_res_errno(res, tk_bpf(TK_BPF_TOKEN_CREATE, &attr, sizeof(attr)));
		break;
	}
	case TK_OP_MAP: {
		struct tk_map_create attr;

		memset(&attr, 0, sizeof(attr));
		attr.map_type = (__u32)req->a;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 1;
		if (req->fd >= 0) {
			attr.map_flags = TK_BPF_F_TOKEN_FD;
			attr.map_token_fd = req->fd;
		}
		tk_res_errno(res, tk_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
		break;
	}
	case TK_OP_BTF: {
		struct tk_btf_blob blob;
		struct tk_btf_load attr;

		tk_fill_btf(&blob);
		memset(&attr, 0, sizeof(attr));
		attr.btf = (__u64)(uintptr_t)&blob;
		attr.btf_size = sizeof(blob.hdr) + blob.hdr.type_len + blob.hdr.str_len;
		if (req->fd >= 0) {
			attr.btf_flags = TK_BPF_F_TOKEN_FD;
			attr.btf_token_fd = req->fd;
		}
		tk_res_errno(res, tk_bpf(BPF_BTF_LOAD, &attr, sizeof(attr)));
		break;
	}
	case TK_OP_PROG: {
		char log[4096];
		struct tk_prog_load attr;

		memset(&attr, 0, sizeof(attr));
		attr.prog_type = (__u32)req->a;
		attr.expected_attach_type = (__u32)req->b;
		attr.insn_cnt = (__u32)tk_fill_prog((enum tk_prog_kind)req->c, insns);
		attr.insns = (__u64)(uintptr_t)insns;
		attr.license = (__u64)(uintptr_t)"GPL";
		if (req->fd >= 0) {
			attr.prog_flags = TK_BPF_F_TOKEN_FD;
			attr.prog_token_fd = req->fd;
		}
		rc = tk_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		tk_res_errno(res, rc);
		if (rc < 0 && res->err != EPERM) {
			/* say why the verifier refused it */
			log[0] = '\0';
			attr.log_buf = (__u64)(uintptr_t)log;
			attr.log_size = sizeof(log);
			attr.log_level = 1;
			rc = tk_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
			if (rc >= 0)
				close((int)rc);
			snprintf(res->text, sizeof(res->text), "%.500s", log);
			for (char *p = res->text; *p; p++)
				if (*p == '\n')
					*p = ' ';
		}
		break;
	}
	case TK_OP_CAPS:
		tk_res_errno(res, tk_set_caps((__u64)(__u32)req->a | ((__u64)(__u32)req->b << 32)));
		break;
	case TK_OP_FDINFO: {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", req->fd);
		tk_res_errno(res, tk_read_file(path, res->text, sizeof(res->text)));
		break;
	}
	case TK_OP_INFO: {
		struct tk_token_info info;
		struct tk_obj_info attr;

		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.bpf_fd = (__u32)req->fd;
		attr.info_len = sizeof(info);
		attr.info = (__u64)(uintptr_t)&info;
		tk_res_errno(res, tk_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)));
		if (res->rc == 0)
			snprintf(res->text, sizeof(res->text),
				 "len=%u cmds=0x%llx maps=0x%llx progs=0x%llx attachs=0x%llx",
				 attr.info_len, (unsigned long long)info.allowed_cmds,
				 (unsigned long long)info.allowed_maps,
				 (unsigned long long)info.allowed_progs,
				 (unsigned long long)info.allowed_attachs);
		break;
	}
	case TK_OP_GETFD:
		tk_res_errno(res, fcntl(req->fd, F_GETFD));
		break;
	case TK_OP_CLOSE:
		tk_res_errno(res, close(req->fd));
		break;
	case TK_OP_SENDFD:
		res->rc = 0;
		if (out_fd)
			*out_fd = req->fd;
		break;
	case TK_OP_RECVFD:
		res->rc = in_fd;
		res->err = in_fd < 0 ? EBADF : 0;
		break;
	case TK_OP_MOUNTOPTS:
		tk_res_errno(res, tk_mount_delegate_opts(req->s1, res->text, sizeof(res->text)));
		break;
	case TK_OP_PID:
		res->rc = getpid();
		break;
	case TK_OP_CGROUP:
		tk_cgroup_cmd(req, res);
		break;
	case TK_OP_CUSTOM:
		if (ns && ns->custom) {
			ns->custom(req, res);
			break;
		}
		res->rc = -1;
		res->err = ENOSYS;
		break;
	default:
		res->rc = -1;
		res->err = ENOSYS;
	}
}

/* Child side: serve requests until TK_OP_EXIT or the parent goes away. */
static inline __attribute__((noreturn)) void tk_serve(const struct tk_ns *ns)
{
	struct tk_req req;
	struct tk_res res;
	int in_fd, out_fd;

	for (;;) {
		if (tk_recvmsg(ns->sock, &req, sizeof(req), &in_fd) != (ssize_t)sizeof(req))
			_exit(1);
		if (req.op == TK_OP_EXIT)
			_exit(0);
		out_fd = -1;
		tk_exec(ns, &req, &res, in_fd, &out_fd);
		if (req.op != TK_OP_RECVFD && in_fd >= 0)
			close(in_fd);
		if (tk_sendmsg(ns->sock, &res, sizeof(res), out_fd))
			_exit(1);
	}
}

static inline int tk_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Start a container: a child in new user and mount namespaces, root in its
 * user namespace (uid/gid 0 mapped to 100000..165535 outside), with every
 * capability there, and its mounts private. Exits on failure.
 */
static inline void tk_start(struct tk_ns *ns, tk_custom_fn custom)
{
	char path[64], sync = 0;
	int sv[2];

	ns->custom = custom;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		perror("socketpair");
		exit(1);
	}
	fflush(stdout);
	ns->pid = fork();
	if (ns->pid < 0) {
		perror("fork");
		exit(1);
	}
	if (ns->pid == 0) {
		close(sv[0]);
		ns->sock = sv[1];
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
			perror("container: unshare(CLONE_NEWUSER | CLONE_NEWNS)");
			_exit(1);
		}
		sync = 1;
		if (write(ns->sock, &sync, 1) != 1 || read(ns->sock, &sync, 1) != 1 || sync != 2)
			_exit(1);
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0)) {
			perror("container: setresuid(0)");
			_exit(1);
		}
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
			perror("container: make / private");
			_exit(1);
		}
		tk_serve(ns);
	}
	close(sv[1]);
	ns->sock = sv[0];
	if (read(ns->sock, &sync, 1) != 1 || sync != 1) {
		fprintf(stderr, "container %d did not start\n", ns->pid);
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", ns->pid);
	if (tk_write_file(path, "0 100000 65536\n")) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/%d/gid_map", ns->pid);
	if (tk_write_file(path, "0 100000 65536\n")) {
		perror(path);
		exit(1);
	}
	sync = 2;
	if (write(ns->sock, &sync, 1) != 1) {
		perror("container sync");
		exit(1);
	}
}

static inline void tk_stop(struct tk_ns *ns)
{
	struct tk_req req = { .op = TK_OP_EXIT };
	int status;

	tk_sendmsg(ns->sock, &req, sizeof(req), -1);
	close(ns->sock);
	waitpid(ns->pid, &status, 0);
}

/* Run req in the container (ns) or in this process (ns == NULL). send_fd
 * travels with the request; a fd the operation passes up lands in *recv_fd.
 */
static inline void tk_call_fd(struct tk_ns *ns, struct tk_req *req, struct tk_res *res,
			      int send_fd, int *recv_fd)
{
	int got = -1;

	if (recv_fd)
		*recv_fd = -1;
	if (!ns) {
		tk_exec(NULL, req, res, send_fd >= 0 ? fcntl(send_fd, F_DUPFD_CLOEXEC, 3) : -1, &got);
		if (got >= 0 && recv_fd)
			*recv_fd = fcntl(got, F_DUPFD_CLOEXEC, 3);
		return;
	}
	if (tk_sendmsg(ns->sock, req, sizeof(*req), send_fd) ||
	    tk_recvmsg(ns->sock, res, sizeof(*res), &got) != (ssize_t)sizeof(*res)) {
		res->rc = -1;
		res->err = EPIPE;
		snprintf(res->text, sizeof(res->text), "container %d is gone", ns->pid);
		return;
	}
	if (recv_fd)
		*recv_fd = got;
	else if (got >= 0)
		close(got);
}

static inline struct tk_res tk_call(struct tk_ns *ns, int op, int fd, int a, int b, int c,
				    const char *s1, const char *s2)
{
	struct tk_req req;
	struct tk_res res;

	memset(&req, 0, sizeof(req));
	req.op = op;
	req.fd = fd;
	req.a = a;
	req.b = b;
	req.c = c;
	if (s1)
		snprintf(req.s1, sizeof(req.s1), "%s", s1);
	if (s2)
		snprintf(req.s2, sizeof(req.s2), "%s", s2);
	tk_call_fd(ns, &req, &res, -1, NULL);
	return res;
}

/* ---- the container manager flow ---- */

struct tk_deleg {
	const char *cmds;
	const char *maps;
	const char *progs;
	const char *attachs;
};

/* Mount a BPF FS for the container: it calls fsopen("bpf") and passes the
 * fd up; this (privileged) process sets the delegate_* options and creates
 * the superblock; the container calls fsmount and moves the mount onto
 * target (unless target is empty). Returns an fd of the mount's root in
 * the container, or -1 with *err and why set.
 */
static inline int tk_mount_bpffs(struct tk_ns *ns, const struct tk_deleg *d, const char *target,
				 int *err, char *why, size_t why_len)
{
	const char *keys[4] = { "delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs" };
	const char *vals[4] = { d ? d->cmds : NULL, d ? d->maps : NULL,
				d ? d->progs : NULL, d ? d->attachs : NULL };
	struct tk_req req;
	struct tk_res res;
	int fs_fd AUTOCLOSE = -1;
	int child_fs_fd, i;

	*err = 0;
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_FSOPEN;
	tk_call_fd(ns, &req, &res, -1, &fs_fd);
	if (res.rc < 0 || fs_fd < 0) {
		*err = res.err ? res.err : EBADF;
		snprintf(why, why_len, "fsopen(\"bpf\") in the container: %s", strerror(*err));
		return -1;
	}
	child_fs_fd = res.rc;
	for (i = 0; i < 4; i++) {
		if (!vals[i])
			continue;
		if (tk_fsconfig_str(fs_fd, keys[i], vals[i])) {
			*err = errno;
			snprintf(why, why_len, "fsconfig %s=%s: %s", keys[i], vals[i], strerror(*err));
			tk_call(ns, TK_OP_CLOSE, child_fs_fd, 0, 0, 0, NULL, NULL);
			return -1;
		}
	}
	if (tk_fsconfig_create(fs_fd)) {
		*err = errno;
		snprintf(why, why_len, "FSCONFIG_CMD_CREATE: %s", strerror(*err));
		tk_call(ns, TK_OP_CLOSE, child_fs_fd, 0, 0, 0, NULL, NULL);
		return -1;
	}
	res = tk_call(ns, TK_OP_FSMOUNT, child_fs_fd, 0, 0, 0, target, NULL);
	if (res.rc < 0) {
		*err = res.err;
		snprintf(why, why_len, "%.400s", res.text);
		return -1;
	}
	return res.rc;
}

/* Mount or die (setup steps that are not themselves under test). */
static inline int tk_must_mount(struct tk_ns *ns, const struct tk_deleg *d, const char *target)
{
	char why[512];
	int err, fd;

	fd = tk_mount_bpffs(ns, d, target, &err, why, sizeof(why));
	if (fd < 0) {
		tap_diag("setup: mounting a BPF FS at '%s' failed: %s", target, why);
		exit(1);
	}
	return fd;
}

/* ---- checks ---- */

static inline const char *tk_errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "E?";
}

/* Token from a BPF FS fd, or die (setup steps not under test). */
static inline int tk_must_token(struct tk_ns *ns, int bpffs_fd, const char *where)
{
	struct tk_res res = tk_call(ns, TK_OP_TOKEN, bpffs_fd, 0, 0, 0, NULL, NULL);

	if (res.rc < 0) {
		tap_diag("setup: BPF_TOKEN_CREATE on %s: %s", where, tk_errname(res.err));
		exit(1);
	}
	return res.rc;
}

/* rc >= 0 expected */
static inline int tk_ok(struct tap *t, const struct tk_res *res, const char *what)
{
	if (res->rc >= 0)
		return tap_ok(t, 1, "%s succeeds", what);
	if (res->text[0])
		tap_diag("%s", res->text);
	return tap_ok(t, 0, "%s succeeds (got %s)", what, tk_errname(res->err));
}

/* failure with errno want expected */
static inline int tk_fails(struct tap *t, const struct tk_res *res, int want, const char *what)
{
	int good = res->rc < 0 && res->err == want;

	if (!good && res->text[0])
		tap_diag("%s", res->text);
	return tap_ok(t, good, "%s fails with %s (got %s)", what, tk_errname(want),
		      res->rc < 0 ? tk_errname(res->err) : "success");
}

/* In a fresh container, mount a BPF FS the privileged side configured
 * with d: /proc/mounts then shows want; with want NULL, fsconfig fails
 * with err_want instead.
 */
static inline void tk_check_mount(struct tap *t, const char *what, const struct tk_deleg *d,
				  const char *want, int err_want)
{
	struct tk_ns ns;
	struct tk_res res;
	char why[512];
	int err, mnt;

	tk_start(&ns, NULL);
	mnt = tk_mount_bpffs(&ns, d, "/sys/fs/bpf", &err, why, sizeof(why));
	if (!want) {
		tap_ok(t, mnt < 0 && err == err_want && strstr(why, "fsconfig"),
		       "%s: fsconfig fails with %s (got %s)", what, tk_errname(err_want),
		       mnt < 0 ? why : "success");
	} else if (mnt < 0) {
		tap_diag("%s", why);
		tap_ok(t, 0, "%s: mount succeeds (got %s)", what, tk_errname(err));
	} else {
		res = tk_call(&ns, TK_OP_MOUNTOPTS, -1, 0, 0, 0, "/sys/fs/bpf", NULL);
		if (res.rc < 0)
			tap_diag("reading /proc/self/mounts: %s", tk_errname(res.err));
		tap_ok(t, res.rc == 0 && strcmp(res.text, want) == 0,
		       "%s: /proc/mounts shows '%s' (got '%s')", what, want, res.text);
	}
	tk_stop(&ns);
}

/* ---- environment ---- */

/* Skip the whole scenario on kernels without BPF tokens. BPF_TOKEN_CREATE
 * with an invalid fd gives EBADF where the command exists and EINVAL
 * (unknown command) where it does not.
 */
static inline void tk_require_tokens(void)
{
	struct tk_token_create attr = { .flags = 0, .bpffs_fd = (__u32)-1 };

	if (tk_bpf(TK_BPF_TOKEN_CREATE, &attr, sizeof(attr)) < 0 && errno == EINVAL)
		tap_skip_all("BPF_TOKEN_CREATE (bpffs_fd -1): EINVAL, the command is unknown");
}

/* Unprivileged BPF must be off, otherwise array maps and socket filters
 * load without a token and the "without token" checks prove nothing.
 * Debian's kernels default to 2; make sure.
 */
static inline void tk_require_unpriv_bpf_off(void)
{
	const char *path = "/proc/sys/kernel/unprivileged_bpf_disabled";
	char buf[16] = "";

	if (tk_read_file(path, buf, sizeof(buf)) < 0) {
		tap_diag("setup: reading %s: %s", path, strerror(errno));
		exit(1);
	}
	if (buf[0] == '0') {
		tap_diag("setup: %s was 0, setting 2", path);
		if (tk_write_file(path, "2")) {
			tap_diag("setup: writing %s: %s", path, strerror(errno));
			exit(1);
		}
	}
}

#endif
