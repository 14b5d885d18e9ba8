// SPDX-License-Identifier: GPL-2.0
/*
 * The stashed-dentry helper under concurrency: threads open and close pidfds
 * of one process, and nsfs files of one namespace, as fast as they can, so
 * that new opens race the last close (reuse of a dying dentry, replacing it,
 * pruning). Every open must see the one inode number of its object.
 * usage: pidfd_stash [ROUNDS]
 */

#include "pidfd_common.h"

#define THREADS 4

struct storm {
	pid_t pid; /* the process whose pidfds are opened */
	const char *path; /* or: the nsfs file that is opened */
	uint64_t want; /* the inode number every open must see */
	int rounds;
	int errors; /* opens that failed */
	int wrong; /* opens that saw another inode */
};

static void *storm_main(void *arg)
{
	struct storm *s = arg;

	for (int i = 0; i < s->rounds; i++) {
		int fd = s->path ? open(s->path, O_RDONLY | O_CLOEXEC) :
				   sys_pidfd_open(s->pid, (i & 1) ? PIDFD_THREAD : 0);
		struct stat st;

		if (fd < 0 || fstat(fd, &st)) {
			s->errors++;
		} else if ((uint64_t)st.st_ino != s->want) {
			s->wrong++;
		}
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

/* Run THREADS storms against one object; the totals go into @sum. */
static int run_storm(const struct storm *proto, struct storm *sum)
{
	struct storm s[THREADS];
	pthread_t t[THREADS];

	*sum = *proto;
	for (int i = 0; i < THREADS; i++) {
		s[i] = *proto;
		errno = pthread_create(&t[i], NULL, storm_main, &s[i]);
		if (errno) {
			perror("run_storm: pthread_create");
			return -1;
		}
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		sum->errors += s[i].errors;
		sum->wrong += s[i].wrong;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	struct tap t = { 0 };
	struct storm proto = { .rounds = rounds }, sum;
	struct stat st;
	char path[64];
	int release;
	pid_t pid;

	pf_require_pidfs();
	pf_require_thread_pidfds();

	/* A child that just waits, so its struct pid and namespaces stay. */
	pid = pf_waiting_child(0, NULL, &release);
	if (pid < 0)
		return 1;

	tap_plan(&t, 3);
	{
		AUTOCLOSE int fd = sys_pidfd_open(pid, 0);

		proto.pid = pid;
		proto.want = fd >= 0 && !fstat(fd, &st) ? (uint64_t)st.st_ino : 0;
	}
	/* With no pidfd left open, every round may build a new dentry. */
	if (run_storm(&proto, &sum))
		return 1;
	tap_ok(&t, proto.want && !sum.errors && !sum.wrong,
	       "%d threads x %d pidfd opens/closes of one process: one inode %llu (%d failed, %d other inode)",
	       THREADS, rounds, (unsigned long long)proto.want, sum.errors, sum.wrong);

	snprintf(path, sizeof(path), "/proc/%d/ns/uts", pid);
	proto.path = path;
	proto.want = stat(path, &st) ? 0 : (uint64_t)st.st_ino;
	if (run_storm(&proto, &sum))
		return 1;
	tap_ok(&t, proto.want && !sum.errors && !sum.wrong,
	       "%d threads x %d opens/closes of %s: one inode %llu (%d failed, %d other inode)", THREADS, rounds,
	       path, (unsigned long long)proto.want, sum.errors, sum.wrong);

	close(release);
	{
		int status = pf_wait(pid);

		tap_ok(&t, status == 0, "the child exits cleanly afterwards (status %#x)", status);
	}
	return tap_done(&t);
}
