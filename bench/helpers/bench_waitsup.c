// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_waitsup N short|long|fork
 *
 * The baseline for thread supervision: a plain SIGCHLD + waitpid
 * supervisor of N processes, the cheapest exit notification the kernel
 * offers, over a workload of bench_threads' shape (workload.h). The
 * children share the supervisor's memory (clone(CLONE_VM)), so that each
 * costs what a thread costs to start and end, not a copy of an address
 * space. As in the shim's case, one thread starts the workload and another
 * supervises it: a starter thread clones the children, the main thread
 * waits for SIGCHLD and reaps them. Each child notes the time
 * (CLOCK_REALTIME) just before it exits; the supervisor notes when waitpid
 * returned it.
 *   short: started as fast as possible, at most RING alive at a time, the
 *          next as one is reaped;
 *   long:  all N alive together (they wait for the starter to close a pipe
 *          once the last has started), then they end together;
 *   fork:  as short, but each child a process of its own (no CLONE_VM), as
 *          the shim's process-shaped workload; the times it notes go
 *          through shared memory.
 * Prints "lat SECONDS" per child and "cpu SECONDS": the supervising
 * thread's own user + system time from the first child on, as the shim's
 * figure is its own less its setup.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

#define STACK (64 * 1024)

struct child {
	struct baseline *b;
	long index;
};

struct baseline {
	long n;
	int long_lived;
	int process;		/* fork: children without CLONE_VM */
	/* The children fill them in: no lookup at reap time. */
	double *exited;		/* by child index */
	int *index_by_pid;	/* kernel.pid_max entries, touched sparsely */
	long pid_max;
	char *stacks;		/* N of STACK bytes, touched sparsely */
	struct child *children;
	double *latency;
	sem_t free_slots;	/* short: RING - alive */
	int all_started[2];	/* long: the children's barrier */
	long started;		/* set by the starter when it stops */
	int err;		/* the starter's errno, 0 if it started all */
};

/*
 * The child runs on its own stack in the starter's memory, and errno is
 * the starter's: it uses only calls that set none when they succeed.
 */
static int child_main(void *p)
{
	struct child *c = p;
	struct baseline *b = c->b;
	long i = c->index;

	if (b->long_lived) {
		char c;

		close(b->all_started[1]);
		while (read(b->all_started[0], &c, 1) < 0 && errno == EINTR)
			;
		usleep(LONG_LIFE_US);
	}
	b->index_by_pid[getpid()] = (int)i;
	b->exited[i] = realtime();
	return 0;
}

static void *starter(void *p)
{
	struct baseline *b = p;
	long i;

	for (i = 0; i < b->n; i++) {
		pid_t pid;

		if (!b->long_lived)
			while (sem_wait(&b->free_slots) < 0 && errno == EINTR)
				;
		b->children[i] = (struct child){ .b = b, .index = i };
		pid = clone(child_main, b->stacks + (size_t)(i + 1) * STACK,
			    (b->process ? 0 : CLONE_VM) | SIGCHLD, &b->children[i]);
		if (pid < 0) {
			__atomic_store_n(&b->err, errno, __ATOMIC_RELAXED);
			break;
		}
	}
	if (b->long_lived)
		close(b->all_started[1]);
	__atomic_store_n(&b->started, i, __ATOMIC_RELEASE);
	/* Wakes the supervisor if it waits for children that will not come. */
	if (i < b->n)
		kill(getpid(), SIGCHLD);
	return NULL;
}

/* Reap every child that has exited; returns how many. */
static long reap(struct baseline *b)
{
	long reaped = 0;
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
		double t = realtime();
		long i = b->index_by_pid[pid];

		b->latency[i] = t - b->exited[i];
		reaped++;
		if (!b->long_lived)
			sem_post(&b->free_slots);
	}
	return reaped;
}

static double cpu_seconds(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

static long read_pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Shared: a child that is a process of its own writes it too. */
static void *sparse(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int main(int argc, char **argv)
{
	struct baseline b = { .all_started = { -1, -1 }, .started = -1 };
	struct rusage before, after;
	pthread_t thread;
	sigset_t chld;
	long reaped = 0;
	int err;

	if (argc != 3 || (b.n = strtol(argv[1], NULL, 10)) < 1 ||
	    (strcmp(argv[2], "short") && strcmp(argv[2], "long") && strcmp(argv[2], "fork"))) {
		fprintf(stderr, "usage: bench_waitsup N short|long|fork\n");
		return 2;
	}
	b.long_lived = !strcmp(argv[2], "long");
	b.process = !strcmp(argv[2], "fork");
	b.pid_max = read_pid_max();
	if (b.pid_max < 1) {
		perror("bench_waitsup: /proc/sys/kernel/pid_max");
		return 1;
	}
	b.exited = sparse((size_t)b.n * sizeof(double));
	b.index_by_pid = sparse((size_t)b.pid_max * sizeof(int));
	b.stacks = sparse((size_t)b.n * STACK);
	b.children = calloc((size_t)b.n, sizeof(*b.children));
	b.latency = calloc((size_t)b.n, sizeof(double));
	if (!b.exited || !b.index_by_pid || !b.stacks || !b.children || !b.latency) {
		perror("bench_waitsup: memory");
		return 1;
	}
	if (b.long_lived && pipe2(b.all_started, O_CLOEXEC)) {
		perror("bench_waitsup: pipe");
		return 1;
	}
	sem_init(&b.free_slots, 0, RING);
	/* Blocked in both threads: the main thread takes it with sigwaitinfo. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, NULL)) {
		perror("bench_waitsup: sigprocmask");
		return 1;
	}
	getrusage(RUSAGE_THREAD, &before);
	err = pthread_create(&thread, NULL, starter, &b);
	if (err) {
		fprintf(stderr, "bench_waitsup: starter thread: %s\n", strerror(err));
		return 1;
	}
	for (;;) {
		long started = __atomic_load_n(&b.started, __ATOMIC_ACQUIRE);
		siginfo_t si;

		if (reaped == b.n || (started >= 0 && reaped == started))
			break;
		if (sigwaitinfo(&chld, &si) < 0 && errno != EINTR) {
			perror("bench_waitsup: sigwaitinfo");
			return 1;
		}
		reaped += reap(&b);
	}
	getrusage(RUSAGE_THREAD, &after);
	pthread_join(thread, NULL);
	if (b.err) {
		fprintf(stderr, "bench_waitsup: clone: %s\n", strerror(b.err));
		return 1;
	}
	for (long i = 0; i < b.n; i++)
		printf("lat %.6f\n", b.latency[i]);
	printf("cpu %.6f\n", cpu_seconds(&after) - cpu_seconds(&before));
	return 0;
}
