/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's one epoll set (supervise.c): what each event is
 * about, in the upper 32 bits of its data; the lower 32 carry a thread's
 * TID for SHIM_LOOP_THREAD.
 */
#ifndef SHIM_LOOP_H
#define SHIM_LOOP_H

#include <stdint.h>

enum shim_loop_tag {
	SHIM_LOOP_INIT = 1,	/* the container init's pidfd */
	SHIM_LOOP_SIGNAL,	/* the signalfd of the forwarded signals */
	SHIM_LOOP_THREAD,	/* a PIDFD_THREAD pidfd of a container thread */
	SHIM_LOOP_CONNECTOR,	/* the process-events connector */
	SHIM_LOOP_TASKWATCH,	/* the ring buffer of taskwatch.bpf.c */
	SHIM_LOOP_TASKWATCH_BATCH,	/* the timer that ends its batch */
	SHIM_LOOP_TTY_IN,	/* --tty: the shim's stdin */
	SHIM_LOOP_TTY_PTY,	/* --tty: the container's pty master */
};

static inline uint64_t shim_loop_data(enum shim_loop_tag tag, uint32_t low)
{
	return (uint64_t)tag << 32 | low;
}

static inline enum shim_loop_tag shim_loop_tag(uint64_t data)
{
	return (enum shim_loop_tag)(data >> 32);
}

#endif
