// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-threaded workload for shim --watch-threads.
 *   shim_threads N DELAY_MS   N threads that exit one after the other,
 *                             DELAY_MS apart, then the process exits
 *   shim_threads burst N      N threads that end at once, started as fast
 *                             as they can be, BATCH alive at a time
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *worker(void *arg)
{
	long ms = (long)(size_t)arg;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

/* Start and join in batches: as fast as thread creation goes, few alive at once. */
static int burst(long n)
{
	enum { BATCH = 64 };
	pthread_t t[BATCH];
	long done = 0;

	while (done < n) {
		int k = n - done < BATCH ? (int)(n - done) : BATCH;

		for (int i = 0; i < k; i++)
			if (pthread_create(&t[i], NULL, nothing, NULL)) {
				fprintf(stderr, "pthread_create after %ld threads failed\n", done + i);
				return 1;
			}
		for (int i = 0; i < k; i++)
			pthread_join(t[i], NULL);
		done += k;
	}
	printf("%ld threads done\n", done);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "burst") == 0)
		return burst(atol(argv[2]));
	int n = argc > 1 ? atoi(argv[1]) : 4;
	long delay = argc > 2 ? atol(argv[2]) : 300;
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t)
		return 1;
	/* The first exits after a pause, so the supervisor has seen them all. */
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(size_t)(delay * (i + 2))))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%d threads done\n", n);
	return 0;
}
