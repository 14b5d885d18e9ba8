/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_FILE_H
#define SHIM_FILE_H

#include "shim.h"

/*
 * Read all of fd, at most max bytes, into a NUL-terminated buffer the
 * caller frees; what names it in messages.  More than max is EFBIG.
 */
int shim_read_all(int fd, size_t max, char **buf, size_t *len, const char *what,
		  struct shim_err *err);

#endif
