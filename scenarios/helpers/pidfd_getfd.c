// SPDX-License-Identifier: GPL-2.0
/*
 * pidfd_getfd(): ESRCH, not EBADF, once the target is exiting or gone, also
 * when the lookup races the target's exit_files().
 * usage: pidfd_getfd [ROUNDS]
 */
#include "pidfd_common.h"

/* A child that sleeps with an extra fd open, until killed or @ms passed. */
static pid_t sleeper(int *pidfd, long ms, int *fdnum)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(p[0]);
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		if (ms > 0)
			pf_msleep(ms);
		else
			for (;;)
				pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		return -1;
	close(p[0]);
	/* The child's write end of the pipe was p[1]; that fd number is open there. */
	*fdnum = p[1];
	*pidfd = sys_pidfd_open(pid, 0);
	return *pidfd < 0 ? -1 : pid;
}

struct race {
	int esrch, ebadf, other, taken;
};

/*
 * Race the target's exit: children exit after 1..5 ms while we take one of
 * their fds in a loop; the loop ends with the first failure, which must be
 * ESRCH whatever the timing.
 */
static int race_exit(int rounds, struct race *r)
{
	for (int i = 0; i < rounds; i++) {
		AUTOCLOSE int fd = -1;
		int fdnum = -1, rc;
		pid_t pid = sleeper(&fd, 1 + i % 5, &fdnum);

		if (pid < 0) {
			perror("sleeper");
			return -1;
		}
		for (;;) {
			rc = sys_pidfd_getfd(fd, fdnum, 0);
			if (rc >= 0) {
				close(rc);
				r->taken++;
				continue;
			}
			if (errno == ESRCH)
				r->esrch++;
			else if (errno == EBADF)
				r->ebadf++;
			else
				r->other++;
			break;
		}
		pf_wait(pid);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 300;
	struct tap t = { 0 };
	AUTOCLOSE int pidfd = -1;
	int fdnum = -1, rc, status;
	struct race race = { 0 };
	char b[64];
	pid_t pid;

	/*
	 * The probe is the behaviour itself: a kernel that lets the fd lookup
	 * fail with EBADF once the target's files are gone lacks the fix. Stock
	 * 6.1 (which has only the earlier PF_EXITING check) shows it within a
	 * few hundred rounds, though not every time.
	 */
	if (race_exit(rounds, &race))
		return 1;
	if (race.ebadf)
		tap_skip_all("pidfd_getfd() racing the target's exit: EBADF in %d of %d rounds", race.ebadf, rounds);

	tap_plan(&t, 7);
	tap_ok(&t, race.esrch == rounds && !race.other,
	       "%d children racing their exit: every failure is ESRCH (ESRCH %d, other %d; %d fds taken)", rounds,
	       race.esrch, race.other, race.taken);

	pid = sleeper(&pidfd, 0, &fdnum);
	if (pid < 0) {
		perror("sleeper");
		return 1;
	}
	rc = sys_pidfd_getfd(pidfd, fdnum, 0);
	tap_ok(&t, rc >= 0, "pidfd_getfd of a live child's open fd succeeds (%s)", pf_err(rc));
	if (rc >= 0)
		close(rc);
	rc = sys_pidfd_getfd(pidfd, fdnum, 1);
	tap_errno(&t, rc, EINVAL, "pidfd_getfd with flags 1");
	rc = sys_pidfd_getfd(pidfd, 999, 0);
	tap_errno(&t, rc, EBADF, "pidfd_getfd of a closed fd number of a live child");

	rc = sys_pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	status = pf_poll(pidfd, PF_EVENT_MS);
	tap_ok(&t, rc == 0 && status > 0 && (status & POLLIN), "SIGKILL through the pidfd; the child exits (%s)",
	       pf_revents(status, b, sizeof(b)));
	rc = sys_pidfd_getfd(pidfd, fdnum, 0);
	tap_errno(&t, rc, ESRCH, "pidfd_getfd of a killed, not yet reaped child");
	pf_wait(pid);
	rc = sys_pidfd_getfd(pidfd, fdnum, 0);
	tap_errno(&t, rc, ESRCH, "pidfd_getfd of a reaped child");

	return tap_done(&t);
}
