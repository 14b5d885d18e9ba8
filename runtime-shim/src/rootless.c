// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rootless use.  Without privileges over the host's IDs, the kernel lets
 * a process map exactly one ID into a new user namespace: its own
 * (user_namespaces(7)).  So the shim works without root given
 * --uid-map 0:$(id -u):1 --gid-map 0:$(id -g):1; BPF delegation never
 * does (bpffs.c says so).
 */
#include <errno.h>
#include <string.h>

#include "rootless.h"

int shim_explain_idmap_failure(const struct shim_config *cfg,
			       const char *which, struct shim_err *err)
{
	bool uid = strcmp(which, "uid") == 0;
	const struct shim_idmaps *maps = uid ? &cfg->uid_map : &cfg->gid_map;

	if (err->errnum != EPERM || geteuid() == 0)
		return -1;
	if (maps->n == 1 && maps->map[0].count == 1 &&
	    maps->map[0].outside == (uid ? geteuid() : getegid()))
		return -1;	/* already the rootless form: something else */
	return shim_fail_note(err, "without root the container can map only your own %s: "
			      "use --uid-map 0:%u:1 --gid-map 0:%u:1, "
			      "or run the shim as root for a range such as %u:%u:%u",
			      which, (unsigned int)geteuid(), (unsigned int)getegid(),
			      maps->map[0].inside, maps->map[0].outside, maps->map[0].count);
}
