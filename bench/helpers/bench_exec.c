// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_exec [-n RUNS] [-w WARMUP] [-o FILE] [-m] -- CMD [ARGS...]
 *
 * Runs CMD WARMUP times unmeasured, then RUNS times, and prints for each
 * measured run "WALL CPU": the wall time from fork to exit, which is what
 * a caller of a container runtime waits for, and the CPU time (user +
 * system, all its threads) of CMD's own process, without its children:
 * the runtime's cost, not the container's. CPU comes from CMD's process
 * CPU clock while it is a zombie (waitid WNOWAIT), to the nanosecond.
 * -o FILE keeps the command's standard output (else /dev/null).
 * -m adds a third column, "PEAK": the largest resident set of CMD's own
 * process in KiB among samples taken every SAMPLE_MS while it runs (Rss
 * of /proc/PID/smaps_rollup, which walks the page tables).  Neither
 * wait4's ru_maxrss nor VmHWM serves: the first takes in the children,
 * the container; the second, on 6.1, misses pages a driver maps in one
 * call (2,049 for a 4 MiB BPF ring buffer) until the task's cached RSS
 * count is folded into its mm's, which may come after their munmap.
 * A run that does not exit 0 ends the benchmark: a failing command would
 * measure its error path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * CPU time of a zombie PID's thread group, in seconds: its process CPU
 * clock counts the scheduler's nanoseconds of every thread, where
 * /proc/PID/stat rounds to clock ticks (10 ms), as coarse as what a
 * hundred supervised threads cost. Reaped children are not in it.
 */
static double zombie_cpu(pid_t pid)
{
	struct timespec ts;
	clockid_t clock;
	int e = clock_getcpuclockid(pid, &clock);

	/* clock_getcpuclockid() returns its error; the caller reads errno. */
	if (e != 0) {
		errno = e;
		return -1;
	}
	if (clock_gettime(clock, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The profile build of the shim (runtime-shim/src/profile.h) takes the
 * time of its exec from here: the step before its main() is the exec
 * and the dynamic loading. Other commands ignore it.
 */
static void set_launch_time(void)
{
	struct timespec ts;
	char ns[32];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(ns, sizeof(ns), "%llu",
		 (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
	setenv("SHIM_PROFILE_LAUNCH_NS", ns, 1);
}

#define SAMPLE_MS 20

/* The resident set of a running pid in KiB, or -1 once it has no memory. */
static long rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Rss: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* Until pid has exited, the largest of its resident sets, sampled, into *hwm. */
static int follow_peak(pid_t pid, long *hwm)
{
	struct pollfd p = { .events = POLLIN };
	long kib;
	int r;

	p.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (p.fd < 0) {
		perror("bench_exec: pidfd_open");
		return -1;
	}
	*hwm = 0;
	do {
		kib = rss_kib(pid);
		if (kib > *hwm)
			*hwm = kib;
		r = poll(&p, 1, SAMPLE_MS);
	} while (r == 0 || (r < 0 && errno == EINTR));
	close(p.fd);
	return 0;
}

static int run_once(char **argv, const char *output, double *elapsed, double *cpu, long *hwm)
{
	double start = now();
	siginfo_t info;
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("bench_exec: fork");
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		int out = output ? open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null;

		if (null < 0 || out < 0) {
			perror("bench_exec: open");
			_exit(127);
		}
		dup2(null, STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		set_launch_time();
		execvp(argv[0], argv);
		fprintf(stderr, "bench_exec: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (hwm && follow_peak(pid, hwm))
		return -1;
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR) {
			perror("bench_exec: waitid");
			return -1;
		}
	}
	*elapsed = now() - start;
	*cpu = zombie_cpu(pid);
	if (*cpu < 0)
		fprintf(stderr, "bench_exec: CPU clock of %d: %s\n", (int)pid, strerror(errno));
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("bench_exec: waitpid");
			return -1;
		}
	}
	if (*cpu < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_exec: %s: %s %d\n", argv[0],
			WIFEXITED(status) ? "exit status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long runs = 30, warmup = 3;
	const char *output = NULL;
	double elapsed, cpu;
	long hwm = 0, *want_hwm = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "+n:w:o:m")) != -1) {
		switch (opt) {
		case 'n':
			runs = strtol(optarg, NULL, 10);
			break;
		case 'w':
			warmup = strtol(optarg, NULL, 10);
			break;
		case 'o':
			output = optarg;
			break;
		case 'm':
			want_hwm = &hwm;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || runs < 1 || warmup < 0)
		goto usage;
	for (long i = 0; i < warmup; i++)
		if (run_once(argv + optind, output, &elapsed, &cpu, want_hwm))
			return 1;
	for (long i = 0; i < runs; i++) {
		if (run_once(argv + optind, output, &elapsed, &cpu, want_hwm))
			return 1;
		if (want_hwm)
			printf("%.6f %.6f %ld\n", elapsed, cpu, hwm);
		else
			printf("%.6f %.6f\n", elapsed, cpu);
		fflush(stdout);
	}
	return 0;
usage:
	fprintf(stderr, "usage: bench_exec [-n RUNS] [-w WARMUP] [-o FILE] [-m] -- CMD [ARGS...]\n");
	return 2;
}
