/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim: a small container runtime with BPF FS delegation and pidfd
 * supervision.  Shared types and helpers.
 */
#ifndef SHIM_H
#define SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SHIM_VERSION "0.1.0"

/* Exit status for errors of the shim itself, before the command runs. */
#define SHIM_EXIT_ERROR 125
#define SHIM_EXIT_CANNOT_EXEC 126
#define SHIM_EXIT_NOT_FOUND 127

/* ---- errors -------------------------------------------------------- */

struct shim_err {
	int errnum;		/* errno of the failing call, or 0 */
	char msg[4096];		/* full message, without the "shim: " prefix */
};

/*
 * Record an error: the formatted context, then ": strerror(errnum)" when
 * errnum is non-zero.  Always returns -1 so callers can "return shim_fail()".
 */
int shim_fail(struct shim_err *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append " (...)" detail to an already recorded error.  Returns -1. */
int shim_fail_note(struct shim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix the recorded message with "context: ".  Returns -1. */
int shim_fail_wrap(struct shim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The one way an error reaches the user: "shim: MESSAGE" on stderr, or
 * "WHO: MESSAGE" for a part that names itself ("shim hook bpffs").
 */
void shim_err_print(const struct shim_err *err);
void shim_err_print_as(const char *who, const struct shim_err *err);

/*
 * What is not an error, said on stderr with the prefix of the command
 * that says it ("shim", "shim hook bpffs"): a warning, when the work goes
 * on, and a note, only with --verbose.
 */
struct shim_voice {
	const char *who;
	bool verbose;
};

void shim_warn(const struct shim_voice *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void shim_note(const struct shim_voice *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- cleanup helpers ----------------------------------------------- */

static inline void shim_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static inline void shim_freep(void *p)
{
	void **pp = p;

	free(*pp);
	*pp = NULL;
}

static inline void shim_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
	*f = NULL;
}

#define cleanup_fd __attribute__((cleanup(shim_closep)))
#define cleanup_free __attribute__((cleanup(shim_freep)))
#define cleanup_file __attribute__((cleanup(shim_fclosep)))

/* Hand an fd out of a cleanup_fd variable. */
static inline int shim_steal_fd(int *fd)
{
	int r = *fd;

	*fd = -1;
	return r;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- configuration --------------------------------------------------- */

enum shim_net {
	SHIM_NET_NONE,
	SHIM_NET_HOST,
};

enum shim_seccomp {
	SHIM_SECCOMP_DEFAULT,
	SHIM_SECCOMP_NONE,
	SHIM_SECCOMP_FILE,
};

/* Indexes of the four BPF FS delegation options. */
enum shim_deleg {
	SHIM_DELEG_CMDS,
	SHIM_DELEG_MAPS,
	SHIM_DELEG_PROGS,
	SHIM_DELEG_ATTACHS,
	SHIM_DELEG_NR,
};

struct shim_idmap {
	uint32_t inside;
	uint32_t outside;
	uint32_t count;
};

#define SHIM_MAX_IDMAPS 32
#define SHIM_MAX_ENV 256

struct shim_idmaps {
	struct shim_idmap map[SHIM_MAX_IDMAPS];
	size_t n;
};

/* --memory, --pids-limit, ... and --cgroup-parent, as checked by cgroup.c. */
struct shim_limits {
	int64_t memory;		/* memory.max, bytes; 0: none */
	int64_t memory_swap;	/* memory + swap, bytes; 0: not given; -1: swap unlimited */
	int64_t pids;		/* pids.max; -1: none */
	bool pids_given;
	uint64_t cpu_quota;	/* cpu.max, us per 100 ms; 0: none */
	const char *cpuset_cpus;
	const char *cgroup_parent;	/* NULL: the default */
	bool no_cgroup;		/* --cgroups=disabled */
};

struct shim_config {
	bool help;
	const char *rootfs;
	char *const *argv;	/* the command, NULL terminated (points into main's argv) */
	const char *hostname;
	const char *cwd;
	enum shim_net net;
	struct shim_idmaps uid_map;
	struct shim_idmaps gid_map;
	uint32_t userns_size;	/* --userns auto:size=N: IDs of the block (idblock.h) */
	const char *env[SHIM_MAX_ENV];
	size_t n_env;
	enum shim_seccomp seccomp;
	const char *seccomp_file;
	/* Values of --bpf-delegate-*, as given; NULL when not given. */
	const char *delegate[SHIM_DELEG_NR];
	const char *bpf_mount;
	bool watch_threads;
	const char *events_file;
	bool no_pivot;		/* --no-pivot: MS_MOVE+chroot, escapable */
	bool allow_setgroups;	/* --allow-setgroups: setgroups(2) works inside */
	bool tty;		/* --tty: a pty for the container, relayed */
	bool verbose;
	uint64_t cap_add;	/* --cap-add, a bit per capability; ~0: all */
	uint64_t cap_drop;	/* --cap-drop, likewise */
	struct shim_limits limits;
};

static inline bool shim_config_delegates(const struct shim_config *cfg)
{
	for (int i = 0; i < SHIM_DELEG_NR; i++)
		if (cfg->delegate[i])
			return true;
	return false;
}

#endif
