// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errno names.  The table is the C library's own (strerrorname_np, glibc
 * 2.32+), so every errno this system knows has its name: no hand-picked
 * list to fall behind.  It gives one name per number; the three Linux
 * aliases are added from <errno.h> itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errname.h"

/* errno values are small; the kernel's MAX_ERRNO is 4095. */
#define SHIM_MAX_ERRNO 4095

static const struct {
	const char *name;
	int value;
} aliases[] = {
	{ "EWOULDBLOCK", EWOULDBLOCK },
	{ "EDEADLOCK", EDEADLOCK },
	{ "ENOTSUP", ENOTSUP },
};

const char *shim_errno_name(int errnum)
{
	if (errnum <= 0 || errnum > SHIM_MAX_ERRNO)
		return NULL;
	return strerrorname_np(errnum);
}

int shim_errno_from_name(const char *name)
{
	if (name[0] != 'E')
		return -1;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(name, aliases[i].name) == 0)
			return aliases[i].value;
	for (int e = 1; e <= SHIM_MAX_ERRNO; e++) {
		const char *n = shim_errno_name(e);

		if (n && strcmp(n, name) == 0)
			return e;
	}
	return -1;
}

int shim_errno_names(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (int e = 1; e <= SHIM_MAX_ERRNO; e++) {
		const char *n = shim_errno_name(e);
		int w;

		if (!n)
			continue;
		w = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", n);
		if (w < 0 || (size_t)w >= len - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}
