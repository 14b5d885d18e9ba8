// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A block of host IDs for each running container (idblock.h).  Two
 * containers with the same host IDs own each other's files, processes and
 * IPC objects: each shim run takes its own block, records it with its pid
 * and start time in one state file, and gives it back at exit.  A shim
 * killed with SIGKILL cannot give it back; its container died with it
 * (PR_SET_PDEATHSIG), so the next shim takes the block back once the pid
 * is seen gone, through a pidfd and the start time, never the pid alone.
 *
 * The state file is rewritten whole (a temporary file renamed over it)
 * under an flock of a lock file beside it, so that a reader never sees
 * half a file.  What it holds is checked as untrusted text.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "file.h"
#include "idblock.h"
#include "idmap.h"
#include "kernel.h"

#define STATE_NAME "idblocks"
#define STATE_MAX_BYTES (SHIM_IDBLOCK_MAX * (PATH_MAX * 3 + 80))

void shim_idblock_table_free(struct shim_idblock_table *t)
{
	free(t->e);
	t->e = NULL;
	t->n = 0;
}

static int parse_u64(const char *s, const char **end, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	while (*p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');

		if (v > (~0ULL - d) / 10)
			return -1;
		v = v * 10 + d;
		p++;
	}
	*end = p;
	*out = v;
	return 0;
}

