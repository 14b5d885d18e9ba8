// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --events stream: one JSON object per line, written without stdio
 * buffering; a batch of thread exits goes out in one write.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>

#include "events.h"
#include "kernel.h"

/* The events file, opened without following a symlink in any component. */
static int open_no_symlinks(const char *path, int flags, mode_t mode)
{
	struct shim_open_how how = {
		/* openat2 refuses O_NOCTTY beside O_PATH. */
		.flags = (uint64_t)flags | O_CLOEXEC | (flags & O_PATH ? 0 : O_NOCTTY),
		.mode = flags & O_CREAT ? mode : 0,
		.resolve = SHIM_RESOLVE_NO_SYMLINKS | SHIM_RESOLVE_NO_MAGICLINKS,
	};

	return sys_openat2(AT_FDCWD, path, &how);
}

/*
 * File systems whose regular files only store data.  A file of procfs,
 * sysfs, cgroupfs, debugfs, tracefs, securityfs, configfs, binfmt_misc,
 * efivarfs, pstore or the BPF FS is a knob of the kernel: a write there
 * (root's, at that) sets a sysctl or a host name.  Anything not named is
 * refused, so a new kernel file system is not taken for a data one.
 */
static const struct {
	unsigned long magic;
	const char *name;
} data_fs[] = {
	{ EXT4_SUPER_MAGIC, "ext2/3/4" },
	{ XFS_SUPER_MAGIC, "xfs" },
	{ BTRFS_SUPER_MAGIC, "btrfs" },
	{ TMPFS_MAGIC, "tmpfs" },
	{ OVERLAYFS_SUPER_MAGIC, "overlayfs" },
	{ F2FS_SUPER_MAGIC, "f2fs" },
	{ NFS_SUPER_MAGIC, "nfs" },
	{ 0x2fc12fc1, "zfs" },
	{ 0xca451a4e, "bcachefs" },
	{ REISERFS_SUPER_MAGIC, "reiserfs" },
	{ MSDOS_SUPER_MAGIC, "vfat" },
	{ 0x2011bab0, "exfat" },
};

/* 0 when fd is a FIFO or a regular file of a data file system. */
static int events_target_check(int fd, const char *path, struct shim_err *err)
{
	struct statfs sfs;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return shim_fail(err, errno, "--events %s: stat", path);
	if (S_ISFIFO(st.st_mode))
		return 0;
	if (!S_ISREG(st.st_mode))
		return shim_fail(err, EINVAL, "--events %s: not a regular file or a FIFO", path);
	if (fstatfs(fd, &sfs) < 0)
		return shim_fail(err, errno, "--events %s: statfs", path);
	for (size_t i = 0; i < ARRAY_SIZE(data_fs); i++)
		if ((unsigned long)sfs.f_type == data_fs[i].magic)
			return 0;
	return shim_fail(err, EINVAL, "--events %s: a file of a file system of type 0x%lx, "
			 "which is not one that stores data (ext4, xfs, btrfs, tmpfs, overlayfs, "
			 "f2fs, nfs, zfs, bcachefs, reiserfs, vfat, exfat): a file of procfs, sysfs "
			 "and their like is a setting of the kernel", path,
			 (unsigned long)sfs.f_type),
	       shim_fail_note(err, "name a file on a data file system, or a FIFO");
}

static int events_open_error(const char *path, struct shim_err *err)
{
	int e = errno;

	shim_fail(err, e, "--events %s", path);
	if (e == ELOOP)
		shim_fail_note(err, "the path has a symlink: name the file by a path without one");
	else if (e == ENOSYS)
		shim_fail_note(err, "opening it without following symlinks needs openat2 (Linux 5.6)");
	return -1;
}

