// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's own cgroup v2 (cgroup.h).  Made before its first
 * process, in the parent --cgroup-parent names; its processes are put in
 * it by clone3(CLONE_INTO_CGROUP) and ended by cgroup.kill.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>

#include <linux/bpf.h>

#include "cgroup.h"
#include "file.h"

/* ---- option values ------------------------------------------------------ */

static int parse_u64(const char **p, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		uint64_t d = (uint64_t)(**p - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int shim_parse_size(const char *opt, const char *value, int64_t *bytes, struct shim_err *err)
{
	const char *p = value;
	uint64_t n, shift = 0;

	if (parse_u64(&p, INT64_MAX, &n))
		goto bad;
	switch (tolower((unsigned char)*p)) {
	case 'k': shift = 10; break;
	case 'm': shift = 20; break;
	case 'g': shift = 30; break;
	case 't': shift = 40; break;
	}
	if (shift)
		p++;
	if (tolower((unsigned char)*p) == 'b')
		p++;
	if (*p)
		goto bad;
	if (n > (uint64_t)INT64_MAX >> shift)
		return shim_fail(err, 0, "%s: \"%s\" is too large", opt, value);
	*bytes = (int64_t)(n << shift);
	return 0;
bad:
	return shim_fail(err, 0, "%s: \"%s\" is not a size (a number, then b, k, m, g or t)",
			 opt, value);
}

int shim_parse_pids_limit(const char *value, int64_t *limit, struct shim_err *err)
{
	const char *p = value;
	uint64_t n;

	if (strcmp(value, "-1") == 0) {
		*limit = -1;
		return 0;
	}
	if (parse_u64(&p, INT64_MAX, &n) || *p)
		return shim_fail(err, 0, "--pids-limit: \"%s\" is not a count of processes, or -1 for none",
				 value);
	if (n == 0)
		return shim_fail(err, 0, "--pids-limit: 0 would let the container start no process; "
				 "-1 is for none");
	*limit = (int64_t)n;
	return 0;
}

int shim_parse_cpus(const char *value, uint64_t *quota, struct shim_err *err)
{
	const char *p = value;
	uint64_t whole, frac = 0, scale = SHIM_CPU_PERIOD_US;

	/* A million CPUs keeps the quota far below cpu.max's bound. */
	if (parse_u64(&p, 1000000, &whole))
		goto bad;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			goto bad;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return shim_fail(err, 0, "--cpus: \"%s\" has more decimals than cpu.max's "
						 "microseconds take (5)", value);
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
	}
	if (*p)
		goto bad;
	*quota = whole * SHIM_CPU_PERIOD_US + frac;
	/* The kernel's least quota is 1 ms. */
	if (*quota < 1000)
		return shim_fail(err, 0, "--cpus: \"%s\" is below 0.01, the least cpu.max takes", value);
	return 0;
bad:
	return shim_fail(err, 0, "--cpus: \"%s\" is not a number of CPUs (such as 1.5)", value);
}

int shim_parse_cpuset(const char *value, struct shim_err *err)
{
	const char *p = value;

	for (;;) {
		uint64_t first, last;

		if (parse_u64(&p, 65535, &first))
			goto bad;
		last = first;
		if (*p == '-') {
			p++;
			if (parse_u64(&p, 65535, &last))
				goto bad;
			if (last < first)
				return shim_fail(err, 0, "--cpuset-cpus: \"%s\": the range %llu-%llu is empty",
						 value, (unsigned long long)first,
						 (unsigned long long)last);
		}
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	return shim_fail(err, 0, "--cpuset-cpus: \"%s\" is not a list of CPUs (such as 0-3,6)", value);
}

int shim_parse_cgroup_parent(const char *value, struct shim_err *err)
{
	const char *p = value;

	if (value[0] != '/')
		return shim_fail(err, 0, "--cgroup-parent: \"%s\" is not an absolute path in the "
				 "cgroup2 hierarchy (such as /shim)", value);
	if (strlen(value) > 1024)
		return shim_fail(err, 0, "--cgroup-parent: longer than 1024 characters");
	while (*p == '/' && p[1]) {
		size_t n = strcspn(++p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return shim_fail(err, 0, "--cgroup-parent: \"%s\" has an empty, \".\" or \"..\" "
					 "component", value);
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)p[i] < 0x20)
				return shim_fail(err, 0, "--cgroup-parent: a control character in the path");
		p += n;
	}
	if (*p == '/' && p != value)
		return shim_fail(err, 0, "--cgroup-parent: \"%s\" ends in '/'", value);
	return 0;
}

int shim_limits_check(const struct shim_limits *l, struct shim_err *err)
{
	/* podman's least memory limit: below it the runtime itself hardly starts. */
	if (l->memory && l->memory < 6 << 20)
		return shim_fail(err, 0, "--memory: %lld bytes is below the least limit, 6m",
				 (long long)l->memory);
	if (l->memory_swap && !l->memory)
		return shim_fail(err, 0, "--memory-swap needs --memory: it limits memory and swap "
				 "together");
	if (l->memory_swap > 0 && l->memory_swap < l->memory)
		return shim_fail(err, 0, "--memory-swap: %lld bytes is below --memory (%lld): it "
				 "counts memory and swap together", (long long)l->memory_swap,
				 (long long)l->memory);
	return 0;
}

bool shim_limits_asked(const struct shim_limits *l)
{
	return l->memory || l->memory_swap || (l->pids_given && l->pids != -1) ||
	       l->cpu_quota || l->cpuset_cpus;
}

/* ---- mountinfo ------------------------------------------------------------- */

/* A field of mountinfo, its "\ooo" escapes undone; -1 when it does not fit. */
static int unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < n &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= len)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int shim_mountinfo_parse(const char *line, struct shim_mountinfo *m)
{
	const char *f[16];
	size_t n[16], nf = 0, sep = 0;
	const char *p = line;
	uint64_t id, parent;

	while (*p && nf < ARRAY_SIZE(f)) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		f[nf] = p;
		n[nf] = strcspn(p, " \n");
		p += n[nf];
		if (!sep && nf >= 6 && n[nf] == 1 && f[nf][0] == '-')
			sep = nf;
		nf++;
	}
	/* id parent dev root point options [optional...] - fstype source ... */
	if (!sep || sep + 1 >= nf)
		return -1;
	p = f[0];
	if (parse_u64(&p, UINT32_MAX, &id) || p != f[0] + n[0])
		return -1;
	p = f[1];
	if (parse_u64(&p, UINT32_MAX, &parent) || p != f[1] + n[1])
		return -1;
	m->id = (unsigned int)id;
	m->parent = (unsigned int)parent;
	if (unescape(f[3], n[3], m->root, sizeof(m->root)) ||
	    unescape(f[4], n[4], m->point, sizeof(m->point)) ||
	    unescape(f[sep + 1], n[sep + 1], m->fstype, sizeof(m->fstype)))
		return -1;
	return 0;
}

