// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's cgroup: the limit options' values, mountinfo and
 * /proc/PID/cgroup reading, the OCI hook's cgroup mount check, and the
 * controllers a hybrid host's v2 lacks, on a stand-in cgroup tree (a
 * directory with cgroup.controllers and cgroup.subtree_control files).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "testutil.h"

#include "cgroup.h"
#include "cli.h"

static void test_sizes(void **state)
{
	struct shim_err err = { 0 };
	int64_t b;

	(void)state;
	assert_int_equal(shim_parse_size("--memory", "512m", &b, &err), 0);
	assert_int_equal(b, 512LL << 20);
	assert_int_equal(shim_parse_size("--memory", "1G", &b, &err), 0);
	assert_int_equal(b, 1LL << 30);
	assert_int_equal(shim_parse_size("--memory", "64kb", &b, &err), 0);
	assert_int_equal(b, 64 << 10);
	assert_int_equal(shim_parse_size("--memory", "4096", &b, &err), 0);
	assert_int_equal(b, 4096);
	assert_int_equal(shim_parse_size("--memory", "7b", &b, &err), 0);
	assert_int_equal(b, 7);
	assert_int_equal(shim_parse_size("--memory", "1.5g", &b, &err), -1);
	assert_string_equal(err.msg, "--memory: \"1.5g\" is not a size (a number, then b, k, m, g or t)");
	assert_int_equal(shim_parse_size("--memory-swap", "-1", &b, &err), -1);
	assert_int_equal(shim_parse_size("--memory", "", &b, &err), -1);
	assert_int_equal(shim_parse_size("--memory", "m", &b, &err), -1);
	assert_int_equal(shim_parse_size("--memory", "1mm", &b, &err), -1);
	assert_int_equal(shim_parse_size("--memory", "9999999t", &b, &err), -1);
	assert_string_equal(err.msg, "--memory: \"9999999t\" is too large");
	assert_int_equal(shim_parse_size("--memory", "99999999999999999999", &b, &err), -1);
}

static void test_pids_cpus_cpuset(void **state)
{
	struct shim_err err = { 0 };
	uint64_t quota;
	int64_t n;

	(void)state;
	assert_int_equal(shim_parse_pids_limit("64", &n, &err), 0);
	assert_int_equal(n, 64);
	assert_int_equal(shim_parse_pids_limit("-1", &n, &err), 0);
	assert_int_equal(n, -1);
	assert_int_equal(shim_parse_pids_limit("0", &n, &err), -1);
	assert_string_equal(err.msg, "--pids-limit: 0 would let the container start no process; -1 is for none");
	assert_int_equal(shim_parse_pids_limit("1k", &n, &err), -1);
	assert_string_equal(err.msg, "--pids-limit: \"1k\" is not a count of processes, or -1 for none");

	assert_int_equal(shim_parse_cpus("1.5", &quota, &err), 0);
	assert_int_equal(quota, 150000);
	assert_int_equal(shim_parse_cpus("0.01", &quota, &err), 0);
	assert_int_equal(quota, 1000);
	assert_int_equal(shim_parse_cpus("2", &quota, &err), 0);
	assert_int_equal(quota, 200000);
	assert_int_equal(shim_parse_cpus("0.00001", &quota, &err), -1);
	assert_string_equal(err.msg, "--cpus: \"0.00001\" is below 0.01, the least cpu.max takes");
	assert_int_equal(shim_parse_cpus("0.123456", &quota, &err), -1);
	assert_contains(err.msg, "more decimals than cpu.max's microseconds take (5)");
	assert_int_equal(shim_parse_cpus("1.", &quota, &err), -1);
	assert_int_equal(shim_parse_cpus(".5", &quota, &err), -1);
	assert_int_equal(shim_parse_cpus("-1", &quota, &err), -1);
	assert_string_equal(err.msg, "--cpus: \"-1\" is not a number of CPUs (such as 1.5)");

	assert_int_equal(shim_parse_cpuset("0-3,6", &err), 0);
	assert_int_equal(shim_parse_cpuset("5", &err), 0);
	assert_int_equal(shim_parse_cpuset("3-1", &err), -1);
	assert_string_equal(err.msg, "--cpuset-cpus: \"3-1\": the range 3-1 is empty");
	assert_int_equal(shim_parse_cpuset("1,", &err), -1);
	assert_int_equal(shim_parse_cpuset("", &err), -1);
	assert_int_equal(shim_parse_cpuset("a", &err), -1);
	assert_string_equal(err.msg, "--cpuset-cpus: \"a\" is not a list of CPUs (such as 0-3,6)");
}

