// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_waitsup N short|long
 *
 * The baseline for thread supervision: a plain SIGCHLD + waitpid
 * supervisor of N short-lived processes, the cheapest exit notification
 * the kernel offers. Each child writes the time (CLOCK_REALTIME) into
 * shared memory just before it exits; the supervisor notes when waitpid
 * returned it. short: one child at a time, as fast as possible; long: all
 * N alive together, then they end together. Prints "lat SECONDS" per
 * child and "cpu SECONDS" (the supervisor's own user + system time).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reap every child that has exited; at least one must arrive. */
static int reap(double *exited, double *latency, pid_t *pids, long n, long *left,
		const sigset_t *chld)
{
	siginfo_t si;
	pid_t pid;

	if (sigwaitinfo(chld, &si) < 0 && errno != EINTR)
		return -1;
	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
		double t = realtime();

		for (long i = 0; i < n; i++) {
			if (pids[i] == pid) {
				latency[i] = t - exited[i];
				pids[i] = 0;
				(*left)--;
				break;
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double *exited, *latency;
	struct rusage ru;
	sigset_t chld;
	long n, left;
	pid_t *pids;
	int long_lived;

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) < 1 ||
	    (strcmp(argv[2], "short") && strcmp(argv[2], "long"))) {
		fprintf(stderr, "usage: bench_waitsup N short|long\n");
		return 2;
	}
	long_lived = !strcmp(argv[2], "long");
	exited = mmap(NULL, (size_t)n * sizeof(double), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	latency = calloc((size_t)n, sizeof(double));
	pids = calloc((size_t)n, sizeof(pid_t));
	if (exited == MAP_FAILED || !latency || !pids) {
		perror("bench_waitsup: memory");
		return 1;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, NULL)) {
		perror("bench_waitsup: sigprocmask");
		return 1;
	}
	left = 0;
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("bench_waitsup: fork");
			return 1;
		}
		if (pids[i] == 0) {
			if (long_lived)
				usleep(200 * 1000);
			exited[i] = realtime();
			_exit(0);
		}
		left++;
		while (!long_lived && left > 0)
			if (reap(exited, latency, pids, n, &left, &chld))
				return 1;
	}
	while (left > 0)
		if (reap(exited, latency, pids, n, &left, &chld))
			return 1;
	for (long i = 0; i < n; i++)
		printf("lat %.6f\n", latency[i]);
	getrusage(RUSAGE_SELF, &ru);
	printf("cpu %.6f\n", (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
				     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	return 0;
}
