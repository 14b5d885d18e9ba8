/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ID maps: parsed, defaulted from subuid/subgid, checked and written. */
#ifndef SHIM_IDMAP_H
#define SHIM_IDMAP_H

#include "shim.h"

/* The subuid(5)/subgid(5) user whose range is the default map (as podman's --userns=auto). */
#define SHIM_SUBID_USER "containers"
/* At most this many IDs of that range are mapped by default. */
#define SHIM_DEFAULT_IDMAP_COUNT 65536

/* A decimal uint32 at s: *end after it.  0, or -1 (no digit, overflow). */
int shim_parse_u32(const char *s, const char **end, uint32_t *out);

/* The whole range of user in a subuid/subgid file (its first line), inside 0. */
int shim_subid_span(const char *path, const char *user, struct shim_idmap *out,
		    struct shim_err *err);
/* The range of user in a subuid/subgid file, inside 0, at most SHIM_DEFAULT_IDMAP_COUNT. */
int shim_subid_range(const char *path, const char *user, struct shim_idmap *out,
		     struct shim_err *err);
/* Fill the maps not given on the command line from subuid and subgid. */
int shim_idmaps_default(struct shim_config *cfg, const char *subuid,
			const char *subgid, struct shim_err *err);
/* Refuse a range that includes own (the caller's ID), but own alone. */
int shim_idmaps_check_owner(const struct shim_idmaps *m, uint32_t own,
			    const char *opt, struct shim_err *err);

/* Refuse a range whose outside IDs include host ID 0, for any caller. */
int shim_idmaps_check_host_root(const struct shim_idmaps *m, const char *opt,
				struct shim_err *err);

/* "inside:outside:count" */
int shim_parse_idmap(const char *s, struct shim_idmap *map,
		     struct shim_err *err);
/* Render a map list as /proc/PID/uid_map content. */
int shim_format_idmaps(const struct shim_idmaps *maps, char *buf, size_t len);

/* The host ID a container ID maps to; false when it is not mapped. */
bool shim_idmap_to_host(const struct shim_idmaps *m, uint32_t inside, uint32_t *host);
/* The container ID of a host ID; false when the maps do not include it. */
bool shim_idmap_from_host(const struct shim_idmaps *m, uint32_t host, uint32_t *inside);
/* The container ID init runs as: 0 when mapped, else the first mapped ID. */
uint32_t shim_idmap_root(const struct shim_idmaps *m);

#endif
