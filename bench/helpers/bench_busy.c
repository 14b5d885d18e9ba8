// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_busy N [INTERVAL_MS]
 *
 * Unrelated, busy host processes for the supervision benchmark: N
 * processes, each of which forks a child that exits at once, reaps it,
 * and again every INTERVAL_MS (default 1000, so N forks and exits a
 * second in all).  A supervisor that sees every fork and exit of the
 * host (the process-events connector) pays for them; one that sees only
 * its container's must not.  Prints "ready" once all N run; on SIGTERM
 * it prints "forks COUNT SECONDS" and ends them.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	pid_t parent = getpid();
	long n, interval = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	long *forks = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sigset_t term;
	double t0;
	int sig;

	if (argc < 2 || argc > 3 || (n = strtol(argv[1], NULL, 10)) < 0 || interval < 1) {
		fprintf(stderr, "usage: bench_busy N [INTERVAL_MS]\n");
		return 2;
	}
	if (forks == MAP_FAILED) {
		perror("bench_busy: mmap");
		return 1;
	}
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("bench_busy: fork");
			return 1;
		}
		if (pid == 0) {
			/* Spread over the interval, so the forks do not come in waves. */
			struct timespec ts = { interval / 1000, (interval % 1000) * 1000000L };
			struct timespec first = { 0, (long)(i % interval) * 1000000L };

			sigprocmask(SIG_UNBLOCK, &term, NULL);
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
				_exit(1);
			nanosleep(&first, NULL);
			for (;;) {
				pid_t c = fork();

				if (c == 0)
					_exit(0);
				if (c > 0 && waitpid(c, NULL, 0) == c)
					__atomic_fetch_add(forks, 1, __ATOMIC_RELAXED);
				nanosleep(&ts, NULL);
			}
		}
	}
	t0 = now();
	printf("ready\n");
	fflush(stdout);
	sigwait(&term, &sig);
	printf("forks %ld %.3f\n", __atomic_load_n(forks, __ATOMIC_RELAXED), now() - t0);
	fflush(stdout);
	/* The children die with us (PR_SET_PDEATHSIG). */
	return 0;
}
