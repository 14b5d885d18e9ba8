// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-threaded workload for shim --watch-threads: starts N threads that
 * exit one after the other, DELAY_MS apart, then the process exits.
 * usage: shim_threads N DELAY_MS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *worker(void *arg)
{
	long ms = (long)(size_t)arg;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
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
