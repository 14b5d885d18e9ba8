// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-threaded workload for shim --watch-threads.
 *   shim_threads N DELAY_MS   N threads that exit one after the other,
 *                             DELAY_MS apart, then the process exits
 *   shim_threads burst N      N threads that end at once, started as fast
 *                             as they can be, BATCH alive at a time
 * Process shapes (each task ends before the command, so that the
 * container's exits can be counted exactly):
 *   shim_threads forks N      N children one after another, each _exit(0)
 *   shim_threads sleepers N MS  N children at once, each sleeping MS ms
 *   shim_threads mixed T C    T threads alive, then C children (T+C tasks)
 *   shim_threads vforks N     N vfork children, each _exit(0)
 *   shim_threads grandchildren N  N children that each fork one grandchild
 *   shim_threads execs N      N children that exec this program ("exit")
 *   shim_threads daemon MS    a double-forked daemon, reparented to the
 *                             container's init, that lives MS ms; the
 *                             command waits for it to end
 *   shim_threads exit         exits 0 (what execs runs)
 *   shim_threads storm        outside the container: fork children that
 *                             exit at once until SIGTERM, then print how many
 * Limits (shim/57-cgroups):
 *   shim_threads pids N       start up to N sleeping threads; print
 *                             "threads: M, then ERRNO" at the first refusal
 *   shim_threads hog MB       allocate and touch MB megabytes, 1 MB at a time
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0)
		;
}

/* Wait for every child; 1 if one failed. */
static int reap(void)
{
	int st, bad = 0;

	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	return bad;
}

/* A vfork child that only exits: vfork's child must not return. */
static pid_t vfork_exit(void)
{
	pid_t p = vfork();

	if (p == 0)
		_exit(0);
	return p;
}

static int processes(const char *shape, long n, long arg, const char *self)
{
	pthread_t t[64];
	int bad = 0;

	if (strcmp(shape, "mixed") == 0) {
		/* The threads are alive while the children start and end. */
		if (n > 64)
			return 1;
		for (long i = 0; i < n; i++)
			if (pthread_create(&t[i], NULL, worker, (void *)(size_t)200))
				return 1;
		for (long i = 0; i < arg; i++) {
			pid_t p = fork();

			if (p < 0)
				return 1;
			if (p == 0)
				_exit(0);
		}
		bad = reap();
		for (long i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		printf("%ld threads and %ld children done\n", n, arg);
		return bad;
	}
	for (long i = 0; i < n; i++) {
		pid_t p = strcmp(shape, "vforks") == 0 ? vfork_exit() : fork();

		if (p < 0) {
			fprintf(stderr, "%s: fork after %ld: failed\n", shape, i);
			return 1;
		}
		if (p == 0) {
			if (strcmp(shape, "sleepers") == 0)
				sleep_ms(arg);
			if (strcmp(shape, "grandchildren") == 0) {
				pid_t g = fork();

				if (g == 0)
					_exit(0);
				_exit(g < 0 || reap());
			}
			if (strcmp(shape, "execs") == 0) {
				execl(self, self, "exit", (char *)NULL);
				_exit(127);
			}
			_exit(0);
		}
		/* One after another, but sleepers all at once. */
		if (strcmp(shape, "sleepers") != 0) {
			int st;

			if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				bad = 1;
		}
	}
	bad |= reap();
	printf("%ld %s done\n", n, shape);
	return bad;
}

/*
 * Fork, fork again, the middle one exits: the grandchild is reparented
 * to the container's init.  The command waits, by a pipe that the daemon
 * holds open, for it to end.
 */
static int daemon_shape(long ms)
{
	int fds[2];
	char c;
	pid_t p;

	if (pipe(fds) < 0)
		return 1;
	p = fork();
	if (p < 0)
		return 1;
	if (p == 0) {
		if (fork() == 0) {
			close(fds[0]);
			setsid();
			sleep_ms(ms);
			_exit(0);
		}
		_exit(0);
	}
	close(fds[1]);
	if (reap())
		return 1;
	/* EOF once the daemon's end of the pipe is closed: it has exited. */
	while (read(fds[0], &c, 1) > 0)
		;
	/* Its exit is under way; leave it time to finish before the init does. */
	sleep_ms(100);
	printf("daemon done\n");
	return 0;
}

static volatile sig_atomic_t stop_storm;

static void on_term(int sig)
{
	(void)sig;
	stop_storm = 1;
}

static int storm(void)
{
	struct sigaction sa = { .sa_handler = on_term };
	long n = 0;

	sigaction(SIGTERM, &sa, NULL);
	while (!stop_storm) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0 && waitpid(p, NULL, 0) == p)
			n++;
	}
	printf("%ld\n", n);
	return 0;
}

static int pids_shape(long n)
{
	pthread_attr_t attr;
	long started = 0;
	int err = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (; started < n; started++) {
		pthread_t t;

		err = pthread_create(&t, &attr, worker, (void *)(size_t)60000);
		if (err)
			break;
	}
	printf("threads: %ld, then %s\n", started, err ? strerrorname_np(err) : "none refused");
	fflush(stdout);
	_exit(0);
}

static int hog(long mb)
{
	for (long i = 0; i < mb; i++) {
		char *p = malloc(1 << 20);

		if (!p) {
			printf("malloc refused at %ld MB\n", i);
			return 1;
		}
		memset(p, (int)i, 1 << 20);
	}
	printf("allocated %ld MB\n", mb);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "pids") == 0)
		return pids_shape(atol(argv[2]));
	if (argc == 3 && strcmp(argv[1], "hog") == 0)
		return hog(atol(argv[2]));
	if (argc == 2 && strcmp(argv[1], "storm") == 0)
		return storm();
	if (argc == 2 && strcmp(argv[1], "exit") == 0)
		return 0;
	if (argc == 3 && strcmp(argv[1], "daemon") == 0)
		return daemon_shape(atol(argv[2]));
	if (argc >= 3 && strchr("fsmvge", argv[1][0]) && strcmp(argv[1], "burst") != 0)
		return processes(argv[1], atol(argv[2]), argc > 3 ? atol(argv[3]) : 0, argv[0]);
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
