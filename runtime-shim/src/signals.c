// SPDX-License-Identifier: GPL-2.0-or-later
/* The shim's signal proxy: what it blocks, and passing it on to the container. */
#include <errno.h>
#include <string.h>
#include <sys/signalfd.h>

#include "kernel.h"
#include "signals.h"

void shim_forward_signals(sigset_t *set)
{
	sigfillset(set);
	/* Cannot be caught; SIGCHLD is about the shim's own child. */
	sigdelset(set, SIGKILL);
	sigdelset(set, SIGSTOP);
	sigdelset(set, SIGCHLD);
	/* glibc's reserved real-time signals (SIGCANCEL, SIGSETXID): sigfillset leaves them out. */
}

int shim_send_to_init(int pidfd, pid_t pid, int sig, struct shim_err *err)
{
	if (sys_pidfd_send_signal(pidfd, sig, NULL, 0) == 0)
		return 0;
	/* Not reaped yet (we hold the only wait), so pid is still ours. */
	if (errno == ENOSYS && kill(pid, sig) == 0)
		return 0;
	return shim_fail(err, errno, "forward signal %d to the container", sig);
}

int shim_forward_pending(int sigfd, int pidfd, pid_t pid, bool verbose,
			 void (*on_winch)(void *), void *arg, struct shim_err *err)
{
	struct signalfd_siginfo si;
	pid_t self = getpid();
	int n = 0;
	ssize_t len;

	while ((len = read(sigfd, &si, sizeof(si))) == (ssize_t)sizeof(si)) {
		int sig = (int)si.ssi_signo;

		/* SIGPIPE and the like that the shim caused itself. */
		if (si.ssi_pid == (uint32_t)self && si.ssi_code != SI_QUEUE &&
		    sig != SIGWINCH)
			continue;
		if (sig == SIGWINCH && on_winch) {
			on_winch(arg);
			continue;
		}
		shim_note(&(struct shim_voice){ "shim", verbose }, "forwarding %s to the container",
			  strsignal(sig));
		if (shim_send_to_init(pidfd, pid, sig, err) < 0) {
			if (err->errnum == ESRCH)
				continue;	/* the container is going away */
			return -1;
		}
		n++;
	}
	if (len < 0 && errno != EAGAIN && errno != EINTR)
		return shim_fail(err, errno, "read the signalfd");
	return n;
}