/* The next line of text, NUL-terminated in buf; NULL at the end. */
static const char *next_line(const char **text, char *buf, size_t len)
{
	size_t n;

	if (!**text)
		return NULL;
	n = strcspn(*text, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), *text);
	*text += n + ((*text)[n] == '\n');
	return buf;
}

int shim_cgroup2_mount_of(const char *mountinfo, char *point, size_t len, struct shim_err *err)
{
	struct shim_mountinfo m;
	char line[2 * PATH_MAX + 256];
	const char *text = mountinfo;

	while (next_line(&text, line, sizeof(line)))
		if (shim_mountinfo_parse(line, &m) == 0 && strcmp(m.fstype, "cgroup2") == 0) {
			if (strlen(m.point) >= len)
				return shim_fail(err, ENAMETOOLONG, "cgroup2 mount point %s", m.point);
			strcpy(point, m.point);
			return 0;
		}
	return shim_fail(err, ENOENT, "no cgroup2 hierarchy is mounted (a host with cgroup v1 only)");
}

int shim_cgroup2_path_of(const char *proc_cgroup, char *path, size_t len, struct shim_err *err)
{
	char line[PATH_MAX + 64];
	const char *text = proc_cgroup;

	while (next_line(&text, line, sizeof(line)))
		if (strncmp(line, "0::/", 4) == 0) {
			if (strlen(line + 3) >= len)
				return shim_fail(err, ENAMETOOLONG, "cgroup v2 path %s", line + 3);
			strcpy(path, line + 3);
			return 0;
		}
	return shim_fail(err, ENOENT, "no cgroup v2 path (\"0::/...\") in /proc/PID/cgroup");
}

