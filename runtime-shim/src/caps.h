/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capabilities the command keeps in its user namespace: podman's
 * default set, what its BPF delegation needs, --cap-add and --cap-drop.
 */
#ifndef SHIM_CAPS_H
#define SHIM_CAPS_H

#include <stdint.h>

#include "shim.h"

/* Capabilities are bit numbers in a uint64_t (CAP_CHECKPOINT_RESTORE is 40). */
#define SHIM_CAP_BIT(cap) (1ULL << (cap))
#define SHIM_CAPS_ALL (~0ULL)

/*
 * podman's default_capabilities (containers.conf): CHOWN, DAC_OVERRIDE,
 * FOWNER, FSETID, KILL, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID,
 * SYS_CHROOT.
 */
uint64_t shim_caps_default(void);

/* "CAP_NET_ADMIN", or NULL for a number no capability has. */
const char *shim_cap_name(unsigned int cap);

/*
 * A --cap-add/--cap-drop value: names separated by ',', with or without
 * CAP_, any case, as podman takes them; "all" for every capability.  Adds
 * the named ones to *mask.
 */
int shim_caps_parse(const char *opt, const char *value, uint64_t *mask,
		    struct shim_err *err);

/*
 * The command's set: base (default and delegation), then --cap-add, then
 * --cap-drop, as podman merges them.  A capability both added and
 * dropped by name is refused.
 */
int shim_caps_resolve(uint64_t base, uint64_t add, uint64_t drop, uint64_t *caps,
		      struct shim_err *err);

/* "CAP_CHOWN CAP_KILL ...", or "none". */
void shim_caps_string(uint64_t caps, char *buf, size_t len);

/*
 * Container side, before exec: drop every capability outside caps from
 * the bounding set, so that exec as the container's root keeps exactly
 * caps (and no more than it had).  Needs CAP_SETPCAP.
 */
int shim_caps_limit(uint64_t caps, struct shim_err *err);

#endif
