/* BPF FS delegation mount options, set the way a container manager does.
 *
 * Inside the container's user namespace the delegate_* options are refused
 * with EPERM, and so is creating a BPF FS instance at all; the privileged
 * side may set them (symbolic names, case-insensitive, numbers, "any"),
 * and /proc/mounts shows them normalized as upstream does: "any" when all
 * known bits are set, else the enum names without prefix, lower case, in
 * enum order, joined by ':'. A bad name is EINVAL.
 */
#include "token_common.h"

#define TEST_COUNT 13

/* fsopen() a BPF FS in the container and try fsconfig there itself */
static void check_in_userns(struct tap *t, struct tk_ns *ns, const char *key, const char *val)
{
	struct tk_res res = tk_call(ns, TK_OP_FSOPEN, -1, 0, 0, 0, NULL, NULL);
	char what[256];
	int fs_fd = res.rc;

	if (fs_fd < 0) {
		tk_ok(t, &res, "fsopen(\"bpf\") in the container");
		return;
	}
	res = tk_call(ns, TK_OP_FSCONFIG, fs_fd, 0, 0, 0, key, val);
	snprintf(what, sizeof(what), "in the container: fsconfig %s=%s", key, val);
	tk_fails(t, &res, EPERM, what);
	tk_call(ns, TK_OP_CLOSE, fs_fd, 0, 0, 0, NULL, NULL);
}

/* The privileged side sets a bad value: EINVAL from fsconfig. */
static void check_bad_value(struct tap *t, const char *key, const char *val)
{
	struct tk_deleg d = { 0 };
	char what[256];

	if (!strcmp(key, "delegate_cmds"))
		d.cmds = val;
	else if (!strcmp(key, "delegate_maps"))
		d.maps = val;
	else if (!strcmp(key, "delegate_progs"))
		d.progs = val;
	else
		d.attachs = val;
	snprintf(what, sizeof(what), "privileged %s=%s", key, val);
	tk_check_mount(t, what, &d, NULL, EINVAL);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	int fs_fd;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	/* 1-4: a container cannot delegate to itself */
	tk_start(&ns, NULL);
	check_in_userns(&t, &ns, "delegate_cmds", "map_create");
	check_in_userns(&t, &ns, "delegate_maps", "any");
	check_in_userns(&t, &ns, "delegate_progs", "socket_filter");
	check_in_userns(&t, &ns, "delegate_attachs", "0x1");

	/* 5: nor create a BPF FS instance owned by its user namespace */
	res = tk_call(&ns, TK_OP_FSOPEN, -1, 0, 0, 0, NULL, NULL);
	fs_fd = res.rc;
	res = tk_call(&ns, TK_OP_FSCREATE, fs_fd, 0, 0, 0, NULL, NULL);
	tk_fails(&t, &res, EPERM, "in the container: FSCONFIG_CMD_CREATE of its own BPF FS");
	tk_stop(&ns);

	/* 6-10: what the privileged side set, as /proc/mounts shows it */
	tk_check_mount(&t, "symbolic names",
		       &(struct tk_deleg){ "map_create:prog_load:btf_load", "array:hash",
					   "xdp:socket_filter", "cgroup_inet_egress:cgroup_inet_ingress" },
		       "delegate_cmds=map_create:prog_load:btf_load,delegate_maps=hash:array,"
		       "delegate_progs=socket_filter:xdp,"
		       "delegate_attachs=cgroup_inet_ingress:cgroup_inet_egress", 0);
	tk_check_mount(&t, "names are case-insensitive",
		       &(struct tk_deleg){ "MAP_CREATE:Prog_Load", NULL, "Socket_Filter", NULL },
		       "delegate_cmds=map_create:prog_load,delegate_progs=socket_filter", 0);
	tk_check_mount(&t, "numeric masks",
		       &(struct tk_deleg){ "0x40021", "0x6", "66", "0x3" },
		       "delegate_cmds=map_create:prog_load:btf_load,delegate_maps=hash:array,"
		       "delegate_progs=socket_filter:xdp,"
		       "delegate_attachs=cgroup_inet_ingress:cgroup_inet_egress", 0);
	tk_check_mount(&t, "a number replaces the names before it",
		       &(struct tk_deleg){ "prog_load:btf_load:0x1", NULL, NULL, NULL },
		       "delegate_cmds=map_create", 0);
	tk_check_mount(&t, "any",
		       &(struct tk_deleg){ "any", "any", "any", "any" },
		       "delegate_cmds=any,delegate_maps=any,delegate_progs=any,delegate_attachs=any", 0);

	/* 11-13: bad names */
	check_bad_value(&t, "delegate_cmds", "map_create:no_such_cmd");
	check_bad_value(&t, "delegate_maps", "no_such_map");
	check_bad_value(&t, "delegate_attachs", "cgroup_inet_ingress:no_such_attach");

	return tap_done(&t);
}
