/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A block of host IDs for each running container, as podman's
 * --userns=auto: disjoint blocks of the caller's subordinate range,
 * recorded in one state file changed under a lock.
 */
#ifndef SHIM_IDBLOCK_H
#define SHIM_IDBLOCK_H

#include <limits.h>
#include <sys/types.h>

#include "shim.h"

#define SHIM_IDBLOCK_SIZE 65536
/* The first line of the state file: its format, nothing else is read. */
#define SHIM_IDBLOCK_HEADER "# shim idblocks 1"
/* More entries than this is a corrupt file: there are not so many blocks. */
#define SHIM_IDBLOCK_MAX 32768

/* Where the blocks come from and where they are recorded. */
struct shim_idblock_paths {
	const char *subuid;	/* /etc/subuid */
	const char *subgid;	/* /etc/subgid */
	const char *user;	/* the subuid(5) name: "containers" for root */
	const char *dir;	/* the state's directory: /run/shim, $XDG_RUNTIME_DIR/shim */
};

/* One held block: its first host IDs, and the shim that holds it. */
struct shim_idblock {
	uint32_t uid;
	uint32_t gid;
	uint32_t count;
	pid_t pid;
	unsigned long long start_time;	/* /proc/PID/stat field 22: tells a reused pid */
	char rootfs[PATH_MAX];
};

struct shim_idblock_table {
	struct shim_idblock *e;
	size_t n;
};

void shim_idblock_table_free(struct shim_idblock_table *t);

/*
 * Parse a whole state file.  Anything but the exact format (a number out
 * of range, a field missing or extra, overlapping blocks, a bad escape)
 * refuses the whole file: it is never half trusted.
 */
int shim_idblock_parse(const char *buf, size_t len, struct shim_idblock_table *t,
		       struct shim_err *err);
/* The file's text for t; NULL when out of memory. */
char *shim_idblock_format(const struct shim_idblock_table *t);

/* The defaults for this caller: root's "containers" under /run, or the caller's own. */
int shim_idblock_default_paths(struct shim_idblock_paths *p, char *user, size_t ulen,
			       char *dir, size_t dlen, struct shim_err *err);

/* Is the shim that recorded e still running (pidfd and start time)? */
bool shim_idblock_alive(const struct shim_idblock *e);

/*
 * Take a block of size IDs for the shim pid, for a container on rootfs
 * whose top directory host uid owner owns.  An owner inside the range
 * takes the block that holds it (refused, naming its holder, when it is
 * in use); any other owner takes the first free block.  Entries of shims
 * that are gone are dropped first.  *out is the block taken.
 */
int shim_idblock_acquire(const struct shim_idblock_paths *p, uint32_t size, uint32_t owner,
			 const char *rootfs, pid_t pid, struct shim_idblock *out,
			 struct shim_err *err);
/* Give back what acquire returned (a no-op when it is no longer recorded). */
int shim_idblock_release(const struct shim_idblock_paths *p, const struct shim_idblock *held,
			 struct shim_err *err);
/* The blocks of the shims that run, read under the lock. */
int shim_idblock_list(const struct shim_idblock_paths *p, struct shim_idblock_table *t,
		      struct shim_err *err);

/* What shim run holds while its container runs. */
struct shim_idblock_lease {
	struct shim_idblock_paths paths;
	char user[256];
	char dir[PATH_MAX];
	struct shim_idblock block;
	bool held;
};

/*
 * shim run without --uid-map/--gid-map: take a block of cfg->userns_size
 * IDs for the container on rootfs and make it the maps (0:BLOCK:SIZE).
 */
int shim_idblock_take(struct shim_config *cfg, const char *rootfs,
		      struct shim_idblock_lease *lease, struct shim_err *err);
/* Give the lease's block back; a failure is said on stderr (the run is over). */
void shim_idblock_give_back(struct shim_idblock_lease *lease);

/* shim ps */
int shim_ps_main(int argc, char *const argv[]);

#endif
