// SPDX-License-Identifier: GPL-2.0-or-later
/* uid/gid map parsing and rendering. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idmap.h"

int shim_parse_u32(const char *s, const char **end, uint32_t *out)
{
	unsigned long long v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > UINT32_MAX)
			return -1;
		p++;
	}
	*end = p;
	*out = (uint32_t)v;
	return 0;
}

int shim_parse_idmap(const char *s, struct shim_idmap *map,
		     struct shim_err *err)
{
	const char *p = s;

	if (shim_parse_u32(p, &p, &map->inside) || *p++ != ':' ||
	    shim_parse_u32(p, &p, &map->outside) || *p++ != ':' ||
	    shim_parse_u32(p, &p, &map->count) || *p != '\0')
		return shim_fail(err, 0,
				 "invalid id map \"%s\": expected INSIDE:OUTSIDE:COUNT with decimal numbers",
				 s);
	if (map->count == 0)
		return shim_fail(err, 0, "invalid id map \"%s\": COUNT must be at least 1", s);
	if ((uint64_t)map->inside + map->count - 1 > UINT32_MAX - 1 ||
	    (uint64_t)map->outside + map->count - 1 > UINT32_MAX - 1)
		return shim_fail(err, 0, "invalid id map \"%s\": range exceeds 4294967294", s);
	return 0;
}

int shim_format_idmaps(const struct shim_idmaps *maps, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < maps->n; i++) {
		int n = snprintf(buf + off, len - off, "%u %u %u\n",
				 maps->map[i].inside, maps->map[i].outside,
				 maps->map[i].count);

		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return (int)off;
}

int shim_subid_span(const char *path, const char *user, struct shim_idmap *out,
		    struct shim_err *err)
{
	cleanup_file FILE *f = fopen(path, "re");
	size_t ulen = strlen(user);
	char line[512];

	if (!f)
		return shim_fail(err, errno, "%s", path);
	/* "NAME:START:COUNT" (subuid(5)); the first line for NAME counts. */
	while (fgets(line, sizeof(line), f)) {
		const char *p = line + ulen + 1;

		if (strncmp(line, user, ulen) != 0 || line[ulen] != ':')
			continue;
		if (shim_parse_u32(p, &p, &out->outside) || *p++ != ':' ||
		    shim_parse_u32(p, &p, &out->count) || (*p != '\n' && *p != '\0') ||
		    out->count == 0)
			return shim_fail(err, EINVAL, "%s: bad line for %s: %.*s", path, user,
					 (int)strcspn(line, "\n"), line);
		out->inside = 0;
		if ((uint64_t)out->outside + out->count - 1 > UINT32_MAX - 1)
			return shim_fail(err, EINVAL, "%s: range of %s exceeds 4294967294", path, user);
		return 0;
	}
	return shim_fail(err, ENOENT, "%s has no range for user %s", path, user);
}

int shim_subid_range(const char *path, const char *user, struct shim_idmap *out,
		     struct shim_err *err)
{
	if (shim_subid_span(path, user, out, err))
		return -1;
	if (out->count > SHIM_DEFAULT_IDMAP_COUNT)
		out->count = SHIM_DEFAULT_IDMAP_COUNT;
	return 0;
}

int shim_idmaps_default(struct shim_config *cfg, const char *subuid,
			const char *subgid, struct shim_err *err)
{
	static const struct {
		const char *opt;
		size_t off;
	} which[] = {
		{ "--uid-map", offsetof(struct shim_config, uid_map) },
		{ "--gid-map", offsetof(struct shim_config, gid_map) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(which); i++) {
		struct shim_idmaps *m = (struct shim_idmaps *)((char *)cfg + which[i].off);

		if (m->n)
			continue;
		if (shim_subid_range(i ? subgid : subuid, SHIM_SUBID_USER, &m->map[0], err))
			return shim_fail_wrap(err, "no %s given, and the default", which[i].opt),
			       shim_fail_note(err, "add a range for %s to %s and %s (such as "
					      "\"%s:2147483647:2147483648\", as podman's --userns=auto "
					      "uses), or give --uid-map and --gid-map",
					      SHIM_SUBID_USER, subuid, subgid, SHIM_SUBID_USER);
		m->n = 1;
	}
	return 0;
}

int shim_idmaps_check_owner(const struct shim_idmaps *m, uint32_t own,
			    const char *opt, struct shim_err *err)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct shim_idmap *r = &m->map[i];

		/* Your own ID alone is the rootless form: an explicit choice. */
		if (r->count == 1 && r->outside == own)
			continue;
		if (own >= r->outside && own - r->outside < r->count)
			return shim_fail(err, EPERM, "%s %u:%u:%u includes your own ID %u",
					 opt, r->inside, r->outside, r->count, own),
			       shim_fail_note(err, "the container would own your files; map a "
					      "range without it, or your ID alone (COUNT 1)");
	}
	return 0;
}

int shim_idmaps_check_host_root(const struct shim_idmaps *m, const char *opt,
				struct shim_err *err)
{
	const char *id = strcmp(opt, "--gid-map") == 0 ? "gid" : "uid";

	for (size_t i = 0; i < m->n; i++) {
		const struct shim_idmap *r = &m->map[i];

		/*
		 * Host ID 0 inside is host root inside: its writes to host-wide
		 * sysctls (kernel.core_pattern) and its files on an idmapped
		 * rootfs are host root's.  No caller may ask for it, root
		 * included: a caller that is root maps subordinate IDs.
		 */
		if (r->outside == 0)
			return shim_fail(err, EPERM, "%s %u:%u:%u maps host %s 0 into the container: "
					 "its root would be the host's", opt, r->inside, r->outside,
					 r->count, id),
			       shim_fail_note(err, "map subordinate IDs instead (the default, from "
					      "/etc/sub%s), or, as a user other than root, your own %s "
					      "alone (%s 0:$(id -%c):1)", id, id, opt,
					      id[0] == 'u' ? 'u' : 'g');
	}
	return 0;
}

bool shim_idmap_to_host(const struct shim_idmaps *m, uint32_t inside, uint32_t *host)
{
	for (size_t i = 0; i < m->n; i++)
		if (inside >= m->map[i].inside && inside - m->map[i].inside < m->map[i].count) {
			*host = m->map[i].outside + (inside - m->map[i].inside);
			return true;
		}
	return false;
}

bool shim_idmap_from_host(const struct shim_idmaps *m, uint32_t host, uint32_t *inside)
{
	for (size_t i = 0; i < m->n; i++)
		if (host >= m->map[i].outside && host - m->map[i].outside < m->map[i].count) {
			*inside = m->map[i].inside + (host - m->map[i].outside);
			return true;
		}
	return false;
}

uint32_t shim_idmap_root(const struct shim_idmaps *m)
{
	uint32_t host;

	return shim_idmap_to_host(m, 0, &host) ? 0 : m->map[0].inside;
}