static int parse_field(const char **p, unsigned long long max, unsigned long long *out)
{
	if (parse_u64(*p, p, out) || *out > max || **p != ' ')
		return -1;
	(*p)++;
	return 0;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A path as the file writes it: every byte outside '!'..'~', and '%', as %XX. */
static int parse_path(const char **p, char *out, size_t len)
{
	size_t n = 0;

	for (const char *s = *p; *s != '\n'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '%') {
			int hi = hex(s[1]), lo = hi < 0 ? -1 : hex(s[2]);

			if (lo < 0 || (hi == 0 && lo == 0))
				return -1;
			c = (unsigned char)(hi * 16 + lo);
			s += 2;
		} else if (c <= ' ' || c > '~') {
			return -1;
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = (char)c;
		*p = s + 1;
	}
	out[n] = '\0';
	return n && out[0] == '/' ? 0 : -1;
}

static int by_uid(const void *a, const void *b)
{
	const struct shim_idblock *x = a, *y = b;

	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int by_gid(const void *a, const void *b)
{
	const struct shim_idblock *x = a, *y = b;

	return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* Do two blocks of t share a host uid or gid?  t is sorted in place. */
static bool overlapping(struct shim_idblock_table *t)
{
	if (t->n < 2)
		return false;
	qsort(t->e, t->n, sizeof(*t->e), by_gid);
	for (size_t i = 1; i < t->n; i++)
		if ((uint64_t)t->e[i - 1].gid + t->e[i - 1].count > t->e[i].gid)
			return true;
	qsort(t->e, t->n, sizeof(*t->e), by_uid);
	for (size_t i = 1; i < t->n; i++)
		if ((uint64_t)t->e[i - 1].uid + t->e[i - 1].count > t->e[i].uid)
			return true;
	return false;
}

int shim_idblock_parse(const char *buf, size_t len, struct shim_idblock_table *t,
		       struct shim_err *err)
{
	size_t hlen = strlen(SHIM_IDBLOCK_HEADER), line = 1, cap = 0;
	const char *p = buf, *end = buf + len;

	t->e = NULL;
	t->n = 0;
	if (len == 0)
		return 0;	/* made, never written */
	if (memchr(buf, '\0', len) || buf[len - 1] != '\n')
		return shim_fail(err, EINVAL, "not text ending in a newline");
	if (len < hlen + 1 || memcmp(buf, SHIM_IDBLOCK_HEADER, hlen) != 0 || buf[hlen] != '\n')
		return shim_fail(err, EINVAL, "line 1 is not \"%s\"", SHIM_IDBLOCK_HEADER);
	for (p = buf + hlen + 1; p < end; p++) {
		unsigned long long uid, gid, count, pid, start;
		struct shim_idblock *e;

		line++;
		if (t->n >= SHIM_IDBLOCK_MAX) {
			shim_idblock_table_free(t);
			return shim_fail(err, EINVAL, "more than %d blocks", SHIM_IDBLOCK_MAX);
		}
		if (t->n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct shim_idblock *ne = realloc(t->e, ncap * sizeof(*ne));

			if (!ne) {
				shim_idblock_table_free(t);
				return shim_fail(err, ENOMEM, "line %zu", line);
			}
			t->e = ne;
			cap = ncap;
		}
		e = &t->e[t->n];
		/* UID GID COUNT PID START_TIME ROOTFS */
		if (parse_field(&p, UINT32_MAX - 1, &uid) || parse_field(&p, UINT32_MAX - 1, &gid) ||
		    parse_field(&p, UINT32_MAX, &count) || count == 0 ||
		    uid + count - 1 > UINT32_MAX - 1 || gid + count - 1 > UINT32_MAX - 1 ||
		    parse_field(&p, 4194304, &pid) || pid == 0 ||	/* PID_MAX_LIMIT */
		    parse_field(&p, ~0ULL, &start) || parse_path(&p, e->rootfs, sizeof(e->rootfs))) {
			shim_idblock_table_free(t);
			return shim_fail(err, EINVAL, "line %zu is not \"UID GID COUNT PID START_TIME "
					 "ROOTFS\" with a block within 0..4294967294", line);
		}
		e->uid = (uint32_t)uid;
		e->gid = (uint32_t)gid;
		e->count = (uint32_t)count;
		e->pid = (pid_t)pid;
		e->start_time = start;
		t->n++;
	}
	if (overlapping(t)) {
		shim_idblock_table_free(t);
		return shim_fail(err, EINVAL, "two blocks share host IDs");
	}
	return 0;
}

char *shim_idblock_format(const struct shim_idblock_table *t)
{
	size_t cap = strlen(SHIM_IDBLOCK_HEADER) + 2 + t->n * (80 + PATH_MAX * 3), off;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	off = (size_t)snprintf(buf, cap, "%s\n", SHIM_IDBLOCK_HEADER);
	for (size_t i = 0; i < t->n; i++) {
		const struct shim_idblock *e = &t->e[i];

		off += (size_t)snprintf(buf + off, cap - off, "%u %u %u %d %llu ", e->uid, e->gid,
					e->count, (int)e->pid, e->start_time);
		for (const unsigned char *s = (const unsigned char *)e->rootfs; *s; s++)
			off += (size_t)snprintf(buf + off, cap - off,
						*s <= ' ' || *s > '~' || *s == '%' ? "%%%02X" : "%c", *s);
		buf[off++] = '\n';
		buf[off] = '\0';
	}
	return buf;
}

int shim_idblock_default_paths(struct shim_idblock_paths *p, char *user, size_t ulen,
			       char *dir, size_t dlen, struct shim_err *err)
{
	const char *xdg;
	struct passwd *pw;

	p->subuid = "/etc/subuid";
	p->subgid = "/etc/subgid";
	if (geteuid() == 0) {
		snprintf(user, ulen, "%s", SHIM_SUBID_USER);
		snprintf(dir, dlen, "/run/shim");
	} else {
		/* A user other than root: its own lines and its own runtime directory. */
		pw = getpwuid(getuid());
		if (!pw)
			return shim_fail(err, errno ? errno : ENOENT, "no user name for uid %u",
					 (unsigned int)getuid());
		snprintf(user, ulen, "%s", pw->pw_name);
		xdg = getenv("XDG_RUNTIME_DIR");
		if (!xdg || xdg[0] != '/')
			return shim_fail(err, ENOENT, "XDG_RUNTIME_DIR is not set: the blocks of "
					 "your containers are recorded there");
		snprintf(dir, dlen, "%s/shim", xdg);
	}
	p->user = user;
	p->dir = dir;
	return 0;
}

/* /proc/PID/stat's start time (field 22), which a reused pid does not share. */
static int start_time_of(pid_t pid, unsigned long long *out)
{
	char path[64], buf[1024];
	cleanup_fd int fd = -1;
	const char *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold spaces and ')': fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	return parse_u64(p + 1, &p, out);
}

bool shim_idblock_alive(const struct shim_idblock *e)
{
	cleanup_fd int pidfd = sys_pidfd_open(e->pid, 0);
	unsigned long long start;

	/* ESRCH: gone; EINVAL: the pid is another process's thread now. */
	if (pidfd < 0 && (errno == ESRCH || errno == EINVAL))
		return false;
	/* Any other failure (EMFILE, ...): never take a block from what may still run. */
	if (pidfd < 0 && errno != ENOSYS)
		return true;
	if (start_time_of(e->pid, &start) < 0)
		return errno == ENOENT || errno == ESRCH ? false : true;
	if (start != e->start_time)
		return false;
	/* The pidfd's process still runs, so the start time read was its own. */
	return pidfd < 0 || sys_pidfd_send_signal(pidfd, 0, NULL, 0) == 0 || errno == EPERM;
}

/* The state's directory, made 0700; refused when another user could change it. */
static int state_dir(const char *dir, struct shim_err *err)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return shim_fail(err, errno, "mkdir %s", dir);
	if (lstat(dir, &st) < 0)
		return shim_fail(err, errno, "stat %s", dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return shim_fail(err, EPERM, "%s: not a directory of uid %u that only it may "
				 "write: the ID blocks are not recorded there",
				 dir, (unsigned int)geteuid());
	return 0;
}

/* The lock of the state, held while the returned fd is open. */
static int lock_state(const struct shim_idblock_paths *p, int how, struct shim_err *err)
{
	char path[PATH_MAX];
	cleanup_fd int fd = -1;

	if (state_dir(p->dir, err))
		return -1;
	snprintf(path, sizeof(path), "%s/%s.lock", p->dir, STATE_NAME);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return shim_fail(err, errno, "open %s", path);
	while (flock(fd, how) < 0)
		if (errno != EINTR)
			return shim_fail(err, errno, "flock %s", path);
	return shim_steal_fd(&fd);
}

static int load_state(const struct shim_idblock_paths *p, struct shim_idblock_table *t,
		      struct shim_err *err)
{
	char path[PATH_MAX];
	cleanup_fd int fd = -1;
	cleanup_free char *buf = NULL;
	size_t len;

	t->e = NULL;
	t->n = 0;
	snprintf(path, sizeof(path), "%s/%s", p->dir, STATE_NAME);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return shim_fail(err, errno, "open %s", path);
	if (shim_read_all(fd, STATE_MAX_BYTES, &buf, &len, path, err))
		return -1;
	if (shim_idblock_parse(buf, len, t, err))
		return shim_fail_wrap(err, "%s: corrupt, not used", path),
		       shim_fail_note(err, "when no shim runs, remove it");
	return 0;
}

static int store_state(const struct shim_idblock_paths *p, const struct shim_idblock_table *t,
		       struct shim_err *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	cleanup_free char *text = shim_idblock_format(t);
	cleanup_fd int fd = -1;
	size_t len;

	if (!text)
		return shim_fail(err, ENOMEM, "the ID blocks' state");
	snprintf(path, sizeof(path), "%s/%s", p->dir, STATE_NAME);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return shim_fail(err, errno, "open %s", tmp);
	len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len)
		return shim_fail(err, errno ? errno : EIO, "write %s", tmp);
	if (rename(tmp, path) < 0)
		return shim_fail(err, errno, "rename %s to %s", tmp, path);
	return 0;
}

static void drop_dead(struct shim_idblock_table *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->n; i++)
		if (shim_idblock_alive(&t->e[i]))
			t->e[kept++] = t->e[i];
	t->n = kept;
}

/* The entry of t that shares an ID with the block at uid/gid, or NULL. */
static const struct shim_idblock *holder_of(const struct shim_idblock_table *t, uint32_t uid,
					    uint32_t gid, uint32_t size)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct shim_idblock *e = &t->e[i];

		if (((uint64_t)uid < (uint64_t)e->uid + e->count && e->uid < (uint64_t)uid + size) ||
		    ((uint64_t)gid < (uint64_t)e->gid + e->count && e->gid < (uint64_t)gid + size))
			return e;
	}
	return NULL;
}

