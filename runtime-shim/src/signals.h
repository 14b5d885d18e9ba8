/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SIGNALS_H
#define SHIM_SIGNALS_H

#include <signal.h>

#include "shim.h"

/*
 * The signals the shim forwards to the container, as runc's signal proxy
 * does: every catchable one, real-time signals included, but SIGCHLD
 * (the shim's own child, the container's init) and the two that glibc
 * reserves for itself (it refuses to block them).  They stay blocked in
 * the shim from start to end, so none of them (SIGALRM, SIGPIPE, SIGRTMIN
 * ...) can kill it: they queue on a signalfd and go on to the container.
 */
void shim_forward_signals(sigset_t *set);

/*
 * Send sig to the container's init through its pidfd (kill(2) without
 * pidfd_send_signal): 0, or -1 with err (errnum ESRCH: the init is gone).
 */
int shim_send_to_init(int pidfd, pid_t pid, int sig, struct shim_err *err);

/*
 * Forward what is queued on sigfd (non-blocking) to the container's init.
 * Signals the shim raised itself (SIGPIPE of a write to a closed pipe)
 * are not passed on.  on_winch, when set, handles SIGWINCH instead
 * (--tty: the window size goes to the pty).  Returns the number forwarded,
 * or -1 with err set when sending failed for another reason than the
 * container being gone.
 */
int shim_forward_pending(int sigfd, int pidfd, pid_t pid, bool verbose,
			 void (*on_winch)(void *), void *arg, struct shim_err *err);

#endif