static void test_parent(void **state)
{
	static const char *const bad[] = { "shim", "", "/a//b", "/a/", "/a/./b", "/..", "/a/..", "//" };
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_parse_cgroup_parent("/", &err), 0);
	assert_int_equal(shim_parse_cgroup_parent("/shim", &err), 0);
	assert_int_equal(shim_parse_cgroup_parent("/machine.slice/x", &err), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		if (shim_parse_cgroup_parent(bad[i], &err) == 0)
			fail_msg("--cgroup-parent \"%s\" was taken", bad[i]);
	}
}

static int parse(struct shim_config *cfg, struct shim_err *err, const char *a, const char *b,
		 const char *c, const char *d)
{
	char *argv[] = { "run", (char *)a, (char *)b, (char *)c, (char *)d,
			 "--rootfs", "/", "true", NULL };
	int argc = 0;

	/* NULL options are left out. */
	for (int i = 0; i < 8; i++)
		if (argv[i])
			argv[argc++] = argv[i];
	argv[argc] = NULL;
	return shim_parse_run(argc, argv, cfg, err);
}

static void test_options(void **state)
{
	struct shim_config cfg;
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(parse(&cfg, &err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(cfg.limits.pids, SHIM_PIDS_LIMIT_DEFAULT);
	assert_false(cfg.limits.pids_given);
	assert_false(shim_limits_asked(&cfg.limits));
	assert_int_equal(parse(&cfg, &err, "--pids-limit=-1", NULL, NULL, NULL), 0);
	assert_false(shim_limits_asked(&cfg.limits));
	assert_int_equal(parse(&cfg, &err, "-m", "32m", "--memory-swap", "-1"), 0);
	assert_int_equal(cfg.limits.memory, 32 << 20);
	assert_int_equal(cfg.limits.memory_swap, -1);
	assert_true(shim_limits_asked(&cfg.limits));
	assert_int_equal(parse(&cfg, &err, "--memory-swap", "1g", NULL, NULL), -1);
	assert_string_equal(err.msg, "--memory-swap needs --memory: it limits memory and swap together");
	assert_int_equal(parse(&cfg, &err, "--memory", "1m", NULL, NULL), -1);
	assert_string_equal(err.msg, "--memory: 1048576 bytes is below the least limit, 6m");
	assert_int_equal(parse(&cfg, &err, "--memory=32m", "--memory-swap=16m", NULL, NULL), -1);
	assert_contains(err.msg, "--memory-swap: 16777216 bytes is below --memory (33554432)");
	assert_int_equal(parse(&cfg, &err, "--cgroup-parent", "/x/y", "--cpus", "0.5"), 0);
	assert_string_equal(cfg.limits.cgroup_parent, "/x/y");
	assert_int_equal(cfg.limits.cpu_quota, 50000);
}

/* A hybrid host: v1 hierarchies and, on /sys/fs/cgroup/unified, cgroup2. */
static const char hybrid[] =
	"22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"25 22 0:24 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
	"26 25 0:25 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate\n"
	"28 25 0:27 / /sys/fs/cgroup/memory rw,nosuid shared:12 - cgroup cgroup rw,memory\n";

static void test_mountinfo(void **state)
{
	static struct shim_mountinfo m;
	struct shim_err err = { 0 };
	char point[64], path[64];

	(void)state;
	assert_int_equal(shim_mountinfo_parse("36 35 98:0 /a\\040b /mnt\\011x rw master:1 - ext4 /dev/root rw", &m), 0);
	assert_int_equal(m.id, 36);
	assert_int_equal(m.parent, 35);
	assert_string_equal(m.root, "/a b");
	assert_string_equal(m.point, "/mnt\tx");
	assert_string_equal(m.fstype, "ext4");
	assert_int_equal(shim_mountinfo_parse("36 35 98:0 / /mnt rw - ", &m), -1);
	assert_int_equal(shim_mountinfo_parse("36 35 98:0 / /mnt rw ext4", &m), -1);
	assert_int_equal(shim_mountinfo_parse("x 35 98:0 / /mnt rw - ext4 a b", &m), -1);

	/* Hybrid: the container's cgroup is made in v2, beside v1. */
	assert_int_equal(shim_cgroup2_mount_of(hybrid, point, sizeof(point), &err), 0);
	assert_string_equal(point, "/sys/fs/cgroup/unified");
	assert_int_equal(shim_cgroup2_mount_of(strstr(hybrid, "28 25"), point, sizeof(point), &err), -1);
	assert_contains(err.msg, "no cgroup2 hierarchy is mounted");

	assert_int_equal(shim_cgroup2_path_of("9:name=systemd:/user.slice\n1:cpu:/\n0::/user.slice/s.scope\n",
					      path, sizeof(path), &err), 0);
	assert_string_equal(path, "/user.slice/s.scope");
	assert_int_equal(shim_cgroup2_path_of("1:cpu:/\n", path, sizeof(path), &err), -1);
}

static void test_mounts_confined(void **state)
{
	const char *own = "/machine.slice/libpod-1";
	/* runc before pivot_root: the host's cgroup2 is there, outside the rootfs. */
	const char *before_pivot =
		"30 1 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
		"40 39 0:25 /machine.slice/libpod-1 /b/rootfs/sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
		"41 39 0:28 / /b/rootfs/sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n";
	const char *host_bind =
		"40 39 0:25 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n";
	const char *sibling =
		"40 39 0:25 /machine.slice/libpod-10 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n";
	struct shim_err err = { 0 };

	(void)state;
	assert_int_equal(shim_cgroup_mounts_confined(before_pivot, "/b/rootfs", own, &err), 0);
	/* After pivot_root the same host mount would be the container's. */
	assert_int_equal(shim_cgroup_mounts_confined(strstr(before_pivot, "40 39"), "/", own, &err), 0);
	assert_int_equal(shim_cgroup_mounts_confined(before_pivot, "/", own, &err), -1);
	memset(&err, 0, sizeof(err));
	assert_int_equal(shim_cgroup_mounts_confined(host_bind, "/", own, &err), -1);
	assert_int_equal(err.errnum, EPERM);
	assert_string_equal(err.msg, "the container's mount /sys/fs/cgroup (cgroup2, root /) reaches "
			    "cgroups outside its own (/machine.slice/libpod-1): a program delegated "
			    "there could attach to them: Operation not permitted");
	memset(&err, 0, sizeof(err));
	assert_int_equal(shim_cgroup_mounts_confined(sibling, "/", own, &err), -1);
	assert_int_equal(shim_cgroup_mounts_confined("garbage\n", "/", own, &err), -1);
	assert_contains(err.msg, "a line it cannot read");
	/* The host's hierarchy under the container's own, at the same point: hidden. */
	memset(&err, 0, sizeof(err));
	assert_int_equal(shim_cgroup_mounts_confined("40 39 0:25 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
						     "50 40 0:25 /machine.slice/libpod-1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n",
						     "/", own, &err), 0);
	/* Something mounted below it instead covers nothing. */
	assert_int_equal(shim_cgroup_mounts_confined("40 39 0:25 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
						     "50 40 0:30 / /sys/fs/cgroup/x ro - tmpfs tmpfs rw\n",
						     "/", own, &err), -1);
}

static void test_cgroup_types(void **state)
{
	uint64_t mask[SHIM_DELEG_NR] = { 0 };

	(void)state;
	mask[SHIM_DELEG_PROGS] = 1ULL << BPF_PROG_TYPE_SOCKET_FILTER;
	mask[SHIM_DELEG_ATTACHS] = 1ULL << BPF_XDP;
	assert_false(shim_delegates_cgroup_types(mask));
	mask[SHIM_DELEG_PROGS] |= 1ULL << BPF_PROG_TYPE_CGROUP_SKB;
	assert_true(shim_delegates_cgroup_types(mask));
	mask[SHIM_DELEG_PROGS] = 0;
	mask[SHIM_DELEG_ATTACHS] = 1ULL << BPF_CGROUP_INET_INGRESS;
	assert_true(shim_delegates_cgroup_types(mask));
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *dir, const char *file, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * A hybrid host's v2 root offers hugetlb alone: a limit asked for is
 * refused with the reason, the default pids limit is left out.
 */
static void test_hybrid_controllers(void **state)
{
	char tree[] = "/tmp/test_cgroup.XXXXXX", sub[64], buf[128];
	struct shim_voice quiet = { .who = "shim", .verbose = false };
	struct shim_limits l = { .pids = SHIM_PIDS_LIMIT_DEFAULT }, applied;
	struct shim_err err = { 0 };
	bool memory = true;

	(void)state;
	assert_non_null(mkdtemp(tree));
	put(tree, "cgroup.controllers", "hugetlb\n");
	put(tree, "cgroup.subtree_control", "\n");
	snprintf(sub, sizeof(sub), "%s/shim", tree);
	assert_int_equal(mkdir(sub, 0755), 0);
	put(sub, "cgroup.controllers", "\n");
	put(sub, "cgroup.subtree_control", "\n");

	assert_int_equal(shim_cgroup_prepare_parent(tree, "/", "/shim", &l, &applied, &memory,
						    &quiet, &err), 0);
	assert_int_equal(applied.pids, -1);
	assert_false(memory);

	l.memory = 64 << 20;
	assert_int_equal(shim_cgroup_prepare_parent(tree, "/", "/shim", &l, &applied, &memory,
						    &quiet, &err), -1);
	assert_contains(err.msg, "--memory: the memory controller is not in cgroup v2 at ");
	assert_contains(err.msg, "(a hybrid host keeps it in v1; limits need cgroup v2)");

	/* A pure v2 root: pids and memory are enabled down to the parent. */
	memset(&err, 0, sizeof(err));
	put(tree, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	put(sub, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	l.memory = 0;
	assert_int_equal(shim_cgroup_prepare_parent(tree, "/", "/shim", &l, &applied, &memory,
						    &quiet, &err), 0);
	assert_int_equal(applied.pids, SHIM_PIDS_LIMIT_DEFAULT);
	assert_true(memory);
	/* The stand-in file keeps the last write: memory follows pids. */
	get(sub, "cgroup.subtree_control", buf, sizeof(buf));
	assert_string_equal(buf, "+memory");

	put(tree, "cgroup.controllers", "\n");
	unlink(strcat(strcpy(buf, sub), "/cgroup.controllers"));
	unlink(strcat(strcpy(buf, sub), "/cgroup.subtree_control"));
	rmdir(sub);
	unlink(strcat(strcpy(buf, tree), "/cgroup.controllers"));
	unlink(strcat(strcpy(buf, tree), "/cgroup.subtree_control"));
	rmdir(tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_pids_cpus_cpuset),
		cmocka_unit_test(test_parent),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_mounts_confined),
		cmocka_unit_test(test_cgroup_types),
		cmocka_unit_test(test_hybrid_controllers),
	};

	return cmocka_run_group_tests_name("cgroup", tests, NULL, NULL);
}
