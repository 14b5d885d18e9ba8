// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Escape attempts run as the container's root inside `shim run`.  Each
 * mode prints what it tried and exits 0 when every attempt failed (the
 * wall held), 1 when one got through, 2 on a usage or setup error.
 *
 *   shim_escape mount MARKER   umount2("/", MNT_DETACH), setns() into its own
 *                              mount namespace and a chroot(".."...) walk;
 *                              MARKER is a file only the host's root has
 *   shim_escape proc1          open the container init's fds and exe
 *                              through /proc/1
 *   shim_escape fds            list the command's own fds above 2
 *   shim_escape tiocsti        TIOCSTI on fds 0-2 and /dev/tty
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int reached(const char *marker, const char *how)
{
	if (access(marker, F_OK) == 0) {
		printf("ESCAPED: %s reaches the host's %s\n", how, marker);
		return 1;
	}
	printf("held: after %s, %s is not there (%s)\n", how, marker, strerror(errno));
	return 0;
}

static int try_mount(const char *marker)
{
	int escaped = 0, nsfd;

	if (access(marker, F_OK) == 0) {
		printf("setup: %s is visible before any attack\n", marker);
		return 2;
	}
	nsfd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		printf("setup: open /proc/self/ns/mnt: %s\n", strerror(errno));
		return 2;
	}
	if (umount2("/", MNT_DETACH) == 0)
		printf("umount2 / MNT_DETACH: succeeded\n");
	else
		printf("umount2 / MNT_DETACH: %s\n", strerror(errno));
	if (setns(nsfd, CLONE_NEWNS) == 0) {
		printf("setns own mount namespace: succeeded\n");
		if (chdir("/") < 0)
			printf("chdir /: %s\n", strerror(errno));
		escaped |= reached(marker, "umount2 + setns");
	} else {
		printf("setns own mount namespace: %s\n", strerror(errno));
	}
	/* The classic chroot break: leave a nested chroot by "..". */
	mkdir("/tmp/.escape", 0700);
	if (chroot("/tmp/.escape") == 0) {
		for (int i = 0; i < 64; i++)
			if (chdir("..") < 0)
				break;
		if (chroot(".") < 0)
			printf("chroot .: %s\n", strerror(errno));
		escaped |= reached(marker, "chroot + chdir ..");
	} else {
		printf("chroot /tmp/.escape: %s\n", strerror(errno));
	}
	return escaped;
}

static int try_open(const char *path, int flags, const char *what)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0) {
		char target[256] = "";
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n > 0)
			target[n] = '\0';
		printf("ESCAPED: opened %s for %s (-> %s)\n", path, what, target);
		close(fd);
		return 1;
	}
	printf("held: open %s for %s: %s\n", path, what, strerror(errno));
	return 0;
}

static int try_proc1(void)
{
	char link[256];
	int escaped = 0;
	DIR *d;

	d = opendir("/proc/1/fd");
	if (d) {
		struct dirent *de;

		while ((de = readdir(d)) != NULL) {
			char path[300];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/1/fd/%s", de->d_name);
			escaped |= try_open(path, O_RDONLY, "reading");
			escaped |= try_open(path, O_WRONLY | O_APPEND, "writing");
		}
		closedir(d);
	} else {
		printf("held: opendir /proc/1/fd: %s\n", strerror(errno));
	}
	/* fds 0-2 are the caller's stdio, which the container has anyway. */
	for (int fd = 3; fd < 64; fd++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/1/fd/%d", fd);
		escaped |= try_open(path, O_RDONLY, "reading");
	}
	escaped |= try_open("/proc/1/exe", O_RDONLY, "reading");
	escaped |= try_open("/proc/1/exe", O_WRONLY, "writing");
	if (readlink("/proc/1/exe", link, sizeof(link)) >= 0) {
		printf("ESCAPED: readlink /proc/1/exe works\n");
		escaped = 1;
	} else {
		printf("held: readlink /proc/1/exe: %s\n", strerror(errno));
	}
	return escaped;
}

static int list_fds(void)
{
	int leaked = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d) {
		printf("setup: opendir /proc/self/fd: %s\n", strerror(errno));
		return 2;
	}
	while ((de = readdir(d)) != NULL) {
		int fd = atoi(de->d_name);
		char path[300], target[256];
		ssize_t n;

		if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		printf("LEAKED: fd %d -> %s\n", fd, target);
		leaked = 1;
	}
	closedir(d);
	if (!leaked)
		printf("held: only fds 0, 1 and 2\n");
	return leaked;
}

static int try_tiocsti(void)
{
	static const char inject[] = "echo INJECTED\n";
	int escaped = 0;
	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	int fds[4] = { 0, 1, 2, tty };

	if (tty < 0)
		printf("held: open /dev/tty: %s\n", strerror(errno));
	for (int i = 0; i < 4; i++) {
		if (fds[i] < 0 || !isatty(fds[i]))
			continue;
		if (ioctl(fds[i], TIOCSTI, &inject[0]) == 0) {
			printf("ESCAPED: TIOCSTI on fd %d (%s) injected input\n", fds[i],
			       i == 3 ? "/dev/tty" : "stdio");
			escaped = 1;
		} else {
			printf("held: TIOCSTI on fd %d: %s\n", fds[i], strerror(errno));
		}
	}
	return escaped;
}

int main(int argc, char **argv)
{
	int r;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && strcmp(argv[1], "mount") == 0)
		r = try_mount(argv[2]);
	else if (argc == 2 && strcmp(argv[1], "proc1") == 0)
		r = try_proc1();
	else if (argc == 2 && strcmp(argv[1], "fds") == 0)
		r = list_fds();
	else if (argc == 2 && strcmp(argv[1], "tiocsti") == 0)
		r = try_tiocsti();
	else {
		fprintf(stderr, "usage: shim_escape mount MARKER | proc1 | fds | tiocsti\n");
		r = 2;
	}
	return r;
}
