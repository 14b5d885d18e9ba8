// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one walk below a container's root (walk.c), used by the rootfs
 * setup and by the BPF FS mount point of shim run and of the OCI hook:
 * attacked with absolute and climbing symlinks and "..".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "testutil.h"

#include "walk.h"

/* A fake container root with traps, and an outside directory they aim at. */
struct tree {
	char base[64];
	char root[128];
	char outside[128];
	int rootfd;
};

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char p[256];

	snprintf(t->base, sizeof(t->base), "/tmp/shim-walk-XXXXXX");
	if (!t || !mkdtemp(t->base))
		return -1;
	snprintf(t->root, sizeof(t->root), "%s/root", t->base);
	snprintf(t->outside, sizeof(t->outside), "%s/outside", t->base);
	mkdir(t->root, 0755);
	mkdir(t->outside, 0755);
	snprintf(p, sizeof(p), "%s/sys", t->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/fs", t->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/fs/bpf", t->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/abs", t->root);		/* absolute: outside */
	if (symlink(t->outside, p))
		return -1;
	snprintf(p, sizeof(p), "%s/up", t->root);		/* relative, climbs out */
	if (symlink("../outside", p))
		return -1;
	snprintf(p, sizeof(p), "%s/rel", t->root);		/* relative, stays in */
	if (symlink("sys/fs", p))
		return -1;
	snprintf(p, sizeof(p), "%s/file", t->root);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	t->rootfd = open(t->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*state = t;
	return t->rootfd < 0 ? -1 : 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	close(t->rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->base);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

/* The path an O_PATH fd stands for. */
static void fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	assert_true(n > 0);
	buf[n] = '\0';
}

static void test_walk(void **state)
{
	struct tree *t = *state;
	struct shim_err err = { 0 };
	char got[PATH_MAX], want[PATH_MAX];
	struct stat st;
	int fd;

	fd = shim_walk_in_root(t->rootfd, "/sys/fs/bpf", SHIM_WALK_MKDIR, &err);
	assert_true(fd >= 0);
	fd_path(fd, got, sizeof(got));
	snprintf(want, sizeof(want), "%s/sys/fs/bpf", t->root);
	assert_string_equal(got, want);
	close(fd);

	/* A relative symlink that stays inside is followed. */
	fd = shim_walk_in_root(t->rootfd, "/rel/bpf", SHIM_WALK_MKDIR, &err);
	assert_true(fd >= 0);
	fd_path(fd, got, sizeof(got));
	assert_string_equal(got, want);
	close(fd);

	/* Missing directories are made only when asked, inside the root. */
	assert_int_equal(shim_walk_in_root(t->rootfd, "/run/bpf", 0, &err), -1);
	assert_int_equal(err.errnum, ENOENT);
	assert_contains(err.msg, "open /run: No such file or directory");
	fd = shim_walk_in_root(t->rootfd, "//run//bpf/", SHIM_WALK_MKDIR, &err);
	assert_true(fd >= 0);
	fd_path(fd, got, sizeof(got));
	snprintf(want, sizeof(want), "%s/run/bpf", t->root);
	assert_string_equal(got, want);
	close(fd);
	assert_int_equal(stat(want, &st), 0);
	assert_true(S_ISDIR(st.st_mode));

	/* Without SHIM_WALK_MKDIR the last component is not followed. */
	fd = shim_walk_in_root(t->rootfd, "/abs", 0, &err);
	assert_true(fd >= 0);
	assert_int_equal(fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(st.st_mode));
	close(fd);
}

/*
 * Symlinks the container's root may plant, absolute or climbing with
 * "..", are resolved as if the root were "/": whatever is made or opened
 * is below the root, never in the outside directory they name.
 */
static void walk_inside(const struct tree *t, const char *path)
{
	struct shim_err err = { 0 };
	char got[PATH_MAX];
	int fd = shim_walk_in_root(t->rootfd, path, SHIM_WALK_MKDIR, &err);

	if (fd < 0)
		fail_msg("%s: %s", path, err.msg);
	fd_path(fd, got, sizeof(got));
	close(fd);
	if (strncmp(got, t->root, strlen(t->root)) != 0 || got[strlen(t->root)] != '/')
		fail_msg("%s resolved to %s, outside %s", path, got, t->root);
}

static void test_walk_escapes(void **state)
{
	static const char *const climbs[] = { "/up", "/up/bpf", "/up/new", "/../../bpf" };
	struct tree *t = *state;
	struct shim_err err = { 0 };
	char p[256];
	struct stat st;

	/* "../outside" from the root is the root's own outside. */
	snprintf(p, sizeof(p), "%s/outside", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	for (size_t i = 0; i < ARRAY_SIZE(climbs); i++)
		walk_inside(t, climbs[i]);
	/*
	 * An absolute symlink names a path of the root: missing there, the
	 * walk fails (a symlink's target is never made); present, it is used.
	 */
	assert_int_equal(shim_walk_in_root(t->rootfd, "/abs/bpf", SHIM_WALK_MKDIR, &err), -1);
	assert_int_equal(err.errnum, ENOENT);
	snprintf(p, sizeof(p), "mkdir -p %s%s", t->root, t->outside);
	assert_int_equal(system(p), 0);
	walk_inside(t, "/abs/bpf");
	walk_inside(t, "/abs/new/dir");
	/* Nothing was made outside. */
	snprintf(p, sizeof(p), "%s/new", t->outside);
	assert_int_equal(stat(p, &st), -1);
	snprintf(p, sizeof(p), "%s/bpf", t->outside);
	assert_int_equal(stat(p, &st), -1);
	/* A file on the way is not a directory. */
	assert_int_equal(shim_walk_in_root(t->rootfd, "/file/bpf", SHIM_WALK_MKDIR, &err), -1);
	assert_contains(err.msg, "Not a directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walk, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_walk_escapes, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests_name("walk", tests, NULL, NULL);
}
