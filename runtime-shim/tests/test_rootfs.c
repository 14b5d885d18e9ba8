// SPDX-License-Identifier: GPL-2.0-or-later
/* Which rootfs is mounted idmapped, and the warning when one cannot be. */
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

#include "idmap.h"
#include "rootfs.h"

static void set_maps(struct shim_config *cfg, uint32_t in, uint32_t out, uint32_t count)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->uid_map.map[0] = (struct shim_idmap){ in, out, count };
	cfg->uid_map.n = 1;
	cfg->gid_map.map[0] = (struct shim_idmap){ in, out + 1000000, count };
	cfg->gid_map.n = 1;
}

static void test_plan_default_range(void **state)
{
	struct shim_config cfg;

	(void)state;
	set_maps(&cfg, 0, 2147483647, 65536);
	/* Host root's tree (an image, a debootstrap): idmapped. */
	assert_int_equal(shim_rootfs_plan(&cfg, 0), SHIM_ROOTFS_IDMAP);
	/* Unpacked by a login user: still container IDs, idmapped. */
	assert_int_equal(shim_rootfs_plan(&cfg, 1000), SHIM_ROOTFS_IDMAP);
	assert_int_equal(shim_rootfs_plan(&cfg, 65535), SHIM_ROOTFS_IDMAP);
	/* chown -R into the range, at its start or anywhere in it: as it is. */
	assert_int_equal(shim_rootfs_plan(&cfg, 2147483647), SHIM_ROOTFS_AS_IS);
	assert_int_equal(shim_rootfs_plan(&cfg, 2147483647 + 65535U), SHIM_ROOTFS_AS_IS);
	/* Past the range and not a container ID either: nothing helps. */
	assert_int_equal(shim_rootfs_plan(&cfg, 2147483647 + 65536U), SHIM_ROOTFS_FOREIGN);
	assert_int_equal(shim_rootfs_plan(&cfg, 65536), SHIM_ROOTFS_FOREIGN);
}

static void test_plan_rootless_and_several(void **state)
{
	struct shim_config cfg;

	(void)state;
	/* --uid-map 0:1000:1 on the user's own tree: as it is. */
	set_maps(&cfg, 0, 1000, 1);
	assert_int_equal(shim_rootfs_plan(&cfg, 1000), SHIM_ROOTFS_AS_IS);
	assert_int_equal(shim_rootfs_plan(&cfg, 0), SHIM_ROOTFS_IDMAP);
	assert_int_equal(shim_rootfs_plan(&cfg, 1), SHIM_ROOTFS_FOREIGN);
	/* Container root is host root (0:0:1): host root's tree is its own. */
	set_maps(&cfg, 0, 0, 1);
	assert_int_equal(shim_rootfs_plan(&cfg, 0), SHIM_ROOTFS_AS_IS);
	/* Two ranges: either one makes the owner the container's. */
	set_maps(&cfg, 0, 200000, 10);
	cfg.uid_map.map[1] = (struct shim_idmap){ 1000, 5000, 1 };
	cfg.uid_map.n = 2;
	assert_int_equal(shim_rootfs_plan(&cfg, 5000), SHIM_ROOTFS_AS_IS);
	assert_int_equal(shim_rootfs_plan(&cfg, 200009), SHIM_ROOTFS_AS_IS);
	assert_int_equal(shim_rootfs_plan(&cfg, 1000), SHIM_ROOTFS_IDMAP);
	assert_int_equal(shim_rootfs_plan(&cfg, 9), SHIM_ROOTFS_IDMAP);
	assert_int_equal(shim_rootfs_plan(&cfg, 10), SHIM_ROOTFS_FOREIGN);
}

static void test_idmap_lookups(void **state)
{
	struct shim_config cfg;
	uint32_t id = 7;

	(void)state;
	set_maps(&cfg, 10, 200000, 5);
	assert_true(shim_idmap_to_host(&cfg.uid_map, 14, &id));
	assert_int_equal(id, 200004);
	assert_false(shim_idmap_to_host(&cfg.uid_map, 15, &id));
	assert_true(shim_idmap_from_host(&cfg.uid_map, 200000, &id));
	assert_int_equal(id, 10);
	assert_false(shim_idmap_from_host(&cfg.uid_map, 199999, &id));
	/* 0 is not mapped: init runs as the first mapped ID (container.c). */
	assert_int_equal(shim_idmap_root(&cfg.uid_map), 10);
	set_maps(&cfg, 0, 200000, 5);
	assert_int_equal(shim_idmap_root(&cfg.uid_map), 0);
}

