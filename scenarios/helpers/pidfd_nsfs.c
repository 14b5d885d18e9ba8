// SPDX-License-Identifier: GPL-2.0
/*
 * nsfs after its move to the stashed-dentry helper shared with pidfs: one
 * inode per namespace however it is opened, ioctls, bind mounts that keep a
 * namespace alive, and setns() through a process pidfd. Runs on every kernel.
 * usage: pidfd_nsfs
 */
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <linux/nsfs.h>

#include "pidfd_common.h"

static uint64_t ino_path(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

static uint64_t ino_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_ino;
}

/* A child in a new UTS namespace with @name as hostname, waiting on a pipe. */
static pid_t uts_child(const char *name, int *release)
{
	int p[2], r[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) || pipe2(r, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(r[1]);
		if (unshare(CLONE_NEWUTS) || sethostname(name, strlen(name)) || write(p[1], "x", 1) != 1)
			_exit(2);
		while (read(r[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[1]);
	close(r[0]);
	*release = r[1];
	if (read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/* In a forked child: setns(@fd, @type) and compare the hostname with @want. */
static int hostname_after_setns(int fd, int type, const char *want)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		struct utsname u;

		if (setns(fd, type) || uname(&u))
			_exit(2);
		_exit(strcmp(u.nodename, want) ? 3 : 0);
	}
	return pf_wait(pid);
}

int main(void)
{
	struct tap t = { 0 };
	PF_AUTOCLOSE int a = -1, b = -1, user = -1, pidfd = -1;
	char link[128], want[64], dir[] = "/tmp/pidfd-nsfs.XXXXXX", target[128];
	struct statfs sfs;
	int release = -1, st;
	uint64_t ino;
	ssize_t n;
	pid_t pid;

	tap_plan(&t, 10);

	a = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	b = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	ino = ino_fd(a);
	tap_ok(&t, ino && ino == ino_fd(b) && ino == ino_path("/proc/self/ns/uts"),
	       "two opens of /proc/self/ns/uts share one inode (%llu)", (unsigned long long)ino);
	n = readlink("/proc/self/ns/uts", link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "uts:[%llu]", (unsigned long long)ino);
	tap_ok(&t, !strcmp(link, want), "the ns link names type and inode (%s)", link);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	tap_ok(&t, !strcmp(target, want), "an open ns fd reads the same in /proc/self/fd (%s)", target);
	tap_ok(&t, !fstatfs(a, &sfs) && (unsigned long)sfs.f_type == NSFS_MAGIC, "fstatfs of an ns fd is NSFS_MAGIC");
	tap_ok(&t, ioctl(a, NS_GET_NSTYPE) == CLONE_NEWUTS, "NS_GET_NSTYPE of the uts ns fd");
	user = ioctl(a, NS_GET_USERNS);
	tap_ok(&t, user >= 0 && ino_fd(user) == ino_path("/proc/self/ns/user"),
	       "NS_GET_USERNS opens the owning user namespace, the same inode as /proc/self/ns/user");
	close(a);
	close(b);
	a = b = -1;
	tap_ok(&t, ino_path("/proc/self/ns/uts") == ino, "after closing every fd the namespace keeps its inode number");

	/* A bind mount keeps the namespace, and its file, alive after the child. */
	pid = uts_child("nsfs-bind", &release);
	pidfd = pid > 0 ? sys_pidfd_open(pid, 0) : -1;
	st = pidfd >= 0 ? hostname_after_setns(pidfd, CLONE_NEWUTS, "nsfs-bind") : -1;
	tap_ok(&t, st == 0, "setns(process pidfd, CLONE_NEWUTS) enters the child's namespace (status %#x)", st);
	{
		char src[64], file[96];
		PF_AUTOCLOSE int fd = -1;

		snprintf(src, sizeof(src), "/proc/%d/ns/uts", pid);
		snprintf(file, sizeof(file), "%s/uts", mkdtemp(dir) ?: "/tmp");
		fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		st = fd >= 0 && !mount(src, file, NULL, MS_BIND, NULL) ? 0 : -1;
		close(release);
		pf_wait(pid);
		close(fd);
		fd = st ? -1 : open(file, O_RDONLY | O_CLOEXEC);
		st = fd >= 0 ? hostname_after_setns(fd, CLONE_NEWUTS, "nsfs-bind") : -1;
		tap_ok(&t, st == 0, "a bind-mounted ns file outlives its process and still works for setns (%#x)", st);
		close(fd);
		fd = -1;
		st = umount(file);
		tap_ok(&t, !st, "the bind mount goes away cleanly (%s)", pf_err(st));
		unlink(file);
		rmdir(dir);
	}
	return tap_done(&t);
}
