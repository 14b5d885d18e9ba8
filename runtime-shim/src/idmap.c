// SPDX-License-Identifier: GPL-2.0-or-later
/* uid/gid map parsing and rendering. */
#include <errno.h>
#include <string.h>

#include "cli.h"

static int parse_u32(const char *s, const char **end, uint32_t *out)
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

	if (parse_u32(p, &p, &map->inside) || *p++ != ':' ||
	    parse_u32(p, &p, &map->outside) || *p++ != ':' ||
	    parse_u32(p, &p, &map->count) || *p != '\0')
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