static int choose_block(const struct shim_idblock_paths *p, const struct shim_idblock_table *t,
			uint32_t size, uint32_t owner, const char *rootfs,
			struct shim_idblock *out, struct shim_err *err)
{
	struct shim_idmap u, g;
	uint64_t blocks;
	const struct shim_idblock *h;

	if (shim_subid_span(p->subuid, p->user, &u, err) ||
	    shim_subid_span(p->subgid, p->user, &g, err))
		return shim_fail_note(err, "add a line \"%s:START:COUNT\" to %s and %s, "
				      "or give --uid-map and --gid-map", p->user, p->subuid, p->subgid);
	blocks = (u.count < g.count ? u.count : g.count) / size;
	if (blocks == 0)
		return shim_fail(err, ENOSPC, "the range of %s in %s and %s holds fewer than %u IDs, "
				 "one block", p->user, p->subuid, p->subgid, size),
		       shim_fail_note(err, "give %s a larger range there, or ask for smaller blocks "
				      "(--userns auto:size=N)", p->user);
	if (owner >= u.outside && owner - u.outside < u.count) {
		/* A rootfs given to a block (chown -R) runs with that block. */
		uint64_t k = (owner - u.outside) / size;

		if (k >= blocks)
			return shim_fail(err, ERANGE, "--rootfs %s belongs to host uid %u, in the range "
					 "of %s but past its last whole block of %u IDs",
					 rootfs, owner, p->user, size);
		out->uid = (uint32_t)(u.outside + k * size);
		out->gid = (uint32_t)(g.outside + k * size);
		h = holder_of(t, out->uid, out->gid, size);
		if (h)
			return shim_fail(err, EBUSY, "--rootfs %s belongs to host uid %u, of the ID "
					 "block %u-%u, which the running container of shim pid %d "
					 "holds (rootfs %s)", rootfs, owner, out->uid,
					 out->uid + (size - 1), (int)h->pid, h->rootfs),
			       shim_fail_note(err, "one container at a time runs on a block's rootfs: "
					      "wait for it to end, or run on a copy owned by root, "
					      "which gets a free block");
		return 0;
	}
	for (uint64_t k = 0; k < blocks; k++) {
		out->uid = (uint32_t)(u.outside + k * size);
		out->gid = (uint32_t)(g.outside + k * size);
		if (!holder_of(t, out->uid, out->gid, size))
			return 0;
	}
	return shim_fail(err, ENOSPC, "every ID block is taken: %llu blocks of %u IDs in the range "
			 "of %s in %s and %s, each held by a running container (shim ps lists them)",
			 (unsigned long long)blocks, size, p->user, p->subuid, p->subgid),
	       shim_fail_note(err, "stop one, give %s a larger range in %s and %s, or ask for "
			      "smaller blocks (--userns auto:size=N)", p->user, p->subuid, p->subgid);
}

