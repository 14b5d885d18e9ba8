// SPDX-License-Identifier: GPL-2.0
/*
 * nsfs after its move to the stashed-dentry helper shared with pidfs: one
 * inode per namespace however it is opened, ioctls, bind mounts that keep a
 * namespace alive, and setns() through a process pidfd. Runs on every kernel.
 * usage: pidfd_nsfs
 */
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <linux/nsfs.h>

#include "pidfd_common.h"

static uint64_t ino_path(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

int main(void)
{
	struct tap t = { 0 };
	AUTOCLOSE int a = -1, b = -1, user = -1, pidfd = -1;
	char link[128], want[64], dir[] = "/tmp/pidfd-nsfs.XXXXXX", target[128], got[128] = "";
	struct statfs sfs;
	int release = -1, st;
	uint64_t ino;
	ssize_t n;
	pid_t pid;

	tap_plan(&t, 10);

	a = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	b = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	ino = pf_ino(a);
	tap_ok(&t, ino && ino == pf_ino(b) && ino == ino_path("/proc/self/ns/uts"),
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
	tap_ok(&t, user >= 0 && pf_ino(user) == ino_path("/proc/self/ns/user"),
	       "NS_GET_USERNS opens the owning user namespace, the same inode as /proc/self/ns/user");
	close(a);
	close(b);
	a = b = -1;
	tap_ok(&t, ino_path("/proc/self/ns/uts") == ino, "after closing every fd the namespace keeps its inode number");

	/* A bind mount keeps the namespace, and its file, alive after the child. */
	pid = pf_waiting_child(CLONE_NEWUTS, "nsfs-bind", &release);
	pidfd = pid > 0 ? sys_pidfd_open(pid, 0) : -1;
	tap_ok(&t, pidfd >= 0 && pf_setns_sees_hostname(pidfd, CLONE_NEWUTS, "nsfs-bind", got, sizeof(got)),
	       "setns(process pidfd, CLONE_NEWUTS) enters the child's namespace (hostname '%s')", got);
	{
		char src[64], file[96];
		AUTOCLOSE int fd = -1;

		snprintf(src, sizeof(src), "/proc/%d/ns/uts", pid);
		snprintf(file, sizeof(file), "%s/uts", mkdtemp(dir) ?: "/tmp");
		fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		st = fd >= 0 && !mount(src, file, NULL, MS_BIND, NULL) ? 0 : -1;
		close(release);
		pf_wait(pid);
		close(fd);
		fd = st ? -1 : open(file, O_RDONLY | O_CLOEXEC);
		tap_ok(&t, fd >= 0 && pf_setns_sees_hostname(fd, CLONE_NEWUTS, "nsfs-bind", got, sizeof(got)),
		       "a bind-mounted ns file outlives its process and still works for setns (hostname '%s')",
		       got);
		close(fd);
		fd = -1;
		st = umount(file);
		tap_ok(&t, !st, "the bind mount goes away cleanly (%s)", pf_err(st));
		unlink(file);
		rmdir(dir);
	}
	return tap_done(&t);
}
