// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim hook bpffs: the OCI createRuntime hook.  It runs in the runtime's
 * namespaces (the host's) after the container's namespaces exist and
 * before its process runs the user's command.  The mechanism is the one
 * shim run, systemd's PrivateBPF= and LXD use:
 *   1. a pidfd on the container's init pins the process we act on;
 *   2. a child joins the init's user and mount namespaces and opens the
 *      BPF FS context there, so the superblock belongs to that user
 *      namespace;
 *   3. the hook, still holding CAP_SYS_ADMIN in the initial user
 *      namespace, sets the delegate_* options, creates and mounts it;
 *   4. the child moves the mount onto the target below the container's
 *      root, found without leaving that root.
 * Every check that can refuse runs before step 2: a refused container
 * gets nothing, and the runtime aborts its creation on our exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bpffs.h"
#include "cgroup.h"
#include "file.h"
#include "hook.h"
#include "kernel.h"
#include "opts.h"
#include "status.h"
#include "sync.h"

static const char *const keys[SHIM_DELEG_NR] = {
	SHIM_HOOK_PREFIX "delegate_cmds", SHIM_HOOK_PREFIX "delegate_maps",
	SHIM_HOOK_PREFIX "delegate_progs", SHIM_HOOK_PREFIX "delegate_attachs",
};

const char *shim_hook_annotation(int kind)
{
	return keys[kind];
}

int shim_hook_request_parse(const struct shim_oci_annotations *a,
			    struct shim_hook_request *req, struct shim_err *err)
{
	const size_t plen = strlen(SHIM_HOOK_PREFIX);

	memset(req, 0, sizeof(*req));
	for (size_t i = 0; i < a->n; i++) {
		const char *key = a->a[i].key, *value = a->a[i].value;
		int kind = -1;

		if (strncmp(key, SHIM_HOOK_PREFIX, plen) != 0)
			continue;
		req->any = true;
		if (strcmp(key + plen, "path") == 0) {
			if (shim_bpffs_path_check(value, key, err))
				return -1;
			req->path = value;
			continue;
		}
		for (int k = 0; k < SHIM_DELEG_NR; k++)
			if (strcmp(key, keys[k]) == 0)
				kind = k;
		if (kind < 0)
			return shim_fail(err, 0, "annotation %s: unknown key (valid: %sdelegate_cmds, "
					 "delegate_maps, delegate_progs, delegate_attachs, path)",
					 key, SHIM_HOOK_PREFIX);
		if (shim_delegate_syntax_check(kind, value, key, err))
			return -1;
		req->delegate[kind] = value;
	}
	if (!req->any)
		return 0;
	for (int k = 0; k < SHIM_DELEG_NR; k++)
		if (req->delegate[k])
			goto delegates;
	return shim_fail(err, 0, "annotations %s*: no delegate_* option, nothing to delegate",
			 SHIM_HOOK_PREFIX);
delegates:
	if (!req->path)
		req->path = SHIM_HOOK_DEFAULT_PATH;
	return 0;
}

/* ---- the hook ------------------------------------------------------ */

struct hook_opts {
	const char *policy;
	struct shim_voice voice;
};

struct hook_ctx {
	const struct hook_opts *opts;
	struct shim_oci_state state;
	struct shim_oci_config config;
	struct shim_hook_request req;
	struct shim_deleg_names names;
	struct shim_delegation delegation;
	struct shim_bpffs_policy policy;
	char root[PATH_MAX];	/* root.path made absolute with the bundle */
};

static void hook_release(struct hook_ctx *h)
{
	shim_oci_state_free(&h->state);
	shim_oci_config_free(&h->config);
	shim_deleg_names_free(&h->names);
}

static int read_inputs(struct hook_ctx *h, struct shim_err *err)
{
	cleanup_free char *state = NULL, *config = NULL;
	char path[PATH_MAX];
	cleanup_fd int fd = -1;
	size_t len;

	if (shim_read_all(STDIN_FILENO, SHIM_OCI_MAX_STATE, &state, &len, "the OCI state on stdin", err) ||
	    shim_oci_state_parse(state, len, &h->state, err))
		return -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/config.json", h->state.bundle) >= sizeof(path))
		return shim_fail(err, ENAMETOOLONG, "bundle %s", h->state.bundle);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return shim_fail(err, errno, "open %s", path);
	if (shim_read_all(fd, SHIM_OCI_MAX_CONFIG, &config, &len, path, err) ||
	    shim_oci_config_parse(config, len, &h->config, err))
		return -1;
	if (h->config.root[0] == '/')
		snprintf(h->root, sizeof(h->root), "%s", h->config.root);
	else if ((size_t)snprintf(h->root, sizeof(h->root), "%s/%s", h->state.bundle,
				  h->config.root) >= sizeof(h->root))
		return shim_fail(err, ENAMETOOLONG, "root.path %s", h->config.root);
	return 0;
}

/* Everything that can refuse, before anything is created. */
static int decide(struct hook_ctx *h, struct shim_err *err)
{
	struct shim_err probe = { 0 };
	bool tokens;

	/* runc and crun copy config.json's annotations into the state; the
	 * config is the fallback for a runtime that does not. */
	if (shim_hook_request_parse(&h->state.annotations, &h->req, err))
		return -1;
	if (!h->req.any && shim_hook_request_parse(&h->config.annotations, &h->req, err))
		return -1;
	if (!h->req.any)
		return 0;
	if (!h->config.userns)
		return shim_fail(err, 0, "container %s has no user namespace (config.json linux.namespaces "
				 "has no \"user\"): a BPF FS delegated to the initial user namespace "
				 "grants nothing; refused", h->state.id);

	if (shim_bpf_token_probe(&tokens, &probe))
		return shim_fail(err, 0, "the hook cannot create a BPF FS (%s): it must run as root "
				 "in the initial user namespace; refused", probe.msg);
	if (!tokens)
		return shim_fail(err, 0, "%s: no BPF token support (%s); refused", SHIM_NO_BPF_TOKEN_MSG, probe.msg);
	shim_note(&h->opts->voice, "BPF token probe: %s", probe.msg);

	shim_delegation_names(&h->names, &h->opts->voice);
	memset(&h->delegation, 0, sizeof(h->delegation));
	for (int k = 0; k < SHIM_DELEG_NR; k++)
		if (h->req.delegate[k] &&
		    shim_delegation_set(&h->delegation, &h->names, k, h->req.delegate[k], keys[k], err))
			return -1;
	if (shim_policy_load(h->opts->policy, &h->names, &h->policy, err) ||
	    shim_policy_check(&h->policy, &h->names, &h->delegation, shim_hook_annotation, err))
		return -1;
	return 0;
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * The child, in the container's user and mount namespaces.  Never
 * returns.  initroot is the init's root directory, opened from the host.
 */
static void __attribute__((noreturn))
child_main(const struct hook_ctx *h, int pidfd, int sock, int initroot)
{
	struct shim_err err = { 0 };
	cleanup_fd int nsroot = -1, root = -1;
	struct stat at_ns, at_init;

	/*
	 * Never dumpable: it holds descriptors of the host (initroot, the
	 * socket) and soon has the container's IDs, so its processes must
	 * not ptrace it or open its fds through /proc.
	 */
	if (prctl(PR_SET_DUMPABLE, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() == 1)
		_exit(SHIM_EXIT_ERROR);
	if (setns(pidfd, CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		shim_fail(&err, errno, "setns into the user and mount namespaces of pid %d",
			  (int)h->state.pid);
		goto fail;
	}
	/*
	 * Act as the container's root from here on: a directory the hook makes
	 * belongs to it, and only where the container's root could make one.
	 */
	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0) {
		shim_fail(&err, errno, "become root of the container's user namespace "
			  "(is uid/gid 0 mapped?)");
		goto fail;
	}
	/* Changing IDs reset dumpability to fs.suid_dumpable: not ours to trust. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		shim_fail(&err, errno, "prctl PR_SET_DUMPABLE 0");
		goto fail;
	}
	/*
	 * Where is the container's root?  runc runs createRuntime before the
	 * init's pivot_root: the init's root is still the namespace's root and
	 * the rootfs sits at root.path.  After a pivot_root the init's root
	 * is the container's root.
	 */
	nsroot = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (nsroot < 0) {
		shim_fail(&err, errno, "open / in the container's mount namespace");
		goto fail;
	}
	if (fstat(nsroot, &at_ns) < 0 || fstat(initroot, &at_init) < 0) {
		shim_fail(&err, errno, "stat the container init's root");
		goto fail;
	}
	root = same_inode(&at_ns, &at_init) ? open(h->root, O_PATH | O_DIRECTORY | O_CLOEXEC) :
		   fcntl(initroot, F_DUPFD_CLOEXEC, 3);
	if (root < 0) {
		shim_fail(&err, errno, "open root.path %s in the container's mount namespace", h->root);
		goto fail;
	}
	if (shim_bpffs_request(sock, root, h->req.path, &err)) {
		shim_fail_wrap(&err, "%spath %s", SHIM_HOOK_PREFIX, h->req.path);
		goto fail;
	}
	/* STARTED doubles as "mounted": the conversation is over. */
	shim_msg_send(sock, SHIM_MSG_STARTED, 0, NULL, -1, &err);
	_exit(0);
fail:
	shim_msg_send(sock, SHIM_MSG_ERROR, 0, err.msg, -1, &err);
	_exit(SHIM_EXIT_ERROR);
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return shim_exit_status(status);
}

/* The helper's next message, which must be of type want; *fd its fd. */
static int expect(int sock, uint32_t want, int *fd, struct shim_err *err)
{
	struct shim_msg msg;
	int r = shim_msg_recv(sock, &msg, fd, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return shim_fail(err, 0, "the hook's helper in the container's namespaces died");
	if (msg.type == SHIM_MSG_ERROR)
		return shim_fail(err, 0, "%s", msg.text);
	if (msg.type != want)
		return shim_fail(err, EPROTO, "unexpected message %u from the hook's helper", msg.type);
	return 0;
}

/* The parent's half of the conversation. */
static int serve_child(const struct hook_ctx *h, int sock, struct shim_err *err)
{
	cleanup_fd int fsfd = -1, stray = -1;

	if (expect(sock, SHIM_MSG_BPF_FD, &fsfd, err))
		return -1;
	if (fsfd < 0)
		return shim_fail(err, EPROTO, "the hook's helper sent no BPF FS context");
	if (shim_bpffs_grant(sock, fsfd, &h->delegation, err))
		return -1;
	/* STARTED: mounted, the conversation is over. */
	return expect(sock, SHIM_MSG_STARTED, &stray, err);
}

/* Is namespace ns of the process at procdir ours? */
static int ns_shared(int procdir, const char *ns, bool *shared, struct shim_err *err)
{
	char path[64];
	struct stat self, other;

	snprintf(path, sizeof(path), "ns/%s", ns);
	if (fstatat(procdir, path, &other, 0) < 0)
		return shim_fail(err, errno, "stat the container init's %s namespace", ns);
	snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	if (stat(path, &self) < 0)
		return shim_fail(err, errno, "stat %s", path);
	*shared = same_inode(&self, &other);
	return 0;
}

/*
 * Is the process the bundle's container?  Its root is the bundle's rootfs
 * (after pivot_root), or the rootfs is at root.path below its root (runc
 * runs createRuntime before pivot_root), in user and mount namespaces
 * other than ours.  A pid that names another process is refused.
 */
static int check_container(const struct hook_ctx *h, int procdir, int initroot,
			   struct shim_err *err)
{
	struct stat rootfs, at_root, at_path;
	bool shared;

	if (ns_shared(procdir, "user", &shared, err))
		return -1;
	if (shared)
		return shim_fail(err, 0, "container %s init (pid %d) runs in the initial user namespace: "
				 "a delegated BPF FS would grant nothing; refused", h->state.id,
				 (int)h->state.pid);
	if (ns_shared(procdir, "mnt", &shared, err))
		return -1;
	if (shared)
		return shim_fail(err, 0, "pid %d shares the hook's mount namespace: it is not the init "
				 "of container %s; refused", (int)h->state.pid, h->state.id);
	if (stat(h->root, &rootfs) < 0)
		return shim_fail(err, errno, "root.path %s", h->root);
	if (fstat(initroot, &at_root) < 0)
		return shim_fail(err, errno, "stat the root of pid %d", (int)h->state.pid);
	if (same_inode(&at_root, &rootfs))
		return 0;
	if (fstatat(initroot, h->root + strspn(h->root, "/"), &at_path, 0) == 0 &&
	    same_inode(&at_path, &rootfs))
		return 0;
	return shim_fail(err, 0, "pid %d is not the init of container %s: neither its root nor "
			 "%s below it is the bundle's rootfs; refused", (int)h->state.pid,
			 h->state.id, h->root);
}

/*
 * A program type or attach type for cgroups is delegated only to a
 * container whose cgroup2 mounts show its own cgroup and below: runc,
 * crun and podman mount it so, but config.json may bind the host's /sys
 * recursively, and with it the host's cgroups to attach to.  Read through
 * /proc/PID, which the pidfd pinned; mounts below the rootfs (its
 * root, or root.path before pivot_root) are the container's.
 */
static int check_cgroup_scope(const struct hook_ctx *h, int procdir, int initroot,
			      struct shim_err *err)
{
	cleanup_free char *cgroup = NULL, *mountinfo = NULL;
	cleanup_fd int cfd = -1, mfd = -1;
	char own[PATH_MAX], below[PATH_MAX];
	struct stat rootfs, at_root;
	size_t len;

	if (!shim_delegates_cgroup_types(h->delegation.mask))
		return 0;
	cfd = openat(procdir, "cgroup", O_RDONLY | O_CLOEXEC);
	mfd = openat(procdir, "mountinfo", O_RDONLY | O_CLOEXEC);
	if (cfd < 0 || mfd < 0)
		return shim_fail(err, errno, "open /proc/%d/%s", (int)h->state.pid,
				 cfd < 0 ? "cgroup" : "mountinfo");
	if (shim_read_all(cfd, 1 << 20, &cgroup, &len, "the container's /proc/PID/cgroup", err) ||
	    shim_read_all(mfd, 16 << 20, &mountinfo, &len, "the container's mountinfo", err) ||
	    shim_cgroup2_path_of(cgroup, own, sizeof(own), err))
		return -1;
	if (stat(h->root, &rootfs) == 0 && fstat(initroot, &at_root) == 0 &&
	    same_inode(&rootfs, &at_root))
		strcpy(below, "/");
	else if (!realpath(h->root, below))
		return shim_fail(err, errno, "root.path %s", h->root);
	if (shim_cgroup_mounts_confined(mountinfo, below, own, err))
		return shim_fail_wrap(err, "container %s: a cgroup program or attach type is "
				      "delegated; refused", h->state.id);
	return 0;
}

static int act(struct hook_ctx *h, struct shim_err *err)
{
	cleanup_fd int pidfd = -1, procdir = -1, initroot = -1;
	int sock[2] = { -1, -1 };
	char path[64];
	pid_t child;
	int r, status;

	/*
	 * The pidfd first: it pins the process.  /proc/PID, opened next, is
	 * checked to be that process (it still runs after the open), and
	 * everything about it is read through that directory, which never
	 * names a process that reuses the pid.
	 */
	pidfd = sys_pidfd_open(h->state.pid, 0);
	if (pidfd < 0)
		return shim_fail(err, errno, "pidfd_open container %s init pid %d", h->state.id,
				 (int)h->state.pid);
	snprintf(path, sizeof(path), "/proc/%d", (int)h->state.pid);
	procdir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (procdir < 0)
		return shim_fail(err, errno, "open %s", path);
	if (sys_pidfd_send_signal(pidfd, 0, NULL, 0) < 0)
		return shim_fail(err, errno, "container %s init pid %d", h->state.id, (int)h->state.pid);
	initroot = openat(procdir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (initroot < 0)
		return shim_fail(err, errno, "open %s/root", path);
	if (check_container(h, procdir, initroot, err) ||
	    check_cgroup_scope(h, procdir, initroot, err))
		return -1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) < 0)
		return shim_fail(err, errno, "socketpair");
	fflush(NULL);
	child = fork();
	if (child < 0) {
		shim_fail(err, errno, "fork");
		close(sock[0]);
		close(sock[1]);
		return -1;
	}
	if (child == 0) {
		close(sock[0]);
		child_main(h, pidfd, sock[1], initroot);
	}
	close(sock[1]);
	r = serve_child(h, sock[0], err);
	close(sock[0]);
	status = wait_child(child);
	if (r == 0 && status != 0)
		return shim_fail(err, 0, "the hook's helper exited with status %d", status);
	return r;
}

static void hook_usage(FILE *out)
{
	fprintf(out,
"Usage: shim hook bpffs [--policy FILE] [--verbose]\n"
"\n"
"An OCI createRuntime hook (oci-hooks(5)) for runc, crun, podman and CRI-O:\n"
"it reads the container's state (JSON) on stdin and mounts a BPF FS owned by\n"
"the container's user namespace, with the delegate_* options the\n"
"container's annotations ask for, within the host policy.  Inside, libbpf\n"
"(1.4 or later) derives a BPF token from it on its own.\n"
"\n"
"Options:\n"
"  --policy FILE  the host policy (default %s)\n"
"  --verbose      say on stderr what the hook does\n"
"  --help         show this text\n"
"\n"
"Annotations, the container's request (shim bpf-needs --format oci prints\n"
"them for some BPF objects), each named %sOPTION:\n"
"  delegate_cmds     BPF commands: names separated by ':' or ',' (without\n"
"                    the BPF_ prefix, any case), 'any', or a number, as the\n"
"                    kernel's delegate_cmds takes them\n"
"  delegate_maps     map types (without BPF_MAP_TYPE_)\n"
"  delegate_progs    program types (without BPF_PROG_TYPE_)\n"
"  delegate_attachs  attach types (without BPF_)\n"
"  path              where the BPF FS is mounted in the container (default\n"
"                    /sys/fs/bpf); missing directories are made as the\n"
"                    container's root; elsewhere, set LIBBPF_BPF_TOKEN_PATH\n"
"\n"
"Policy:\n"
"  The file has a line OPTION = VALUE for each delegate_* option a container\n"
"  may be given, in the annotations' syntax, with the most it may be given\n"
"  (for example, delegate_maps = array:hash); '#' starts a comment.  An\n"
"  option the policy does not name may not be delegated, and without the\n"
"  file nothing may.  shim bpf-needs --format policy prints the lines for\n"
"  some BPF objects.\n"
"\n"
"Refusals:\n"
"  The hook prints one line, \"shim hook bpffs: REASON\", and exits 125; the\n"
"  runtime then aborts the container's creation and nothing stays mounted.\n"
"  It refuses a request beyond the policy, a missing or unreadable policy,\n"
"  an unknown annotation or name (names are checked against the running\n"
"  kernel's BTF), a container without a user namespace, a kernel without\n"
"  BPF tokens, a hook that is not root in the initial user namespace, and\n"
"  a path with '.' or '..' in it.  The path is looked up below the\n"
"  container's root as if it were '/': a symlink on the way cannot lead\n"
"  out, and one whose target is not in the root fails.  The BPF FS is\n"
"  mounted nosuid,nodev,noexec, as shim run mounts its own.  Without any\n"
"  annotation of its prefix it does nothing.\n"
"\n"
"Where its messages go:\n"
"  runc      passes a failed hook's stderr on in its own error\n"
"  podman    with --runtime runc, the same, in podman's error; with crun,\n"
"            as crun\n"
"  crun      drops a hook's stderr unless the annotation\n"
"            run.oci.hooks.stderr names a file for it: a file on the host,\n"
"            or /proc/self/fd/2 for crun's own stderr when crun runs alone\n"
"  CRI-O     its log\n"
"\n"
"Exit status:\n"
"  0 delegated, or nothing asked; 125 refused or failed.\n",
		SHIM_POLICY_DEFAULT, SHIM_HOOK_PREFIX);
}

enum { HOOK_OPT_HELP, HOOK_OPT_VERBOSE, HOOK_OPT_POLICY };

static const struct shim_opt hook_opts[] = {
	{ "--help", "-h", false, HOOK_OPT_HELP },
	{ "--verbose", "-v", false, HOOK_OPT_VERBOSE },
	{ "--policy", NULL, true, HOOK_OPT_POLICY },
};

int shim_hook_main(int argc, char *const argv[])
{
	struct hook_opts opts = {
		.policy = SHIM_POLICY_DEFAULT, .voice = { .who = SHIM_HOOK_WHO },
	};
	struct hook_ctx h;
	struct shim_err err = { 0 };
	int i, r;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		hook_usage(stdout);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "bpffs") != 0) {
		shim_fail(&err, 0, "unknown hook \"%s\" (valid: bpffs)", argc < 2 ? "" : argv[1]);
		shim_err_print_as("shim hook", &err);
		return SHIM_EXIT_ERROR;
	}
	for (i = 2; i < argc; i++) {
		const char *v;
		int id;

		r = shim_opt_next("shim hook", hook_opts, ARRAY_SIZE(hook_opts), argc, argv, &i, &id,
				  &v, &err);
		if (r == 0 && i < argc)
			r = shim_fail(&err, 0, "unexpected argument \"%s\" (see shim hook --help)",
				      argv[i]);
		if (r <= 0) {
			shim_err_print_as(SHIM_HOOK_WHO, &err);
			return SHIM_EXIT_ERROR;
		}
		if (id == HOOK_OPT_HELP) {
			hook_usage(stdout);
			return 0;
		}
		if (id == HOOK_OPT_VERBOSE)
			opts.voice.verbose = true;
		else
			opts.policy = v;
	}

	memset(&h, 0, sizeof(h));
	h.opts = &opts;
	r = read_inputs(&h, &err);
	if (!r)
		r = decide(&h, &err);
	if (!r && h.req.any) {
		shim_note(&h.opts->voice, "container %s (pid %d): BPF FS at %s", h.state.id, (int)h.state.pid, h.req.path);
		r = act(&h, &err);
	}
	if (r)
		shim_err_print_as(SHIM_HOOK_WHO, &err);
	hook_release(&h);
	return r ? SHIM_EXIT_ERROR : 0;
}
