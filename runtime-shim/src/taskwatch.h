/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the shim and its BPF program (taskwatch.bpf.c) share, and the
 * shim's side of loading it (taskwatch.c).
 */
#ifndef SHIM_TASKWATCH_H
#define SHIM_TASKWATCH_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* Tasks of one container alive at once that can be followed. */
#define SHIM_TW_MAX_TASKS 65536
/* Exits waiting for the shim: 16 bytes each with the ring's header. */
#define SHIM_TW_RING_BYTES (4 << 20)
#define SHIM_TW_RECORD_BYTES 16
/*
 * The shim is woken by the first exit after it caught up (the ring
 * buffer's own rule).  While exits come in bursts it reads them
 * SHIM_TW_BATCH_US later, so that those behind it come in the same
 * read (threads_bpf.c).  A batch that reaches SHIM_TW_BATCH records wakes
 * it at once, so a storm of exits is read as it comes.
 */
#define SHIM_TW_BATCH 64
#define SHIM_TW_BATCH_US 250

/* The followed table's value. */
#define SHIM_TW_FOLLOW 1

/* `lost` counters. */
#define SHIM_TW_LOST_TABLE 0	/* a new task found the table full */
#define SHIM_TW_LOST_RING 1	/* an exit found the ring buffer full */
#define SHIM_TW_LOST_NR 2

struct shim_tw_exit {
	__u32 tid;
	__u32 pid;		/* its thread group */
};
/* A record is the exit and the ring buffer's 8-byte header. */
_Static_assert(sizeof(struct shim_tw_exit) + 8 == SHIM_TW_RECORD_BYTES,
	       "SHIM_TW_RECORD_BYTES is one exit's record");

#ifndef __bpf__
#include "shim.h"

struct bpf_object;
struct bpf_link;

struct shim_taskwatch {
	struct bpf_object *obj;
	struct bpf_link *links[2];
	int exits_fd;		/* the ring buffer's map, to poll and consume */
	int lost_fd;
	const volatile __u64 *lost_map;	/* the program's counts, mapped */
	__u64 lost[SHIM_TW_LOST_NR];	/* as last read */
};

/* The embedded object, opened but not loaded (tests look into it). */
struct bpf_object *shim_taskwatch_open(struct shim_err *err);
/*
 * Load and attach the program with the calling thread as the seed, so
 * that the next task it creates (the container's init) and all that
 * descends from it are followed.  Call it just before that clone.
 */
int shim_taskwatch_load(struct shim_taskwatch *w, struct shim_err *err);
/*
 * Read the loss counters: 1 (and *what says which) if one grew since
 * the last call, else 0.
 */
int shim_taskwatch_lost(struct shim_taskwatch *w, const char **what);
void shim_taskwatch_free(struct shim_taskwatch *w);
#endif

#endif