int shim_idblock_acquire(const struct shim_idblock_paths *p, uint32_t size, uint32_t owner,
			 const char *rootfs, pid_t pid, struct shim_idblock *out,
			 struct shim_err *err)
{
	cleanup_fd int lock = -1;
	struct shim_idblock_table t;
	struct shim_idblock *ne;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (size == 0)
		return shim_fail(err, EINVAL, "an ID block of 0 IDs");
	if (strlen(rootfs) >= sizeof(out->rootfs) || rootfs[0] != '/')
		return shim_fail(err, ENAMETOOLONG, "--rootfs %s", rootfs);
	if (start_time_of(pid, &out->start_time) < 0)
		return shim_fail(err, errno ? errno : EINVAL, "/proc/%d/stat: no start time",
				 (int)pid);
	lock = lock_state(p, LOCK_EX, err);
	if (lock < 0 || load_state(p, &t, err))
		return -1;
	drop_dead(&t);
	if (choose_block(p, &t, size, owner, rootfs, out, err))
		goto out;
	out->count = size;
	out->pid = pid;
	snprintf(out->rootfs, sizeof(out->rootfs), "%s", rootfs);
	ne = realloc(t.e, (t.n + 1) * sizeof(*ne));
	if (!ne) {
		shim_fail(err, ENOMEM, "the ID blocks' state");
		goto out;
	}
	t.e = ne;
	t.e[t.n++] = *out;
	ret = store_state(p, &t, err);
out:
	shim_idblock_table_free(&t);
	return ret;
}

