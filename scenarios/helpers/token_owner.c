/* Who owns the root of a BPF FS instance (bpffs uid= and gid=, 6.8).
 *
 * The root directory belongs to the fsuid/fsgid of whoever called
 * fsopen(), unless uid=/gid= say otherwise; /proc/mounts shows uid= and
 * gid= (as seen from the initial namespace) when they are not 0. So a
 * container that opens its own delegated BPF FS sees its root owned by
 * its root user, not by the overflow id. uid=/gid= are ids of the caller's
 * user namespace and must map into the instance's: the container cannot
 * hand it to an id outside its range, nor can the manager hand the
 * container's instance to the initial namespace's root (the attacks).
 */
#include "token_common.h"

#define TEST_COUNT 10

/* rc 0, text "uid gid" of s1 */
static void owner_of(const struct tk_req *req, struct tk_res *res)
{
	struct stat st;

	memset(res, 0, sizeof(*res));
	tk_res_errno(res, stat(req->s1, &st));
	if (res->rc == 0)
		snprintf(res->text, sizeof(res->text), "%u %u", st.st_uid, st.st_gid);
}

/* The uid= and gid= options of the last bpf mount on path in the mount
 * table mounts_file, as "uid=N,gid=N" ("" when there are none).
 */
static void ids_opts(const char *mounts_file, const char *path, char *out, size_t len)
{
	char buf[16384], *line, *save = NULL;

	out[0] = '\0';
	if (tk_read_file(mounts_file, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[256], dir[256], type[64], opts[4096], *o, *osave = NULL;

		if (sscanf(line, "%255s %255s %63s %4095s", dev, dir, type, opts) != 4 ||
		    strcmp(dir, path) != 0 || strcmp(type, "bpf") != 0)
			continue;
		out[0] = '\0';
		for (o = strtok_r(opts, ",", &osave); o; o = strtok_r(NULL, ",", &osave)) {
			if (strncmp(o, "uid=", 4) && strncmp(o, "gid=", 4))
				continue;
			if (out[0])
				strncat(out, ",", len - strlen(out) - 1);
			strncat(out, o, len - strlen(out) - 1);
		}
	}
}

static void check_owner(struct tap *t, const char *why, const struct tk_res *res, const char *owner,
			const char *mounts_file, const char *path, const char *opts)
{
	char got[256];

	tap_ok(t, res->rc == 0 && strcmp(res->text, owner) == 0, "%s: root owned by '%s' (got '%s')",
	       why, owner, res->rc == 0 ? res->text : tk_errname(res->err));
	ids_opts(mounts_file, path, got, sizeof(got));
	tap_ok(t, strcmp(got, opts) == 0, "%s: /proc/mounts shows '%s' (got '%s')", why, opts, got);
}

/* In a fresh container: the container opens a BPF FS, this side sets
 * uid=uid (unless NULL) and delegate_cmds=any and creates it, the
 * container mounts it on /sys/fs/bpf and looks at its root.
 */
static void check_container(struct tap *t, const char *uid, const char *owner, const char *opts)
{
	struct tk_ns ns;
	struct tk_res res;
	struct tk_req req;
	char why[128], mounts[64];
	int fs_fd AUTOCLOSE = -1;

	snprintf(why, sizeof(why), "container's BPF FS%s%s", uid ? ", uid=" : "", uid ? uid : "");
	tk_start(&ns, owner_of);
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_FSOPEN;
	tk_call_fd(&ns, &req, &res, -1, &fs_fd);
	if (fs_fd < 0 || (uid && tk_fsconfig_str(fs_fd, "uid", uid)) ||
	    tk_fsconfig_str(fs_fd, "delegate_cmds", "any") || tk_fsconfig_create(fs_fd)) {
		tap_diag("%s: setup: %s", why, strerror(errno));
		memset(&res, 0, sizeof(res));
		res.rc = -1;
		res.err = errno;
	} else {
		res = tk_call(&ns, TK_OP_FSMOUNT, res.rc, 0, 0, 0, "/sys/fs/bpf", NULL);
		if (res.rc < 0)
			tap_diag("%s: %s", why, res.text);
		res = tk_call(&ns, TK_OP_CUSTOM, -1, 0, 0, 0, "/sys/fs/bpf", NULL);
	}
	snprintf(mounts, sizeof(mounts), "/proc/%d/mounts", ns.pid);
	check_owner(t, why, &res, owner, mounts, "/sys/fs/bpf", opts);
	tk_stop(&ns);
}

/* Root of the initial namespace mounts a BPF FS on a directory of its own. */
static void check_host(struct tap *t, const char *uid, const char *owner, const char *opts)
{
	struct tk_req req;
	struct tk_res res;
	char dir[64], why[128];
	int fs_fd AUTOCLOSE = tk_fsopen("bpf");

	snprintf(why, sizeof(why), "initial namespace's BPF FS%s%s", uid ? ", uid=" : "",
		 uid ? uid : "");
	snprintf(dir, sizeof(dir), "/tmp/tk-owner-%d", getpid());
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_FSMOUNT;
	req.fd = fs_fd;
	snprintf(req.s1, sizeof(req.s1), "%s", dir);
	if (fs_fd < 0 || (uid && tk_fsconfig_str(fs_fd, "uid", uid)) || tk_fsconfig_create(fs_fd)) {
		tap_diag("%s: setup: %s", why, strerror(errno));
		memset(&res, 0, sizeof(res));
		res.rc = -1;
		res.err = errno;
	} else {
		tk_exec(NULL, &req, &res, -1, NULL);	/* closes fs_fd */
		fs_fd = -1;
		if (res.rc >= 0)
			close(res.rc);
		snprintf(req.s1, sizeof(req.s1), "%s", dir);
		owner_of(&req, &res);
	}
	check_owner(t, why, &res, owner, "/proc/self/mounts", dir, opts);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_res res;
	struct tk_req req;
	int fs_fd AUTOCLOSE = -1;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	/* 1-4: a container's instance */
	check_container(&t, NULL, "0 0", "uid=100000,gid=100000");
	check_container(&t, "100001", "1 0", "uid=100001,gid=100000");
	/* 5-8: the initial namespace's */
	check_host(&t, NULL, "0 0", "");
	check_host(&t, "1234", "1234 0", "uid=1234");

	/* 9-10: the attacks */
	tk_start(&ns, NULL);
	memset(&req, 0, sizeof(req));
	req.op = TK_OP_FSOPEN;
	tk_call_fd(&ns, &req, &res, -1, &fs_fd);
	tap_errno(&t, fs_fd >= 0 ? tk_fsconfig_str(fs_fd, "uid", "0") : -1, EINVAL,
		  "manager: uid=0 (not mapped in the container) on the container's BPF FS");
	res = tk_call(&ns, TK_OP_FSCONFIG, res.rc, 0, 0, 0, "gid", "70000");
	tk_fails(&t, &res, EINVAL, "container: gid=70000 (outside its range) on its own BPF FS");
	tk_stop(&ns);
	return tap_done(&t);
}
