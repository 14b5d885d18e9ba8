/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_TTY_H
#define SHIM_TTY_H

#include <termios.h>

#include "loop.h"
#include "shim.h"

/*
 * --tty, as runc run -t: the container gets a pty of its own devpts
 * (its controlling terminal, on fds 0-2 of the command); the shim holds
 * the master and relays between it and its own stdin/stdout, with its
 * terminal in raw mode, and copies its window size on SIGWINCH.
 */
struct shim_tty {
	int master;		/* -1: no --tty */
	int in;			/* the shim's stdin; -1 once it ended */
	int out;		/* the shim's stdout */
	int epfd;
	bool raw;		/* in was put in raw mode: saved is to restore */
	struct termios saved;
	char buf[4096];		/* input not yet taken by the pty */
	size_t len, off;
};

/* Container side: a new pty in the container's /dev/ptmx; *slave gets its peer. */
int shim_tty_open_pty(int *slave, struct shim_err *err);

/* Shim side. */
void shim_tty_init(struct shim_tty *t);
/* Take the master (from the container), size it, raw mode, watch it in epfd. */
int shim_tty_start(struct shim_tty *t, int master, int epfd, struct shim_err *err);
/* Copy the shim's window size to the pty (SIGWINCH); arg is the shim_tty. */
void shim_tty_resize(void *arg);
/* The same, for a master that is not relayed yet. */
void shim_tty_resize_to_caller(int master);
/* Handle an epoll event with one of the tags above. */
void shim_tty_event(struct shim_tty *t, enum shim_loop_tag tag, uint32_t events);
/* The container is gone: copy what output is left. */
void shim_tty_drain(struct shim_tty *t);
/* Restore the terminal and close the master. */
void shim_tty_release(struct shim_tty *t);

#endif