static bool path_within(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return path[0] == '/';
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * Whether a mount stacked on the mount `id` at its own mount point hides
 * it: no path reaches it then, only an unmount of what covers it, which
 * needs CAP_SYS_ADMIN over the container's mount namespace.
 */
static bool covered(const char *mountinfo, unsigned int id, const char *point)
{
	struct shim_mountinfo m;
	char line[2 * PATH_MAX + 256];
	const char *text = mountinfo;

	while (next_line(&text, line, sizeof(line)))
		if (shim_mountinfo_parse(line, &m) == 0 && m.parent == id && strcmp(m.point, point) == 0)
			return true;
	return false;
}

int shim_cgroup_mounts_confined(const char *mountinfo, const char *below, const char *own,
				struct shim_err *err)
{
	struct shim_mountinfo m;
	char line[2 * PATH_MAX + 256];
	const char *text = mountinfo;

	while (next_line(&text, line, sizeof(line))) {
		if (shim_mountinfo_parse(line, &m))
			return shim_fail(err, EINVAL, "the container's mountinfo: a line it cannot read: "
					 "\"%.200s\"", line);
		if (strcmp(m.fstype, "cgroup2") == 0 && path_within(m.point, below) &&
		    !path_within(m.root, own) && !covered(mountinfo, m.id, m.point))
			return shim_fail(err, EPERM, "the container's mount %s (cgroup2, root %s) reaches "
					 "cgroups outside its own (%s): a program delegated there could "
					 "attach to them", m.point, m.root, own);
	}
	return 0;
}

/* ---- the container's cgroup --------------------------------------------- */

static int read_at(int dirfd, const char *file, char **text, struct shim_err *err)
{
	cleanup_fd int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	size_t len;

	if (fd < 0)
		return shim_fail(err, errno, "open %s", file);
	return shim_read_all(fd, 1 << 20, text, &len, file, err);
}

static int read_path(const char *path, char **text, struct shim_err *err)
{
	return read_at(AT_FDCWD, path, text, err);
}

static int write_at(int dirfd, const char *dir, const char *file, const char *value,
		    struct shim_err *err)
{
	cleanup_fd int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);

	if (fd < 0 || write(fd, value, len) != (ssize_t)len)
		return shim_fail(err, errno, "write \"%s\" to %s/%s", value, dir, file);
	return 0;
}

/* A process's start time, field 22 of /proc/PID/stat: 0 when it is gone. */
static unsigned long long start_time(pid_t pid)
{
	cleanup_free char *text = NULL;
	struct shim_err ignore = { 0 };
	unsigned long long t = 0;
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_path(path, &text, &ignore))
		return 0;
	p = strrchr(text, ')');
	/* After the name: state and 18 more fields, then the start time. */
	for (int i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%llu", &t);
	return t;
}

/* End what is in the cgroup below dirfd, wait until it is empty, remove it. */
static int kill_and_remove(int dirfd, const char *name, struct shim_err *err)
{
	cleanup_fd int cg = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cleanup_fd int events = -1;

	if (cg < 0)
		return shim_fail(err, errno, "open %s", name);
	if (write_at(cg, name, "cgroup.kill", "1", err))
		return -1;
	events = openat(cg, "cgroup.events", O_RDONLY | O_CLOEXEC);
	if (events < 0)
		return shim_fail(err, errno, "open %s/cgroup.events", name);
	/* cgroup.events changes (POLLPRI) when "populated" does: 10 s for the last exits. */
	for (int tries = 0; tries < 100; tries++) {
		struct pollfd pfd = { .fd = events, .events = POLLPRI };
		char buf[256];
		ssize_t n = pread(events, buf, sizeof(buf) - 1, 0);

		if (n < 0)
			return shim_fail(err, errno, "read %s/cgroup.events", name);
		buf[n] = '\0';
		if (strstr(buf, "populated 0"))
			break;
		poll(&pfd, 1, 100);
	}
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		return shim_fail(err, errno, "rmdir %s", name);
	return 0;
}

