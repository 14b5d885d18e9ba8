/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback interface of a new network namespace. */
#ifndef SHIM_LOOPBACK_H
#define SHIM_LOOPBACK_H

#include <sys/types.h>

#include "shim.h"

/*
 * Bring "lo" up in the caller's network namespace (a new one starts with
 * it down).  Needs CAP_NET_ADMIN over that namespace, which the
 * container's root has.  Returns 0 or -1 with err set.
 */
int shim_loopback_up(struct shim_err *err);

/*
 * Let the container's root ping without CAP_NET_RAW, which the default
 * set leaves out, as podman does: ICMP echo sockets for the container's
 * group 0 (net.ipv4.ping_group_range "0 0" as the container sees it) in
 * the caller's network namespace.  The kernel reads the range in the
 * writer's user namespace: root_gid is container gid 0 there (0 inside
 * the container's user namespace, its host gid outside it).
 */
int shim_ping_groups(gid_t root_gid, struct shim_err *err);

#endif
