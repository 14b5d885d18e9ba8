// SPDX-License-Identifier: GPL-2.0-or-later
/* The ID block allocator: its state file, full ranges, stale and corrupt entries, races. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "file.h"
#include "idblock.h"

struct fixture {
	char dir[64];
	char subuid[96];
	char subgid[96];
	char state[96];
	struct shim_idblock_paths p;
};

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A temporary directory with subuid/subgid giving "containers" blocks blocks of 10 IDs. */
static struct fixture *fixture(unsigned int blocks)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char line[128];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_idblock.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->subuid, sizeof(f->subuid), "%s/subuid", f->dir);
	snprintf(f->subgid, sizeof(f->subgid), "%s/subgid", f->dir);
	snprintf(f->state, sizeof(f->state), "%s/state", f->dir);
	snprintf(line, sizeof(line), "alice:100000:65536\ncontainers:200000:%u\n", blocks * 10);
	write_text(f->subuid, line);
	snprintf(line, sizeof(line), "containers:300000:%u\n", blocks * 10 + 5);
	write_text(f->subgid, line);
	f->p = (struct shim_idblock_paths){ f->subuid, f->subgid, "containers", f->state };
	return f;
}

static void fixture_free(struct fixture *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
}

static char *state_text(const struct fixture *f)
{
	char path[128], *buf = NULL;
	struct shim_err err = { 0 };
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/idblocks", f->state);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(shim_read_all(fd, 1 << 20, &buf, &len, path, &err), 0);
	close(fd);
	return buf;
}

static void test_parse_format_roundtrip(void **state)
{
	const char *text = SHIM_IDBLOCK_HEADER "\n"
			   "200000 300000 10 42 12345 /var/lib/a%20b%25c\n"
			   "200010 300010 10 43 0 /r\n";
	struct shim_idblock_table t;
	struct shim_err err = { 0 };
	char *out;

	(void)state;
	assert_int_equal(shim_idblock_parse(text, strlen(text), &t, &err), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.e[0].rootfs, "/var/lib/a b%c");
	assert_int_equal(t.e[0].start_time, 12345);
	out = shim_idblock_format(&t);
	assert_string_equal(out, text);
	free(out);
	shim_idblock_table_free(&t);
}

static void test_parse_corrupt(void **state)
{
	static const char *const bad[] = {
		"garbage\n",
		SHIM_IDBLOCK_HEADER,						/* no newline */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 5 /r",				/* last line cut */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 /r\n",				/* a field missing */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 5 /r x\n",			/* a space in the path */
		SHIM_IDBLOCK_HEADER "\n1 2 0 4 5 /r\n",				/* no IDs */
		SHIM_IDBLOCK_HEADER "\n4294967290 2 10 4 5 /r\n",		/* past 4294967294 */
		SHIM_IDBLOCK_HEADER "\n1 2 3 0 5 /r\n",				/* pid 0 */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4194305 5 /r\n",			/* pid past PID_MAX_LIMIT */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 5 r\n",				/* relative */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 5 /%00\n",			/* NUL escaped */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 5 /%4\n",			/* escape cut */
		SHIM_IDBLOCK_HEADER "\n01 2 3 4 5 /r\n",			/* leading zero */
		SHIM_IDBLOCK_HEADER "\n-1 2 3 4 5 /r\n",
		SHIM_IDBLOCK_HEADER "\n1 2 10 4 5 /r\n5 100 10 6 7 /s\n",	/* uids overlap */
		SHIM_IDBLOCK_HEADER "\n1 2 10 4 5 /r\n50 5 10 6 7 /s\n",	/* gids overlap */
		SHIM_IDBLOCK_HEADER "\n1 2 3 4 99999999999999999999 /r\n",	/* start time overflows */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct shim_idblock_table t = { (void *)1, 7 };
		struct shim_err err = { 0 };

		if (shim_idblock_parse(bad[i], strlen(bad[i]), &t, &err) != -1)
			fail_msg("accepted: %s", bad[i]);
		assert_null(t.e);
		assert_int_equal(t.n, 0);
		assert_int_equal(err.errnum, EINVAL);
	}
}

static void test_two_disjoint_then_release(void **state)
{
	struct fixture *f = fixture(4);
	struct shim_idblock a, b, c;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/a", getpid(), &a, &err), 0);
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/b", getpid(), &b, &err), 0);
	assert_int_equal(a.uid, 200000);
	assert_int_equal(a.gid, 300000);
	assert_int_equal(b.uid, 200010);
	assert_int_equal(b.gid, 300010);
	assert_int_equal(shim_idblock_release(&f->p, &a, &err), 0);
	/* The block given back is the first free one again. */
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/c", getpid(), &c, &err), 0);
	assert_int_equal(c.uid, 200000);
	fixture_free(f);
}

static void test_full_range(void **state)
{
	struct fixture *f = fixture(3);
	struct shim_idblock b;
	struct shim_err err = { 0 };

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/r", getpid(), &b, &err), 0);
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/r", getpid(), &b, &err), -1);
	assert_int_equal(err.errnum, ENOSPC);
	assert_contains(err.msg, "every ID block is taken: 3 blocks of 10 IDs");
	assert_contains(err.msg, "shim ps");
	assert_contains(err.msg, "--userns auto:size=N");
	/* Smaller blocks do not fit either: the range is taken to its end. */
	assert_int_equal(shim_idblock_acquire(&f->p, 5, 0, "/r", getpid(), &b, &err), -1);
	/* No line for the user: says which files to fix. */
	f->p.user = "nobody-here";
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/r", getpid(), &b, &err), -1);
	assert_contains(err.msg, "nobody-here");
	fixture_free(f);
}

