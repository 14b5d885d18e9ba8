// SPDX-License-Identifier: GPL-2.0-or-later
/* --events JSON lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "events.h"

static void test_thread_exit_format(void **state)
{
	char buf[256];

	(void)state;
	shim_event_format_thread_exit(buf, sizeof(buf), 1234, 1200, 1700000000.5);
	assert_string_equal(buf, "{\"event\":\"thread-exit\",\"tid\":1234,\"pid\":1200,\"time\":1700000000.500000}\n");
}

static void test_stream(void **state)
{
	char path[] = "/tmp/shim-events-XXXXXX", buf[1024];
	struct shim_err err = { 0 };
	struct shim_thread_exit one = { .tid = 11, .pid = 10 };
	int fd = mkstemp(path), ro;
	ssize_t n;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(shim_event_container_start(fd, 10, &err), 0);
	assert_int_equal(shim_event_thread_exits(fd, &one, 1, &err), 0);
	assert_int_equal(shim_event_note(fd, "x", "say \"hi\"\n", &err), 0);
	assert_int_equal(shim_event_container_exit(fd, 10, 137, 2, &err), 0);
	/* No --events: nothing to write, nothing fails. */
	assert_int_equal(shim_event_container_exit(-1, 10, 137, 0, &err), 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_contains(buf, "{\"event\":\"container-start\",\"pid\":10,\"time\":");
	assert_contains(buf, "{\"event\":\"thread-exit\",\"tid\":11,\"pid\":10,\"time\":");
	assert_contains(buf, "\"detail\":\"say \\\"hi\\\" \"");
	assert_contains(buf, "{\"event\":\"container-exit\",\"pid\":10,\"status\":137,\"oom_kill\":2,\"time\":");
	close(fd);
	unlink(path);

	/* A write that fails is reported with the event and the cause, not swallowed. */
	ro = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(ro >= 0);
	assert_int_equal(shim_event_thread_exits(ro, &one, 1, &err), -1);
	assert_int_equal(err.errnum, EBADF);
	assert_string_equal(err.msg, "--events: write the thread-exit event: Bad file descriptor");
	assert_int_equal(shim_event_container_exit(ro, 1, 143, 0, &err), -1);
	assert_string_equal(err.msg, "--events: write the container-exit event: Bad file descriptor");
	assert_int_equal(shim_event_note(ro, "thread-events-lost", "d", &err), -1);
	assert_string_equal(err.msg, "--events: write the thread-events-lost event: Bad file descriptor");
	close(ro);
}

/* A batch of exits: one line each, one time, across more than one write. */
static void test_thread_exits_batch(void **state)
{
	enum { N = 400 };
	char path[] = "/tmp/shim-events-XXXXXX", line[256], first_time[32] = "";
	struct shim_thread_exit exits[N];
	struct shim_err err = { 0 };
	int fd = mkstemp(path), lines = 0;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	for (int i = 0; i < N; i++)
		exits[i] = (struct shim_thread_exit){ .tid = 100000 + i, .pid = 99999 };
	assert_int_equal(shim_event_thread_exits(fd, exits, N, &err), 0);
	assert_int_equal(shim_event_thread_exits(fd, exits, 0, &err), 0);
	assert_int_equal(shim_event_thread_exits(-1, exits, N, &err), 0);
	f = fdopen(fd, "r");
	assert_non_null(f);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		int tid, pid;
		char time[32];

		assert_int_equal(sscanf(line, "{\"event\":\"thread-exit\",\"tid\":%d,\"pid\":%d,\"time\":%31[0-9.]}\n",
					&tid, &pid, time), 3);
		assert_int_equal(tid, 100000 + lines);
		assert_int_equal(pid, 99999);
		if (lines == 0)
			snprintf(first_time, sizeof(first_time), "%s", time);
		assert_string_equal(time, first_time);
		lines++;
	}
	assert_int_equal(lines, N);
	fclose(f);
	unlink(path);
}

static void test_open_safely(void **state)
{
	char dir[] = "/tmp/shim-events-dir-XXXXXX", file[128], link[128], buf[64];
	char via[128], sub[128], path[160];
	struct shim_err err = { 0 };
	struct stat st;
	int fd;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/ev", dir);
	snprintf(link, sizeof(link), "%s/link", dir);

	/* An existing file is appended to, never truncated. */
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "old\n", 4), 4);
	close(fd);
	fd = shim_events_open(file, &err);
	assert_true(fd >= 0);
	assert_int_equal(shim_event_note(fd, "x", "y", &err), 0);
	close(fd);
	fd = open(file, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n > 4);
	buf[n] = '\0';
	assert_contains(buf, "old\n{\"event\":\"x\"");

	/* A symlink planted at the path is not followed. */
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(shim_events_open(link, &err), -1);
	assert_contains(err.msg, "a symlink");

	/* Nor one in a directory above it, and nothing is made at its target. */
	snprintf(via, sizeof(via), "%s/dirlink", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(symlink(sub, via), 0);
	snprintf(path, sizeof(path), "%s/new", via);
	assert_int_equal(shim_events_open(path, &err), -1);
	assert_int_equal(err.errnum, ELOOP);
	snprintf(path, sizeof(path), "%s/new", sub);
	assert_int_equal(access(path, F_OK), -1);

	/* Not a device, which is not even opened. */
	assert_int_equal(shim_events_open("/dev/null", &err), -1);
	assert_contains(err.msg, "not a regular file or a FIFO");

	/* A missing file is made, as a regular file. */
	fd = shim_events_open(path, &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	unlink(path);
	unlink(via);
	rmdir(sub);

	unlink(link);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_exit_format),
		cmocka_unit_test(test_thread_exits_batch),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_open_safely),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
