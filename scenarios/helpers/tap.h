/* Minimal TAP output for guest scenario helpers. */
#ifndef SCENARIO_TAP_H
#define SCENARIO_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tap {
	int planned;
	int run;
	int failed;
};

static inline void tap_plan(struct tap *t, int n)
{
	t->planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* Whole-scenario skip: the kernel lacks the feature; only the stock kernel may do this. */
static inline __attribute__((noreturn, format(printf, 1, 2))) void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP unsupported: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(0);
}

static inline __attribute__((format(printf, 3, 4))) int tap_ok(struct tap *t, int cond, const char *fmt, ...)
{
	va_list ap;

	t->run++;
	if (!cond)
		t->failed++;
	printf("%sok %d - ", cond ? "" : "not ", t->run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* Check that a call failed with the expected errno; rc is the call's result. */
#define tap_errno(t, rc, want, what)                                                     \
	tap_ok(t, (rc) < 0 && errno == (want), "%s fails with %s (got %s)", what,            \
	       strerrorname_np(want), (rc) < 0 ? strerrorname_np(errno) : "success")

static inline __attribute__((format(printf, 1, 2))) void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline int tap_done(struct tap *t)
{
	if (t->run != t->planned)
		tap_diag("planned %d tests, ran %d", t->planned, t->run);
	return t->failed || t->run != t->planned ? 1 : 0;
}

#endif
