// SPDX-License-Identifier: GPL-2.0-or-later
/* The one whole-file reader (file.h). */
#include <errno.h>

#include "file.h"

int shim_read_all(int fd, size_t max, char **buf, size_t *len, const char *what,
		  struct shim_err *err)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return shim_fail(err, ENOMEM, "read %s", what);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= max) {
				free(b);
				return shim_fail(err, EFBIG, "read %s (more than %zu bytes)", what, max);
			}
			cap = cap * 2 > max ? max : cap * 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				return shim_fail(err, ENOMEM, "read %s", what);
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			return shim_fail(err, e, "read %s", what);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
