/* Scope-bound clean-up for the scenario helpers: one set for all of them. */
#ifndef SCENARIO_CLEANUP_H
#define SCENARIO_CLEANUP_H

#include <stdlib.h>
#include <unistd.h>

/* Close *fd if open, and mark it closed. */
static inline void close_fdp(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* An fd closed, or a heap block freed, when its variable goes out of scope. */
#define AUTOCLOSE __attribute__((cleanup(close_fdp)))
#define AUTOFREE __attribute__((cleanup(freep)))

#endif
