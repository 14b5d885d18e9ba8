// SPDX-License-Identifier: GPL-2.0-or-later
/* Error recording with context, in the style of libcrun_error_t. */
#include <stdarg.h>
#include <string.h>

#include "shim.h"

int shim_fail(struct shim_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->errnum = errnum;
	if (errnum) {
		len = strlen(err->msg);
		snprintf(err->msg + len, sizeof(err->msg) - len, ": %s",
			 strerror(errnum));
	}
	return -1;
}

int shim_fail_note(struct shim_err *err, const char *fmt, ...)
{
	size_t len = strlen(err->msg);
	va_list ap;

	if (len + 3 >= sizeof(err->msg))
		return -1;
	snprintf(err->msg + len, sizeof(err->msg) - len, " (");
	len += 2;
	va_start(ap, fmt);
	vsnprintf(err->msg + len, sizeof(err->msg) - len, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	if (len + 1 < sizeof(err->msg))
		strcat(err->msg, ")");
	return -1;
}

int shim_fail_wrap(struct shim_err *err, const char *fmt, ...)
{
	char prefix[512];
	char old[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
	return -1;
}

void shim_err_print_as(const char *who, const struct shim_err *err)
{
	fprintf(stderr, "%s: %s\n", who, err->msg);
}

void shim_err_print(const struct shim_err *err)
{
	shim_err_print_as("shim", err);
}

static void say(const struct shim_voice *v, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", v->who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void shim_warn(const struct shim_voice *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(v, fmt, ap);
	va_end(ap);
}

void shim_note(const struct shim_voice *v, const char *fmt, ...)
{
	va_list ap;

	if (!v->verbose)
		return;
	va_start(ap, fmt);
	say(v, fmt, ap);
	va_end(ap);
}
