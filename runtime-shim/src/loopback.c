// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --net none gives the container a network namespace of its own, whose
 * only interface, lo, starts down; runc and crun bring it up, and
 * programs expect 127.0.0.1 to answer.  SIOCSIFFLAGS is the smallest way:
 * the interface ioctls work on any socket, and an AF_UNIX one exists even
 * in a kernel without IPv4.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "loopback.h"

int shim_loopback_up(struct shim_err *err)
{
	cleanup_fd int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	if (sock < 0)
		return shim_fail(err, errno, "loopback: socket");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
		return shim_fail(err, errno, "loopback: SIOCGIFFLAGS lo");
	if (ifr.ifr_flags & IFF_UP)
		return 0;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sock, SIOCSIFFLAGS, &ifr) < 0)
		return shim_fail(err, errno, "loopback: bring lo up (SIOCSIFFLAGS)");
	return 0;
}

int shim_ping_groups(gid_t root_gid, struct shim_err *err)
{
	static const char path[] = "/proc/sys/net/ipv4/ping_group_range";
	cleanup_fd int fd = open(path, O_WRONLY | O_CLOEXEC);
	char range[32];
	int len;

	if (fd < 0 && errno == ENOENT)
		return 0;	/* no IPv4: no ping to allow */
	if (fd < 0)
		return shim_fail(err, errno, "open %s", path);
	len = snprintf(range, sizeof(range), "%u %u", (unsigned int)root_gid,
		       (unsigned int)root_gid);
	if (write(fd, range, (size_t)len) != len)
		return shim_fail(err, errno, "write %s \"%s\"", path, range);
	return 0;
}