static void test_warning_names_the_chown(void **state)
{
	struct shim_config cfg;
	struct shim_err warn = { 0 };
	const char *buf = warn.msg;

	(void)state;
	set_maps(&cfg, 0, 2147483647, 65536);
	shim_rootfs_warning(&cfg, "/srv/root", 0,
			    "mount_setattr MOUNT_ATTR_IDMAP: Invalid argument", &warn);
	assert_contains(buf, "the rootfs /srv/root belongs to host uid 0, not to the container's "
			"root (host uid 2147483647), and cannot be mounted idmapped: "
			"mount_setattr MOUNT_ATTR_IDMAP: Invalid argument");
	/* The gid is the gid map's: set_maps puts it 1000000 above. */
	assert_contains(buf, "chown -R 2147483647:2148483647 /srv/root");
	assert_null(strchr(buf, '\n'));
	shim_rootfs_warning(&cfg, "/srv/root", 70000, NULL, &warn);
	assert_contains(buf, "belongs to host uid 70000");
	assert_contains(buf, "the container's ID maps do not include it even idmapped");
	assert_contains(buf, "chown -R 2147483647:2148483647 /srv/root");
	/* Container ID 0 unmapped: the chown names the IDs init runs as. */
	set_maps(&cfg, 10, 200000, 5);
	shim_rootfs_warning(&cfg, "/r", 0, NULL, &warn);
	assert_contains(buf, "(host uid 200000)");
	assert_contains(buf, "chown -R 200000:1200000 /r");
	/* /r is below /, which others may cross: the chown alone would be refused next. */
	assert_contains(buf, "then let only root cross a directory above it");
}

static void test_dir_hides(void **state)
{
	struct stat st = { .st_mode = S_IFDIR | 0700, .st_uid = 0 };

	(void)state;
	assert_true(shim_dir_hides(&st));
	st.st_mode = S_IFDIR | 0744;	/* readable, not searchable */
	assert_true(shim_dir_hides(&st));
	st.st_mode = S_IFDIR | 0701;
	assert_false(shim_dir_hides(&st));
	st.st_mode = S_IFDIR | 0710;	/* root's group, or an ACL mask with x */
	assert_false(shim_dir_hides(&st));
	st.st_mode = S_IFDIR | 0700;
	st.st_uid = 1000;		/* its owner is another user */
	assert_false(shim_dir_hides(&st));
	st.st_uid = 0;
	st.st_mode = S_IFREG | 0600;
	assert_false(shim_dir_hides(&st));
}

static void test_hidden_by_ancestor(void **state)
{
	char top[] = "/tmp/shim-hidden-XXXXXX", root[128], dir[PATH_MAX], above[PATH_MAX];
	bool hidden, above_hides;

	(void)state;
	if (geteuid() != 0)
		skip();	/* the directories must be root's */
	assert_non_null(mkdtemp(top));	/* 0700, root's */
	snprintf(root, sizeof(root), "%s/rootfs", top);
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(shim_rootfs_hidden_by(root, &hidden, dir, sizeof(dir)), 0);
	assert_true(hidden);
	assert_string_equal(dir, top);
	/*
	 * The rootfs's own mode does not count: its container owns it.  Now
	 * only /tmp and above can hide it, as they hide top itself (/tmp is
	 * 0700 on some machines).
	 */
	assert_int_equal(chmod(top, 0755), 0);
	assert_int_equal(chmod(root, 0700), 0);
	assert_int_equal(shim_rootfs_hidden_by(top, &above_hides, above, sizeof(above)), 0);
	assert_int_equal(shim_rootfs_hidden_by(root, &hidden, dir, sizeof(dir)), 0);
	assert_int_equal(hidden, above_hides);
	if (hidden)
		assert_string_equal(dir, above);
	assert_int_equal(shim_rootfs_hidden_by("relative", &hidden, dir, sizeof(dir)), -1);
	rmdir(root);
	rmdir(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_default_range),
		cmocka_unit_test(test_plan_rootless_and_several),
		cmocka_unit_test(test_idmap_lookups),
		cmocka_unit_test(test_warning_names_the_chown),
		cmocka_unit_test(test_dir_hides),
		cmocka_unit_test(test_hidden_by_ancestor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
