// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_threads N short|long|fork
 *
 * The thread-supervision workload: N threads, each of which records its
 * tid and the time (CLOCK_REALTIME, the clock of the shim's events) just
 * before it returns. short: created and ended as fast as possible, at
 * most RING alive at a time. long: all N alive together for a while,
 * then they end together. fork: as short, but each one a child process
 * (fork, then _exit), its tid and time noted in shared memory: the
 * process-shaped workload. After the last join it prints "main TID" and
 * one "exit TID TIME" line per thread, so the tids the supervisor reports
 * can be matched and the latency of each exit event measured.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

#define STACK (64 * 1024)

struct slot {
	pid_t tid;
	double exited;
};

struct workload {
	struct slot *slots;
	pthread_barrier_t all_started;
	int long_lived;
};

struct arg {
	struct workload *w;
	struct slot *slot;
};

static void *thread_main(void *p)
{
	struct arg *a = p;

	a->slot->tid = gettid();
	if (a->w->long_lived) {
		pthread_barrier_wait(&a->w->all_started);
		usleep(LONG_LIFE_US);
	}
	a->slot->exited = realtime();
	return NULL;
}

/* N children, at most RING alive; each notes its tid and time, then exits. */
static int processes(long n)
{
	struct slot *slots = mmap(NULL, (size_t)n * sizeof(*slots), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t *pids = calloc((size_t)n, sizeof(*pids));

	if (slots == MAP_FAILED || !pids) {
		perror("bench_threads: memory");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		if (i >= RING && waitpid(pids[i - RING], NULL, 0) < 0) {
			perror("bench_threads: waitpid");
			return 1;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("bench_threads: fork");
			return 1;
		}
		if (pids[i] == 0) {
			slots[i].tid = gettid();
			slots[i].exited = realtime();
			_exit(0);
		}
	}
	for (long i = n > RING ? n - RING : 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	printf("main %d\n", (int)gettid());
	for (long i = 0; i < n; i++)
		printf("exit %d %.6f\n", (int)slots[i].tid, slots[i].exited);
	return 0;
}

int main(int argc, char **argv)
{
	struct workload w = { 0 };
	pthread_attr_t attr;
	pthread_t *threads;
	struct arg *args;
	long n;
	int err;

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) < 1 ||
	    (strcmp(argv[2], "short") && strcmp(argv[2], "long") && strcmp(argv[2], "fork"))) {
		fprintf(stderr, "usage: bench_threads N short|long|fork\n");
		return 2;
	}
	if (!strcmp(argv[2], "fork"))
		return processes(n);
	w.long_lived = !strcmp(argv[2], "long");
	w.slots = calloc((size_t)n, sizeof(*w.slots));
	args = calloc((size_t)n, sizeof(*args));
	threads = calloc((size_t)n, sizeof(*threads));
	if (!w.slots || !args || !threads) {
		perror("bench_threads: calloc");
		return 1;
	}
	if (w.long_lived)
		pthread_barrier_init(&w.all_started, NULL, (unsigned int)n + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK);
	for (long i = 0; i < n; i++) {
		if (!w.long_lived && i >= RING)
			pthread_join(threads[i - RING], NULL);
		args[i] = (struct arg){ .w = &w, .slot = &w.slots[i] };
		err = pthread_create(&threads[i], &attr, thread_main, &args[i]);
		if (err) {
			fprintf(stderr, "bench_threads: thread %ld: %s\n", i, strerror(err));
			return 1;
		}
	}
	if (w.long_lived)
		pthread_barrier_wait(&w.all_started);
	for (long i = w.long_lived ? 0 : (n > RING ? n - RING : 0); i < n; i++)
		pthread_join(threads[i], NULL);
	printf("main %d\n", (int)gettid());
	for (long i = 0; i < n; i++)
		printf("exit %d %.6f\n", (int)w.slots[i].tid, w.slots[i].exited);
	return 0;
}
