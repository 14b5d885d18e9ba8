// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --net none gives the container a network namespace of its own, whose
 * only interface, lo, starts down; runc and crun bring it up, and
 * programs expect 127.0.0.1 to answer.  SIOCSIFFLAGS is the smallest way:
 * the interface ioctls work on any socket, and an AF_UNIX one exists even
 * in a kernel without IPv4.
 */
#include <errno.h>
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
