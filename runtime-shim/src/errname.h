/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errno numbers and their symbolic names ("EPERM"), both ways. */
#ifndef SHIM_ERRNAME_H
#define SHIM_ERRNAME_H

#include <stddef.h>

/* "EACCES" for EACCES; NULL when the C library has no name for it. */
const char *shim_errno_name(int errnum);
/* EACCES for "EACCES" (aliases such as EWOULDBLOCK too); -1 if unknown. */
int shim_errno_from_name(const char *name);
/* Every accepted name, ", " separated, for messages and --help. */
int shim_errno_names(char *buf, size_t len);

#endif