/* The inode of our PID namespace: PIDs of the names are compared within it only. */
static unsigned long long pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/*
 * Cgroups of shims that were killed before they removed theirs: a name
 * whose PID, in our PID namespace, is gone or started at another time.
 */
static void remove_stale(int parent_fd, const char *parent, const struct shim_voice *v)
{
	cleanup_fd int fd = dup(parent_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d)
		return;
	fd = -1;	/* the DIR has it */
	while ((de = readdir(d)) != NULL) {
		struct shim_err err = { 0 };
		unsigned long long t, ns;
		char tail;
		int pid;

		if (sscanf(de->d_name, "shim-%d-%llu-%llu%c", &pid, &t, &ns, &tail) != 3 || pid <= 0 ||
		    ns != pid_ns() || start_time(pid) == t)
			continue;
		if (kill_and_remove(parent_fd, de->d_name, &err))
			shim_warn(v, "a stale cgroup %s/%s: %s", parent, de->d_name, err.msg);
		else
			shim_note(v, "removed %s/%s, left by a shim that was killed", parent,
				  de->d_name);
	}
	closedir(d);
}

/* Whether systemd delegated path (or a cgroup above it) to someone: its xattr. */
static bool systemd_delegated(const char *mnt, const char *path)
{
	char p[PATH_MAX], val[8];

	snprintf(p, sizeof(p), "%s%s", mnt, strcmp(path, "/") ? path : "");
	for (;;) {
		char *slash;

		if (getxattr(p, "trusted.delegate", val, sizeof(val)) > 0 ||
		    getxattr(p, "user.delegate", val, sizeof(val)) > 0)
			return true;
		slash = strrchr(p, '/');
		if (!slash || (size_t)(slash - p) < strlen(mnt))
			return false;
		*slash = '\0';
	}
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

struct controller_need {
	const char *name;
	const char *option;	/* the option that needs it; NULL: a default */
	const char *without;	/* what a default without it misses */
};

/*
 * Make dir (below mnt) and enable the controllers the limits need in the
 * subtree of every level from top down to it.
 */
static int enable_controllers(const char *mnt, const char *top, const char *dir,
			      const struct controller_need *need, size_t n_need, bool *on,
			      const struct shim_voice *v, struct shim_err *err)
{
	char path[PATH_MAX];
	size_t level = strcmp(top, "/") == 0 ? 0 : strlen(top);

	for (;;) {
		cleanup_free char *avail = NULL;
		cleanup_free char *enabled = NULL;
		cleanup_fd int fd = -1;

		snprintf(path, sizeof(path), "%s%.*s", mnt, (int)level, dir);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return shim_fail(err, errno, "mkdir %s", path);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return shim_fail(err, errno, "open %s", path);
		if (read_at(fd, "cgroup.controllers", &avail, err) ||
		    read_at(fd, "cgroup.subtree_control", &enabled, err))
			return shim_fail_wrap(err, "%s", path);
		for (size_t i = 0; i < n_need; i++) {
			char plus[32];

			if (!on[i])
				continue;
			if (!has_word(avail, need[i].name)) {
				on[i] = false;
				if (need[i].option)
					return shim_fail(err, EOPNOTSUPP, "%s: the %s controller is not in "
							 "cgroup v2 at %s (a hybrid host keeps it in "
							 "v1; limits need cgroup v2)", need[i].option,
							 need[i].name, path);
				shim_note(v, "the %s controller is not in cgroup v2 at %s: %s",
					  need[i].name, path, need[i].without);
				continue;
			}
			if (has_word(enabled, need[i].name))
				continue;
			snprintf(plus, sizeof(plus), "+%s", need[i].name);
			if (write_at(fd, path, "cgroup.subtree_control", plus, err)) {
				if (err->errnum == EBUSY)
					shim_fail_note(err, "%s holds processes itself: cgroup v2 "
						       "enables no controller for its children then",
						       path);
				return -1;
			}
		}
		if (dir[level] == '\0')
			return 0;
		level += 1 + strcspn(dir + level + 1, "/");
		if (level == 1 && dir[0] == '/' && dir[1] == '\0')
			return 0;
	}
}

static int set_limits(const struct shim_limits *l, struct shim_cgroup *cg, struct shim_err *err)
{
	char value[64];

	if (l->memory) {
		snprintf(value, sizeof(value), "%lld", (long long)l->memory);
		if (write_at(cg->fd, cg->path, "memory.max", value, err))
			return shim_fail_wrap(err, "--memory");
	}
	if (l->memory_swap) {
		if (l->memory_swap < 0)
			strcpy(value, "max");
		else
			snprintf(value, sizeof(value), "%lld", (long long)(l->memory_swap - l->memory));
		if (write_at(cg->fd, cg->path, "memory.swap.max", value, err)) {
			if (err->errnum == ENOENT)
				shim_fail_note(err, "a kernel without CONFIG_SWAP has no swap to limit");
			return shim_fail_wrap(err, "--memory-swap");
		}
	}
	if (l->pids != -1) {
		snprintf(value, sizeof(value), "%lld", (long long)l->pids);
		if (write_at(cg->fd, cg->path, "pids.max", value, err))
			return shim_fail_wrap(err, "--pids-limit");
	}
	if (l->cpu_quota) {
		snprintf(value, sizeof(value), "%llu %d", (unsigned long long)l->cpu_quota,
			 SHIM_CPU_PERIOD_US);
		if (write_at(cg->fd, cg->path, "cpu.max", value, err)) {
			if (err->errnum == ENOENT)
				shim_fail_note(err, "cpu.max needs a kernel with CONFIG_CFS_BANDWIDTH");
			return shim_fail_wrap(err, "--cpus");
		}
	}
	if (l->cpuset_cpus && write_at(cg->fd, cg->path, "cpuset.cpus", l->cpuset_cpus, err))
		return shim_fail_wrap(err, "--cpuset-cpus");
	return 0;
}

/* Whether the cgroup.procs file at path lists the shim alone. */
static bool only_self(const char *path)
{
	cleanup_free char *text = NULL;
	struct shim_err ignore = { 0 };
	char self[32];

	if (read_path(path, &text, &ignore))
		return false;
	snprintf(self, sizeof(self), "%d\n", (int)getpid());
	return strcmp(text, self) == 0;
}

/*
 * Where the container's cgroup goes: --cgroup-parent; as root without
 * systemd the default parent; else the shim's own cgroup where it is
 * delegated, the shim moving into a leaf of it ("supervisor") so that
 * controllers can be enabled for its children.  0 with *parent; 1 when
 * the container gets no cgroup (why_none says why).
 */
static int choose_parent(const struct shim_config *cfg, const char *mnt, struct shim_cgroup *cg,
			 char *parent, size_t len, char *top, struct shim_err *err)
{
	bool systemd = access("/run/systemd/system", F_OK) == 0;
	bool root = geteuid() == 0;
	cleanup_free char *self = NULL;
	char own[PATH_MAX], leaf[PATH_MAX + 32];

	if (cfg->limits.cgroup_parent) {
		if (systemd && !systemd_delegated(mnt, cfg->limits.cgroup_parent))
			return shim_fail(err, EPERM, "--cgroup-parent %s: systemd manages that tree "
					 "and delegated none of it; run the shim in a delegated unit "
					 "(systemd-run --scope -p Delegate=yes ...) and name a parent "
					 "inside it", cfg->limits.cgroup_parent);
		snprintf(parent, len, "%s", cfg->limits.cgroup_parent);
		snprintf(top, PATH_MAX, "%s", systemd ? cfg->limits.cgroup_parent : "/");
		return 0;
	}
	if (root && !systemd) {
		snprintf(parent, len, "%s", SHIM_CGROUP_DEFAULT_PARENT);
		strcpy(top, "/");
		return 0;
	}
	if (read_path("/proc/self/cgroup", &self, err) ||
	    shim_cgroup2_path_of(self, own, sizeof(own), err))
		return -1;
	snprintf(leaf, sizeof(leaf), "%s%s/cgroup.procs", mnt, strcmp(own, "/") ? own : "");
	if (root ? !systemd_delegated(mnt, own) : access(leaf, W_OK) < 0) {
		snprintf(cg->why_none, sizeof(cg->why_none),
			 "%s: the shim's cgroup %s is not delegated to it; run it in a delegated "
			 "unit: systemd-run%s --scope -p Delegate=yes shim run ...",
			 root ? "systemd manages the cgroup tree" : "without root", own,
			 root ? "" : " --user");
		return 1;
	}
	if (!only_self(leaf)) {
		snprintf(cg->why_none, sizeof(cg->why_none),
			 "the shim's cgroup %s holds other processes (a shell?), so no controller "
			 "can be enabled below it; run the shim in a unit of its own: "
			 "systemd-run%s --scope -p Delegate=yes shim run ...", own, root ? "" : " --user");
		return 1;
	}
	/* The supervisor's own leaf: its former cgroup may then enable controllers. */
	snprintf(leaf, sizeof(leaf), "%s%s/supervisor", mnt, strcmp(own, "/") ? own : "");
	if (mkdir(leaf, 0755) < 0 && errno != EEXIST)
		return shim_fail(err, errno, "mkdir %s", leaf);
	strcat(leaf, "/cgroup.procs");
	if (write_at(AT_FDCWD, leaf, "", "0", err))
		return -1;
	snprintf(parent, len, "%s", own);
	snprintf(top, PATH_MAX, "%s", own);
	return 0;
}

int shim_cgroup_prepare_parent(const char *mnt, const char *top, const char *parent,
			       const struct shim_limits *l, struct shim_limits *applied,
			       bool *memory, const struct shim_voice *v, struct shim_err *err)
{
	struct controller_need need[] = {
		{ "pids", l->pids_given ? "--pids-limit" : NULL, "no default --pids-limit" },
		/* On for its OOM count alone when --memory is not given. */
		{ "memory", l->memory ? "--memory" : NULL, "OOM kills are not counted" },
		{ "cpu", "--cpus", NULL },
		{ "cpuset", "--cpuset-cpus", NULL },
	};
	bool on[ARRAY_SIZE(need)] = {
		l->pids != -1, true, l->cpu_quota != 0, l->cpuset_cpus != NULL,
	};

	if (enable_controllers(mnt, top, parent, need, ARRAY_SIZE(need), on, v, err))
		return -1;
	*applied = *l;
	if (!on[0])
		applied->pids = -1;
	*memory = on[1];
	return 0;
}

int shim_cgroup_create(const struct shim_config *cfg, struct shim_cgroup *cg,
		       const struct shim_voice *v, struct shim_err *err)
{
	cleanup_free char *mountinfo = NULL;
	char mnt[PATH_MAX], parent[PATH_MAX], top[PATH_MAX], dir[PATH_MAX];
	struct shim_limits applied;
	int r;

	if (cfg->limits.no_cgroup) {
		strcpy(cg->why_none, "--cgroups=disabled");
		return 0;
	}
	if (read_path("/proc/self/mountinfo", &mountinfo, err))
		return -1;
	if (shim_cgroup2_mount_of(mountinfo, mnt, sizeof(mnt), err)) {
		snprintf(cg->why_none, sizeof(cg->why_none), "%s", err->msg);
		memset(err, 0, sizeof(*err));
		return 0;
	}
	r = choose_parent(cfg, mnt, cg, parent, sizeof(parent), top, err);
	if (r)
		return r < 0 ? -1 : 0;
	if (shim_cgroup_prepare_parent(mnt, top, parent, &cfg->limits, &applied, &cg->memory, v, err))
		return -1;
	snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(parent, "/") ? parent : "");
	cg->parent_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parent_fd < 0)
		return shim_fail(err, errno, "open %s", dir);
	remove_stale(cg->parent_fd, dir, v);
	snprintf(cg->name, sizeof(cg->name), "shim-%d-%llu-%llu", (int)getpid(), start_time(getpid()),
		 pid_ns());
	snprintf(cg->path, sizeof(cg->path), "%s/%s", dir, cg->name);
	if (mkdirat(cg->parent_fd, cg->name, 0755) < 0)
		return shim_fail(err, errno, "mkdir %s", cg->path);
	cg->fd = openat(cg->parent_fd, cg->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0)
		return shim_fail(err, errno, "open %s", cg->path);
	if (set_limits(&applied, cg, err))
		return -1;
	shim_note(v, "the container's cgroup: %s", cg->path);
	return 0;
}