int shim_idblock_release(const struct shim_idblock_paths *p, const struct shim_idblock *held,
			 struct shim_err *err)
{
	cleanup_fd int lock = lock_state(p, LOCK_EX, err);
	struct shim_idblock_table t;
	size_t kept = 0;
	int ret;

	if (lock < 0 || load_state(p, &t, err))
		return -1;
	for (size_t i = 0; i < t.n; i++)
		if (t.e[i].pid != held->pid || t.e[i].start_time != held->start_time ||
		    t.e[i].uid != held->uid)
			t.e[kept++] = t.e[i];
	t.n = kept;
	ret = store_state(p, &t, err);
	shim_idblock_table_free(&t);
	return ret;
}

int shim_idblock_list(const struct shim_idblock_paths *p, struct shim_idblock_table *t,
		      struct shim_err *err)
{
	cleanup_fd int lock = lock_state(p, LOCK_SH, err);

	if (lock < 0 || load_state(p, t, err))
		return -1;
	drop_dead(t);
	if (t->n > 1)
		qsort(t->e, t->n, sizeof(*t->e), by_uid);
	return 0;
}

int shim_idblock_take(struct shim_config *cfg, const char *rootfs,
		      struct shim_idblock_lease *lease, struct shim_err *err)
{
	struct stat st;

	lease->held = false;
	if (stat(rootfs, &st) < 0)
		return shim_fail(err, errno, "--rootfs %s", rootfs);
	if (shim_idblock_default_paths(&lease->paths, lease->user, sizeof(lease->user),
				       lease->dir, sizeof(lease->dir), err) ||
	    shim_idblock_acquire(&lease->paths, cfg->userns_size, st.st_uid, rootfs, getpid(),
				 &lease->block, err))
		return -1;
	lease->held = true;
	cfg->uid_map.map[0] = (struct shim_idmap){ 0, lease->block.uid, lease->block.count };
	cfg->gid_map.map[0] = (struct shim_idmap){ 0, lease->block.gid, lease->block.count };
	cfg->uid_map.n = cfg->gid_map.n = 1;
	return 0;
}

void shim_idblock_give_back(struct shim_idblock_lease *lease)
{
	struct shim_err err = { 0 };

	if (!lease->held)
		return;
	lease->held = false;
	if (shim_idblock_release(&lease->paths, &lease->block, &err))
		shim_err_print(&err);
}

int shim_ps_main(int argc, char *const argv[])
{
	struct shim_idblock_paths p;
	struct shim_idblock_table t = { 0 };
	struct shim_err err = { 0 };
	char user[256], dir[PATH_MAX];

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("Usage: shim ps\n"
		       "\n"
		       "List the running containers of shim run with the block of host IDs\n"
		       "each holds: the shim's pid, its host UIDs and GIDs, its rootfs.\n"
		       "Root's containers are recorded in /run/shim/idblocks; another\n"
		       "user's in $XDG_RUNTIME_DIR/shim/idblocks.\n");
		return 0;
	}
	if (argc > 1) {
		shim_fail(&err, 0, "ps: unexpected argument \"%s\" (see shim ps --help)", argv[1]);
		shim_err_print(&err);
		return SHIM_EXIT_ERROR;
	}
	if (shim_idblock_default_paths(&p, user, sizeof(user), dir, sizeof(dir), &err) ||
	    shim_idblock_list(&p, &t, &err)) {
		shim_err_print(&err);
		return SHIM_EXIT_ERROR;
	}
	printf("%-8s %-23s %-23s %s\n", "PID", "HOST UIDS", "HOST GIDS", "ROOTFS");
	for (size_t i = 0; i < t.n; i++) {
		char uids[32], gids[32];
		const struct shim_idblock *e = &t.e[i];

		snprintf(uids, sizeof(uids), "%u-%u", e->uid, e->uid + (e->count - 1));
		snprintf(gids, sizeof(gids), "%u-%u", e->gid, e->gid + (e->count - 1));
		printf("%-8d %-23s %-23s %s\n", (int)e->pid, uids, gids, e->rootfs);
	}
	shim_idblock_table_free(&t);
	return 0;
}