int shim_events_open(const char *path, struct shim_err *err)
{
	cleanup_fd int at = -1;
	cleanup_fd int fd = -1;
	char reopen[64];

	/*
	 * The shim often runs as root on a path a user named: no symlink is
	 * followed in any component, what exists is appended to, never
	 * truncated, and only a regular file or a FIFO is written.  The type
	 * is checked on an O_PATH descriptor, which opens nothing: a device
	 * is never opened, a missing file is created only as a new regular
	 * file (O_EXCL).  O_NONBLOCK only for the open: a FIFO without a
	 * reader fails with ENXIO instead of hanging the shim.
	 */
	for (int tries = 0; fd < 0; tries++) {
		at = open_no_symlinks(path, O_PATH, 0);
		if (at >= 0) {
			if (events_target_check(at, path, err))
				return -1;
			/* The inode just checked, not the path again. */
			snprintf(reopen, sizeof(reopen), "/proc/self/fd/%d", at);
			fd = open(reopen, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0)
				return events_open_error(path, err);
			break;
		}
		if (errno != ENOENT)
			return events_open_error(path, err);
		fd = open_no_symlinks(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NONBLOCK,
				      0644);
		/* Made by someone else meanwhile: check what it is, once more. */
		if (fd < 0 && (errno != EEXIST || tries > 0))
			return events_open_error(path, err);
		/* Made here, empty: where no data file system would take it, it goes again. */
		if (fd >= 0 && events_target_check(fd, path, err)) {
			unlink(path);
			return -1;
		}
	}
	if (fcntl(fd, F_SETFL, O_APPEND) < 0)
		return shim_fail(err, errno, "--events %s: fcntl", path);
	return shim_steal_fd(&fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The whole line, or an error that names the event. */
static int write_event(int fd, const char *event, const char *buf, size_t len,
		       struct shim_err *err)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return shim_fail(err, errno, "--events: write the %s event", event);
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int shim_event_format_thread_exit(char *buf, size_t len, pid_t tid, pid_t pid,
				  double time)
{
	return snprintf(buf, len,
			"{\"event\":\"thread-exit\",\"tid\":%d,\"pid\":%d,\"time\":%.6f}\n",
			(int)tid, (int)pid, time);
}

int shim_event_thread_exits(int fd, const struct shim_thread_exit *exits, size_t n,
			    struct shim_err *err)
{
	char buf[16384];
	size_t off = 0;
	double time;

	if (fd < 0 || n == 0)
		return 0;
	time = now();
	for (size_t i = 0; i < n; i++) {
		/* A line is under 100 bytes: write out before one may not fit. */
		if (sizeof(buf) - off < 256) {
			if (write_event(fd, "thread-exit", buf, off, err))
				return -1;
			off = 0;
		}
		off += (size_t)shim_event_format_thread_exit(buf + off, sizeof(buf) - off,
							     exits[i].tid, exits[i].pid, time);
	}
	return write_event(fd, "thread-exit", buf, off, err);
}

int shim_event_container_start(int fd, pid_t pid, struct shim_err *err)
{
	char buf[256];
	int n;

	if (fd < 0)
		return 0;
	n = snprintf(buf, sizeof(buf),
		     "{\"event\":\"container-start\",\"pid\":%d,\"time\":%.6f}\n",
		     (int)pid, now());
	return write_event(fd, "container-start", buf, (size_t)n, err);
}

int shim_event_container_exit(int fd, pid_t pid, int status, uint64_t oom_kills,
			      struct shim_err *err)
{
	char buf[256];
	int n;

	if (fd < 0)
		return 0;
	n = snprintf(buf, sizeof(buf),
		     "{\"event\":\"container-exit\",\"pid\":%d,\"status\":%d,\"oom_kill\":%llu,"
		     "\"time\":%.6f}\n", (int)pid, status, (unsigned long long)oom_kills, now());
	return write_event(fd, "container-exit", buf, (size_t)n, err);
}

int shim_event_note(int fd, const char *event, const char *detail,
		    struct shim_err *err)
{
	char buf[1024];
	size_t off;
	int n;

	if (fd < 0)
		return 0;
	n = snprintf(buf, sizeof(buf), "{\"event\":\"%s\",\"detail\":\"", event);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return shim_fail(err, ENAMETOOLONG, "--events: the %.64s event", event);
	off = (size_t)n;
	for (const char *p = detail; *p && off + 8 < sizeof(buf); p++) {
		if (*p == '"' || *p == '\\')
			buf[off++] = '\\';
		buf[off++] = (unsigned char)*p < 0x20 ? ' ' : *p;
	}
	n = snprintf(buf + off, sizeof(buf) - off, "\",\"time\":%.6f}\n", now());
	if (n < 0 || (size_t)n >= sizeof(buf) - off)
		return shim_fail(err, ENAMETOOLONG, "--events: the %.64s event", event);
	return write_event(fd, event, buf, off + (size_t)n, err);
}
