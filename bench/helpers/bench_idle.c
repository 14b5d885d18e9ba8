// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_idle N
 *
 * Unrelated, idle host processes for the thread-supervision benchmark: a
 * supervisor's cost must not grow with them. Starts N children that sleep
 * until this process ends (they die with it), prints "ready" once all
 * exist, and sleeps until a signal ends it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t parent = getpid();
	long n;

	if (argc != 2 || (n = strtol(argv[1], NULL, 10)) < 0) {
		fprintf(stderr, "usage: bench_idle N\n");
		return 2;
	}
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("bench_idle: fork");
			return 1;
		}
		if (pid == 0) {
			/* The parent may have died before the prctl. */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
				_exit(1);
			for (;;)
				pause();
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
