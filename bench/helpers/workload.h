/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shape both thread-supervision workloads share, so that the shim's
 * threads and the waitpid baseline's processes come and go alike.
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <time.h>

/* short: at most this many alive at a time, the next started as one ends. */
#define RING 32
/* long: how long each one lives once all have started. */
#define LONG_LIFE_US (200 * 1000)

/* CLOCK_REALTIME: the clock of the shim's events. */
static inline double realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