static void test_rootfs_owner_block(void **state)
{
	struct fixture *f = fixture(4);
	struct shim_idblock a, b;
	struct shim_err err = { 0 };

	(void)state;
	/* A rootfs of host uid 200025 runs with the block 200020-200029. */
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 200025, "/owned", getpid(), &a, &err), 0);
	assert_int_equal(a.uid, 200020);
	assert_int_equal(a.gid, 300020);
	/* A second container on it is refused, naming the first. */
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 200020, "/other", getpid(), &b, &err), -1);
	assert_int_equal(err.errnum, EBUSY);
	assert_contains(err.msg, "/owned");
	/* A root's rootfs gets another block. */
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/root-owned", getpid(), &b, &err), 0);
	assert_int_equal(b.uid, 200000);
	fixture_free(f);
}

static void test_stale_entries(void **state)
{
	struct fixture *f = fixture(2);
	struct shim_idblock b;
	struct shim_err err = { 0 };
	char text[512], path[128], *now;
	pid_t gone = fork();

	(void)state;
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, NULL, 0), gone);
	assert_int_equal(mkdir(f->state, 0700), 0);
	/* A shim that is gone, and a live pid whose start time is not the recorded one. */
	snprintf(text, sizeof(text), "%s\n200000 300000 10 %d 1 /gone\n200010 300010 10 %d 1 /reused\n",
		 SHIM_IDBLOCK_HEADER, (int)gone, (int)getpid());
	snprintf(path, sizeof(path), "%s/idblocks", f->state);
	write_text(path, text);
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/new", getpid(), &b, &err), 0);
	assert_int_equal(b.uid, 200000);
	now = state_text(f);
	assert_null(strstr(now, "/gone"));
	assert_null(strstr(now, "/reused"));
	assert_non_null(strstr(now, "/new"));
	free(now);
	assert_true(shim_idblock_alive(&b));
	fixture_free(f);
}

static void test_corrupt_state_refused(void **state)
{
	struct fixture *f = fixture(2);
	struct shim_idblock b;
	struct shim_err err = { 0 };
	char path[128], *now;

	(void)state;
	assert_int_equal(mkdir(f->state, 0700), 0);
	snprintf(path, sizeof(path), "%s/idblocks", f->state);
	write_text(path, SHIM_IDBLOCK_HEADER "\n200000 300000 10 1 zz /r\n");
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/new", getpid(), &b, &err), -1);
	assert_contains(err.msg, "corrupt, not used");
	assert_contains(err.msg, "line 2");
	/* Left as it is: nothing is written over it. */
	now = state_text(f);
	assert_string_equal(now, SHIM_IDBLOCK_HEADER "\n200000 300000 10 1 zz /r\n");
	free(now);
	fixture_free(f);
}

static void test_state_dir_of_another(void **state)
{
	struct fixture *f = fixture(2);
	struct shim_idblock b;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(mkdir(f->state, 0777), 0);
	assert_int_equal(chmod(f->state, 0777), 0);
	assert_int_equal(shim_idblock_acquire(&f->p, 10, 0, "/new", getpid(), &b, &err), -1);
	assert_contains(err.msg, "only it may write");
	fixture_free(f);
}

/* 8 processes at once, each holding its block until all have one: all differ. */
static void test_concurrent(void **state)
{
	enum { N = 8 };
	struct fixture *f = fixture(N);
	int ready[2], done[2];
	pid_t kids[N];
	uint32_t uids[N];
	char c = 0;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(done), 0);
	for (int i = 0; i < N; i++) {
		kids[i] = fork();
		assert_true(kids[i] >= 0);
		if (kids[i] == 0) {
			struct shim_idblock b;
			struct shim_err err = { 0 };

			close(ready[0]);
			close(done[1]);
			if (shim_idblock_acquire(&f->p, 10, 0, "/r", getpid(), &b, &err)) {
				fprintf(stderr, "%s\n", err.msg);
				_exit(1);
			}
			if (write(ready[1], &b.uid, sizeof(b.uid)) != sizeof(b.uid))
				_exit(1);
			/* Hold it until the parent read every block. */
			if (read(done[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
	}
	close(ready[1]);
	close(done[0]);
	for (int i = 0; i < N; i++)
		assert_int_equal(read(ready[0], &uids[i], sizeof(uids[i])), sizeof(uids[i]));
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++)
			assert_int_not_equal(uids[i], uids[j]);
	close(done[1]);
	for (int i = 0; i < N; i++) {
		int st;

		assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	close(ready[0]);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_format_roundtrip),
		cmocka_unit_test(test_parse_corrupt),
		cmocka_unit_test(test_two_disjoint_then_release),
		cmocka_unit_test(test_full_range),
		cmocka_unit_test(test_rootfs_owner_block),
		cmocka_unit_test(test_stale_entries),
		cmocka_unit_test(test_corrupt_state_refused),
		cmocka_unit_test(test_state_dir_of_another),
		cmocka_unit_test(test_concurrent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
