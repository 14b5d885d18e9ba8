/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw system calls and UAPI constants the shim needs.  Everything is
 * defined here when libc or the UAPI headers lack it, so the shim builds
 * both against the project's patched headers and plain system headers.
 * The values are the kernel ABI and must not change.
 */
#ifndef SHIM_KERNEL_H
#define SHIM_KERNEL_H

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Syscall numbers, for headers older than the call.  From 424 on
 * (pidfd_send_signal and later) every architecture uses the same number.
 * pivot_root and bpf are older and differ per table: 155 and 321 are
 * x86-64's (the generic table has 41 and 280); any libc header has them,
 * so the fallbacks below matter only on x86-64.
 */
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#if !defined(__NR_pivot_root) && defined(__x86_64__)
#define __NR_pivot_root 155
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#if !defined(__NR_bpf) && defined(__x86_64__)
#define __NR_bpf 321
#endif

/* clone flags */
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#define SHIM_CLONE_INTO_CGROUP 0x200000000ULL

/* fsopen/fsconfig/fsmount/move_mount */
#define SHIM_FSOPEN_CLOEXEC 0x00000001
#define SHIM_FSCONFIG_SET_STRING 1
#define SHIM_FSCONFIG_CMD_CREATE 6
#define SHIM_FSMOUNT_CLOEXEC 0x00000001
#define SHIM_MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define SHIM_OPEN_TREE_CLONE 1
#define SHIM_OPEN_TREE_CLOEXEC 02000000
#define SHIM_MOUNT_ATTR_RDONLY 0x00000001
#define SHIM_MOUNT_ATTR_NOSUID 0x00000002
#define SHIM_MOUNT_ATTR_NODEV 0x00000004
#define SHIM_MOUNT_ATTR_NOEXEC 0x00000008
#define SHIM_MOUNT_ATTR_IDMAP 0x00100000
#define SHIM_MOVE_MOUNT_T_EMPTY_PATH 0x00000040

/* openat2 (5.6+) */
#if !defined(__NR_openat2) && defined(__x86_64__)
#define __NR_openat2 437
#endif
#define SHIM_RESOLVE_NO_MAGICLINKS 0x02
#define SHIM_RESOLVE_NO_SYMLINKS 0x04
#define SHIM_RESOLVE_IN_ROOT 0x10

struct shim_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

static inline int sys_openat2(int dfd, const char *path, struct shim_open_how *how)
{
	return (int)syscall(__NR_openat2, dfd, path, how, sizeof(*how));
}

struct shim_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};

/* pidfd */
#define SHIM_PIDFD_THREAD 00000200	/* O_EXCL */
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

#define SHIM_CLOSE_RANGE_CLOEXEC (1U << 2)

static inline int sys_close_range(unsigned int first, unsigned int last,
				  unsigned int flags)
{
	return (int)syscall(__NR_close_range, first, last, flags);
}

/* bpf */
#define SHIM_BPF_TOKEN_CREATE 36

/* clone3 argument, version 2 layout (88 bytes, Linux 5.7: cgroup) */
struct shim_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

static inline int sys_fsopen(const char *fsname, unsigned int flags)
{
	return (int)syscall(__NR_fsopen, fsname, flags);
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key,
			       const void *value, int aux)
{
	return (int)syscall(__NR_fsconfig, fd, cmd, key, value, aux);
}

static inline int sys_fsmount(int fd, unsigned int flags, unsigned int attrs)
{
	return (int)syscall(__NR_fsmount, fd, flags, attrs);
}

static inline int sys_move_mount(int from_dfd, const char *from_path,
				 int to_dfd, const char *to_path,
				 unsigned int flags)
{
	return (int)syscall(__NR_move_mount, from_dfd, from_path, to_dfd,
			    to_path, flags);
}

static inline int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(__NR_open_tree, dfd, path, flags);
}

static inline int sys_mount_setattr(int dfd, const char *path,
				    unsigned int flags,
				    struct shim_mount_attr *attr)
{
	return (int)syscall(__NR_mount_setattr, dfd, path, flags, attr,
			    sizeof(*attr));
}

static inline int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(__NR_pivot_root, new_root, put_old);
}

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_open, pid, flags);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
					unsigned int flags)
{
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, info, flags);
}

static inline long sys_clone3(struct shim_clone_args *args)
{
	return syscall(__NR_clone3, args, sizeof(*args));
}

static inline int sys_bpf(int cmd, void *attr, unsigned int size)
{
	return (int)syscall(__NR_bpf, cmd, attr, size);
}

/* seccomp(2) (3.17): glibc has no wrapper; SECCOMP_SET_MODE_FILTER is <linux/seccomp.h>'s. */
static inline int sys_seccomp(unsigned int op, unsigned int flags, const void *args)
{
	return (int)syscall(__NR_seccomp, op, flags, args);
}

#endif
