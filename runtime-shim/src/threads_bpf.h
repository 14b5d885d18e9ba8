/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads' BPF backend (threads_bpf.c): the exits that
 * taskwatch.bpf.c puts in its ring buffer.
 */
#ifndef SHIM_THREADS_BPF_H
#define SHIM_THREADS_BPF_H

#include "shim.h"
#include "taskwatch.h"

struct ring_buffer;

struct shim_threads_bpf {
	struct shim_taskwatch *tw;	/* the caller's (struct shim_watch) */
	struct ring_buffer *rb;		/* reads tw's exits */
	int batch_fd;			/* timerfd: the batch is read when it fires */
	bool batch_armed;
	bool burst;			/* the last read took more than one exit */
};

/*
 * Load the program with the calling thread as its seed; on failure why
 * says what stopped it and tw is left as it was before.
 */
int shim_threads_bpf_subscribe(struct shim_taskwatch *tw, struct shim_err *why);

#endif
