/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The container's own cgroup v2: its limits as podman spells them, where
 * it is made (--cgroup-parent), and the mountinfo reading that finds the
 * cgroup2 hierarchy and, for the OCI hook, the cgroup mounts a container
 * can reach.
 */
#ifndef SHIM_CGROUP_H
#define SHIM_CGROUP_H

#include <limits.h>

#include "shim.h"

/* Where the containers' cgroups go without --cgroup-parent (as root, no systemd). */
#define SHIM_CGROUP_DEFAULT_PARENT "/shim"
#define SHIM_PIDS_LIMIT_DEFAULT 2048
/* cpu.max's period, as podman and runc use it: --cpus 1.5 is "150000 100000". */
#define SHIM_CPU_PERIOD_US 100000

/* ---- option values (checked where they come in) ------------------------ */

/* --memory, --memory-swap: NUMBER[b|k|m|g|t] (binary units, "kb" etc. too). */
int shim_parse_size(const char *opt, const char *value, int64_t *bytes, struct shim_err *err);
/* --pids-limit: a count >= 1, or -1 for none. */
int shim_parse_pids_limit(const char *value, int64_t *limit, struct shim_err *err);
/* --cpus: a decimal count of CPUs, 0.01 at least; *quota in us per period. */
int shim_parse_cpus(const char *value, uint64_t *quota, struct shim_err *err);
/* --cpuset-cpus: N or N-M, separated by ','. */
int shim_parse_cpuset(const char *value, struct shim_err *err);
/* --cgroup-parent: an absolute path in the cgroup2 hierarchy, no "." or "..". */
int shim_parse_cgroup_parent(const char *value, struct shim_err *err);
/* What the options ask for together (--memory-swap needs --memory, ...). */
int shim_limits_check(const struct shim_limits *l, struct shim_err *err);
/* Whether l asks for any limit but the default --pids-limit. */
bool shim_limits_asked(const struct shim_limits *l);

/* ---- mountinfo ------------------------------------------------------------- */

struct shim_mountinfo {
	unsigned int id, parent;
	char root[PATH_MAX];	/* unescaped */
	char point[PATH_MAX];	/* unescaped */
	char fstype[64];
};

/* One line of /proc/PID/mountinfo (without its newline): 0, or -1 malformed. */
int shim_mountinfo_parse(const char *line, struct shim_mountinfo *m);

/*
 * The mount point of the first cgroup2 mount in mountinfo text: 0, or -1
 * with err when there is none (a host with cgroup v1 only).
 */
int shim_cgroup2_mount_of(const char *mountinfo, char *point, size_t len, struct shim_err *err);

/* The cgroup v2 path ("0::PATH") in /proc/PID/cgroup text. */
int shim_cgroup2_path_of(const char *proc_cgroup, char *path, size_t len, struct shim_err *err);

/*
 * For the OCI hook: every cgroup2 mount of a container's mountinfo, read
 * from outside, whose mount point is at or below `below` (its root
 * directory, which is the rootfs's path before pivot_root) must have as its
 * root the container's own cgroup (own, its cgroup v2 path) or one below;
 * a mount that shows more of the hierarchy is refused, named, unless a
 * mount on its own mount point covers it (a base spec that binds the
 * host's /sys and mounts the container's cgroup on top).  cgroup v1
 * mounts are not looked at: no BPF program attaches to a v1 cgroup.
 */
int shim_cgroup_mounts_confined(const char *mountinfo, const char *below, const char *own,
				struct shim_err *err);

/* ---- the container's cgroup --------------------------------------------- */

struct shim_cgroup {
	int fd;			/* its directory, for CLONE_INTO_CGROUP; -1: none */
	int parent_fd;
	char name[64];		/* its name in the parent */
	char path[PATH_MAX];	/* as the host sees it, for messages */
	char why_none[512];	/* fd < 0: why the container has none */
	bool memory;		/* the memory controller is on: OOM kills are counted */
};

#define SHIM_CGROUP_INIT { .fd = -1, .parent_fd = -1 }

/*
 * Make the container's cgroup with its limits, or say in why_none why
 * it has none (then only a limit asked for is an error).  Stale cgroups
 * of shims that were killed are removed from the parent first.
 */
int shim_cgroup_create(const struct shim_config *cfg, struct shim_cgroup *cg,
		       const struct shim_voice *v, struct shim_err *err);

/*
 * Make parent below the cgroup2 mount mnt and enable in every level from
 * top down to it the controllers the limits l need: one missing from
 * cgroup.controllers (v1 holds it, on a hybrid host) is an error for a
 * limit asked for, a note for a default, then left out of *applied.
 * *memory: the memory controller is on, OOM kills are counted.
 */
int shim_cgroup_prepare_parent(const char *mnt, const char *top, const char *parent,
			       const struct shim_limits *l, struct shim_limits *applied,
			       bool *memory, const struct shim_voice *v, struct shim_err *err);

/* Put pid in it (a child made without CLONE_INTO_CGROUP). */
int shim_cgroup_enter(const struct shim_cgroup *cg, pid_t pid, struct shim_err *err);

/* memory.events' oom_kill: processes the kernel killed for memory.max. */
uint64_t shim_cgroup_oom_kills(const struct shim_cgroup *cg);

/* cgroup.kill, wait until it is empty, rmdir; a failure is warned about. */
void shim_cgroup_remove(struct shim_cgroup *cg, const struct shim_voice *v);

/* Whether the delegation masks let the container attach to a cgroup. */
bool shim_delegates_cgroup_types(const uint64_t mask[SHIM_DELEG_NR]);

#endif
