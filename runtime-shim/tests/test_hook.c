// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OCI hook: the request in the annotations, and the refusals that need
 * no kernel support, through shim_hook_main as a runtime calls it.  The
 * mount target below the container's root is walk.c's (test_walk.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "testutil.h"

#include "hook.h"

static void ann(struct shim_oci_annotations *a, const char *k, const char *v)
{
	a->a[a->n].key = (char *)k;
	a->a[a->n].value = (char *)v;
	a->n++;
}

static void test_request(void **unused)
{
	struct shim_oci_annotations a = { .n = 0 };
	struct shim_hook_request r;
	struct shim_err err = { 0 };

	(void)unused;
	ann(&a, "org.example.other", "x");
	assert_int_equal(shim_hook_request_parse(&a, &r, &err), 0);
	assert_false(r.any);

	ann(&a, "invalid.shim.bpffs.delegate_cmds", "map_create:prog_load");
	ann(&a, "invalid.shim.bpffs.delegate_progs", "socket_filter");
	assert_int_equal(shim_hook_request_parse(&a, &r, &err), 0);
	assert_true(r.any);
	assert_string_equal(r.delegate[SHIM_DELEG_CMDS], "map_create:prog_load");
	assert_string_equal(r.delegate[SHIM_DELEG_PROGS], "socket_filter");
	assert_null(r.delegate[SHIM_DELEG_MAPS]);
	assert_string_equal(r.path, "/sys/fs/bpf");

	ann(&a, "invalid.shim.bpffs.path", "/run/bpf");
	assert_int_equal(shim_hook_request_parse(&a, &r, &err), 0);
	assert_string_equal(r.path, "/run/bpf");
}

static void test_request_refused(void **unused)
{
	static const struct {
		const char *key, *value, *msg;
	} cases[] = {
		{ "invalid.shim.bpffs.delegate_prog", "xdp",
		  "annotation invalid.shim.bpffs.delegate_prog: unknown key (valid: invalid.shim.bpffs.delegate_cmds" },
		{ "invalid.shim.bpffs.delegate_maps", "array::hash",
		  "invalid.shim.bpffs.delegate_maps=array::hash: empty element" },
		{ "invalid.shim.bpffs.delegate_maps", "", "empty value" },
		{ "invalid.shim.bpffs.path", "sys/fs/bpf", "path=sys/fs/bpf: not an absolute path" },
		{ "invalid.shim.bpffs.path", "/sys/../../etc", "\".\" and \"..\" are not allowed" },
		{ "invalid.shim.bpffs.path", "/a/./b", "\".\" and \"..\" are not allowed" },
		{ "invalid.shim.bpffs.path", "//", "not a directory below the container's root" },
	};

	(void)unused;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct shim_oci_annotations a = { .n = 0 };
		struct shim_hook_request r;
		struct shim_err err = { 0 };

		ann(&a, "invalid.shim.bpffs.delegate_cmds", "map_create");
		ann(&a, cases[i].key, cases[i].value);
		assert_int_equal(shim_hook_request_parse(&a, &r, &err), -1);
		assert_contains(err.msg, cases[i].msg);
	}
	/* A path alone delegates nothing: refused rather than ignored. */
	{
		struct shim_oci_annotations a = { .n = 0 };
		struct shim_hook_request r;
		struct shim_err err = { 0 };

		ann(&a, "invalid.shim.bpffs.path", "/sys/fs/bpf");
		assert_int_equal(shim_hook_request_parse(&a, &r, &err), -1);
		assert_contains(err.msg, "no delegate_* option, nothing to delegate");
	}
}

/* A bundle with an empty root. */
struct tree {
	char base[64];
	char root[128];
};

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->base, sizeof(t->base), "/tmp/shim-hook-XXXXXX");
	if (!mkdtemp(t->base))
		return -1;
	snprintf(t->root, sizeof(t->root), "%s/root", t->base);
	*state = t;
	return mkdir(t->root, 0755);
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->base);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

/* Run shim_hook_main in a child as a runtime would: state on stdin. */
static int run_hook(const char *state, const char *policy, char *out, size_t len)
{
	int in[2], errp[2], status;
	ssize_t n, off = 0;
	pid_t pid;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(errp), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *const argv[] = { "hook", "bpffs", "--policy", (char *)policy, NULL };

		dup2(in[0], 0);
		dup2(errp[1], 2);
		close(in[1]);
		close(errp[0]);
		_exit(shim_hook_main(4, argv));
	}
	close(in[0]);
	close(errp[1]);
	assert_int_equal(write(in[1], state, strlen(state)), (ssize_t)strlen(state));
	close(in[1]);
	while ((n = read(errp[0], out + off, len - 1 - (size_t)off)) > 0)
		off += n;
	out[off] = '\0';
	close(errp[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void write_config(const char *bundle, const char *json)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/config.json", bundle);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
}

static void test_main_refusals(void **state)
{
	struct tree *t = *state;
	char st[512], out[8192];
	int rc;

	/* No request: nothing to do, quietly. */
	write_config(t->base, "{\"root\":{\"path\":\"root\"},\"linux\":{\"namespaces\":[{\"type\":\"mount\"}]}}");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"pid\":%d,\"bundle\":\"%s\"}", (int)getpid(), t->base);
	rc = run_hook(st, "/nonexistent", out, sizeof(out));
	assert_int_equal(rc, 0);
	assert_string_equal(out, "");

	/* Asked for, but no user namespace: refused, one line. */
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"pid\":%d,\"bundle\":\"%s\",\"annotations\":"
		 "{\"invalid.shim.bpffs.delegate_cmds\":\"prog_load\"}}", (int)getpid(), t->base);
	rc = run_hook(st, "/nonexistent", out, sizeof(out));
	assert_int_not_equal(rc, 0);
	assert_contains(out, "shim hook bpffs: container c has no user namespace");
	assert_int_equal(strchr(out, '\n') - out, (long)strlen(out) - 1);

	/* The request is found in config.json when the state has none. */
	write_config(t->base, "{\"root\":{\"path\":\"root\"},\"annotations\":"
		     "{\"invalid.shim.bpffs.delegate_progz\":\"xdp\"}}");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"pid\":%d,\"bundle\":\"%s\"}", (int)getpid(), t->base);
	rc = run_hook(st, "/nonexistent", out, sizeof(out));
	assert_int_not_equal(rc, 0);
	assert_contains(out, "annotation invalid.shim.bpffs.delegate_progz: unknown key");

	/* Broken inputs. */
	rc = run_hook("{\"id\":", "/nonexistent", out, sizeof(out));
	assert_int_not_equal(rc, 0);
	assert_contains(out, "shim hook bpffs: OCI state on stdin: not valid JSON");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"pid\":1,\"bundle\":\"%s/nothing\"}", t->base);
	rc = run_hook(st, "/nonexistent", out, sizeof(out));
	assert_int_not_equal(rc, 0);
	assert_contains(out, "config.json: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_request_refused),
		cmocka_unit_test_setup_teardown(test_main_refusals, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests_name("hook", tests, NULL, NULL);
}