int shim_cgroup_enter(const struct shim_cgroup *cg, pid_t pid, struct shim_err *err)
{
	char value[32];

	snprintf(value, sizeof(value), "%d", (int)pid);
	return write_at(cg->fd, cg->path, "cgroup.procs", value, err);
}

uint64_t shim_cgroup_oom_kills(const struct shim_cgroup *cg)
{
	cleanup_free char *text = NULL;
	struct shim_err ignore = { 0 };
	unsigned long long n = 0;
	const char *p;

	if (cg->fd < 0 || !cg->memory || read_at(cg->fd, "memory.events", &text, &ignore))
		return 0;
	p = strstr(text, "oom_kill ");
	if (p)
		sscanf(p + 9, "%llu", &n);
	return n;
}

void shim_cgroup_remove(struct shim_cgroup *cg, const struct shim_voice *v)
{
	struct shim_err err = { 0 };

	if (cg->fd >= 0) {
		shim_closep(&cg->fd);
		if (kill_and_remove(cg->parent_fd, cg->name, &err))
			shim_warn(v, "the container's cgroup %s: %s", cg->path, err.msg);
	}
	shim_closep(&cg->parent_fd);
}

bool shim_delegates_cgroup_types(const uint64_t mask[SHIM_DELEG_NR])
{
	static const unsigned int progs[] = {
		BPF_PROG_TYPE_CGROUP_SKB, BPF_PROG_TYPE_CGROUP_SOCK, BPF_PROG_TYPE_SOCK_OPS,
		BPF_PROG_TYPE_CGROUP_DEVICE, BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
		BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_PROG_TYPE_CGROUP_SOCKOPT,
	};
	static const unsigned int attachs[] = {
		BPF_CGROUP_INET_INGRESS, BPF_CGROUP_INET_EGRESS, BPF_CGROUP_INET_SOCK_CREATE,
		BPF_CGROUP_SOCK_OPS, BPF_CGROUP_DEVICE, BPF_CGROUP_INET4_BIND,
		BPF_CGROUP_INET6_BIND, BPF_CGROUP_INET4_CONNECT, BPF_CGROUP_INET6_CONNECT,
		BPF_CGROUP_INET4_POST_BIND, BPF_CGROUP_INET6_POST_BIND, BPF_CGROUP_UDP4_SENDMSG,
		BPF_CGROUP_UDP6_SENDMSG, BPF_CGROUP_SYSCTL, BPF_CGROUP_UDP4_RECVMSG,
		BPF_CGROUP_UDP6_RECVMSG, BPF_CGROUP_GETSOCKOPT, BPF_CGROUP_SETSOCKOPT,
		BPF_CGROUP_INET4_GETPEERNAME, BPF_CGROUP_INET6_GETPEERNAME,
		BPF_CGROUP_INET4_GETSOCKNAME, BPF_CGROUP_INET6_GETSOCKNAME,
		BPF_CGROUP_INET_SOCK_RELEASE, BPF_LSM_CGROUP,
	};

	for (size_t i = 0; i < ARRAY_SIZE(progs); i++)
		if (mask[SHIM_DELEG_PROGS] & (1ULL << progs[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(attachs); i++)
		if (mask[SHIM_DELEG_ATTACHS] & (1ULL << attachs[i]))
			return true;
	return false;
}
