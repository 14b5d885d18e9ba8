// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signal proxy: another process signals the "shim" (this test), which
 * must survive every catchable signal and pass each one on to the
 * "container" (a child reading its own signalfd).
 */
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "signals.h"

static void test_forward_set(void **state)
{
	sigset_t set;

	(void)state;
	shim_forward_signals(&set);
	assert_true(sigismember(&set, SIGINT));
	assert_true(sigismember(&set, SIGTERM));
	assert_true(sigismember(&set, SIGALRM));
	assert_true(sigismember(&set, SIGPIPE));
	assert_true(sigismember(&set, SIGWINCH));
	assert_true(sigismember(&set, SIGTSTP));
	assert_true(sigismember(&set, SIGRTMIN));
	assert_true(sigismember(&set, SIGRTMAX));
	assert_false(sigismember(&set, SIGKILL));
	assert_false(sigismember(&set, SIGSTOP));
	assert_false(sigismember(&set, SIGCHLD));
}

/* The container: report each signal that arrives on the pipe, one byte each. */
static void receive(int out, int ready)
{
	sigset_t set;
	int sfd;

	shim_forward_signals(&set);
	sfd = signalfd(-1, &set, 0);
	if (sfd < 0 || write(ready, "r", 1) != 1)
		_exit(2);
	for (;;) {
		struct pollfd p = { .fd = sfd, .events = POLLIN };
		struct signalfd_siginfo si;
		unsigned char sig;

		if (poll(&p, 1, 5000) <= 0)
			_exit(0);
		if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
			_exit(3);
		sig = (unsigned char)si.ssi_signo;
		if (write(out, &sig, 1) != 1)
			_exit(4);
	}
}

static void test_forward_every_signal(void **state)
{
	const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
		SIGTERM, SIGWINCH, SIGTSTP, SIGURG, SIGRTMIN, SIGRTMIN + 1,
		SIGRTMAX,
	};	/* not SIGCONT: the kernel drops a pending SIGTSTP for it */
	bool seen[65] = { false };
	sigset_t set, old;
	int results[2], ready[2], sigfd, pidfd, forwarded = 0, status;
	pid_t receiver, sender;
	unsigned char sig;
	char c;

	(void)state;
	shim_forward_signals(&set);
	assert_int_equal(sigprocmask(SIG_BLOCK, &set, &old), 0);
	sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	assert_true(sigfd >= 0);
	assert_int_equal(pipe(results), 0);
	assert_int_equal(pipe(ready), 0);

	receiver = fork();
	assert_true(receiver >= 0);
	if (receiver == 0) {
		close(results[0]);
		receive(results[1], ready[1]);
	}
	close(results[1]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	pidfd = (int)syscall(SYS_pidfd_open, receiver, 0);
	assert_true(pidfd >= 0);

	/* A SIGPIPE the shim causes itself is not the container's business. */
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		close(p[0]);
		assert_int_equal(write(p[1], "x", 1), -1);
		close(p[1]);
		struct shim_err err = { 0 };
		assert_int_equal(shim_forward_pending(sigfd, pidfd, receiver, false, NULL, NULL, &err), 0);
	}

	sender = fork();
	assert_true(sender >= 0);
	if (sender == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			if (kill(getppid(), sigs[i]) < 0)
				_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(sender, &status, 0), sender);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	while (forwarded < (int)ARRAY_SIZE(sigs)) {
		struct pollfd p = { .fd = sigfd, .events = POLLIN };
		struct shim_err err = { 0 };
		int n;

		assert_int_equal(poll(&p, 1, 5000), 1);
		n = shim_forward_pending(sigfd, pidfd, receiver, false, NULL, NULL, &err);
		if (n < 0)
			fail_msg("%s", err.msg);
		forwarded += n;
	}
	assert_int_equal(forwarded, ARRAY_SIZE(sigs));

	/* The container got each one exactly once. */
	for (size_t got = 0; got < ARRAY_SIZE(sigs); got++) {
		assert_int_equal(read(results[0], &sig, 1), 1);
		assert_true(sig < ARRAY_SIZE(seen));
		if (seen[sig])
			fail_msg("signal %u forwarded twice", sig);
		seen[sig] = true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		if (!seen[sigs[i]])
			fail_msg("signal %d not forwarded", sigs[i]);

	kill(receiver, SIGKILL);
	waitpid(receiver, NULL, 0);
	close(results[0]);
	close(ready[0]);
	close(pidfd);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward_set),
		cmocka_unit_test(test_forward_every_signal),
	};

	return cmocka_run_group_tests_name("signals", tests, NULL, NULL);
}
