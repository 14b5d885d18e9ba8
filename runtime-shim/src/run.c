// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim run, the parent's side: prepare everything that can fail before
 * the container exists,
 * start the container's init in new namespaces with clone3(CLONE_PIDFD),
 * drive its setup (id maps, BPF FS delegation), then supervise it.
 */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bpffs.h"
#include "caps.h"
#include "cgroup.h"
#include "cli.h"
#include "idblock.h"
#include "idmap.h"
#include "container.h"
#include "events.h"
#include "kernel.h"
#include "needs.h"
#include "run.h"
#include "seccomp_prog.h"
#include "rootfs.h"
#include "rootless.h"
#include "signals.h"
#include "supervise.h"
#include "profile.h"
#include "sync.h"
#include "threads.h"
#include "tty.h"

struct shim_run {
	const struct shim_config *cfg;
	char rootfs[PATH_MAX];
	struct shim_deleg_names names;
	struct shim_delegation delegation;
	struct shim_seccomp_prog seccomp;
	sigset_t forward;
	int sigfd;
	int events_fd;
	int sock[2];
	int tty_master;		/* --tty: the container's pty, from its init */
	int pidfd;
	pid_t pid;
	uint64_t caps;			/* the command's (caps.h) */
	bool watch_threads;
	struct shim_watch watch;	/* --watch-threads: BPF or the connector */
	struct shim_cgroup cgroup;
	struct shim_voice voice;
	struct shim_idblock_lease ids;	/* the block of host IDs held while it runs */
};

static void run_release(struct shim_run *r)
{
	shim_deleg_names_free(&r->names);
	shim_seccomp_prog_release(&r->seccomp);
	shim_closep(&r->sigfd);
	shim_closep(&r->events_fd);
	shim_closep(&r->sock[0]);
	shim_closep(&r->sock[1]);
	shim_closep(&r->tty_master);
	shim_closep(&r->pidfd);
	shim_watch_release(&r->watch);
	/* Only once nothing of the container is left may its IDs go to another. */
	shim_cgroup_remove(&r->cgroup, &r->voice);
	shim_idblock_give_back(&r->ids);
}

/* Everything that can be checked before a process is created. */
static int prepare(struct shim_run *r, struct shim_err *err)
{
	const struct shim_config *cfg = r->cfg;
	struct stat st;

	if (!realpath(cfg->rootfs, r->rootfs))
		return shim_fail(err, errno, "--rootfs %s", cfg->rootfs);
	if (stat(r->rootfs, &st) < 0 || !S_ISDIR(st.st_mode))
		return shim_fail(err, ENOTDIR, "--rootfs %s", cfg->rootfs);

	if (shim_config_delegates(cfg)) {
		struct shim_err probe = { 0 };

		if (shim_bpf_token_require(cfg, &probe, err)) {
			shim_note(&r->voice, "BPF token probe: %s", probe.msg);
			return -1;
		}
		shim_note(&r->voice, "BPF token probe: %s", probe.msg);
		shim_delegation_names(&r->names, &r->voice);
		for (int k = 0; k < SHIM_DELEG_NR; k++) {
			char shown[2048];

			if (!cfg->delegate[k])
				continue;
			if (shim_delegation_set(&r->delegation, &r->names, k, cfg->delegate[k],
						shim_deleg_flag(k), err))
				return -1;
			shim_delegate_format(&r->names, k, r->delegation.mask[k], shown, sizeof(shown));
			shim_note(&r->voice, "%s=%s (mask 0x%llx: %s)", shim_deleg_option(k),
				r->delegation.value[k],
				(unsigned long long)r->delegation.mask[k], shown);
		}
	}

	/* podman's default set and what the delegation's types take, then the options. */
	if (shim_caps_resolve(shim_caps_default() |
			      (shim_config_delegates(cfg) ? shim_needs_caps_of_masks(r->delegation.mask) : 0),
			      cfg->cap_add, cfg->cap_drop, &r->caps, err))
		return -1;
	if (cfg->verbose) {
		char shown[1024];

		shim_caps_string(r->caps, shown, sizeof(shown));
		shim_note(&r->voice, "capabilities of %s: %s", cfg->argv[0], shown);
	}
	shim_profile("policy");

	if (shim_seccomp_build(cfg, &r->seccomp, err))
		return -1;
	shim_profile("seccomp-build");
	shim_note(&r->voice, "seccomp: %s", cfg->seccomp == SHIM_SECCOMP_NONE ? "none" :
		cfg->seccomp == SHIM_SECCOMP_FILE ? cfg->seccomp_file :
		shim_config_delegates(cfg) ? "default (bpf allowed)" : "default");

	if (cfg->allow_setgroups && geteuid() != 0)
		return shim_fail(err, EPERM, "--allow-setgroups"),
		       shim_fail_note(err, "only root may write the maps with setgroups allowed");

	if (cfg->events_file) {
		r->events_fd = shim_events_open(cfg->events_file, err);
		if (r->events_fd < 0)
			return -1;
	}
	if (cfg->watch_threads) {
		struct shim_err probe = { 0 }, warn = { 0 };

		shim_pidfd_thread_probe(&r->watch_threads, &probe);
		if (!r->watch_threads) {
			/* A warning: the container still runs, supervised as a whole. */
			shim_fail(&warn, 0, "--watch-threads: this kernel has no PIDFD_THREAD (%s); "
				  "supervising the container as a whole, thread exits are not reported",
				  probe.msg);
			shim_err_print(&warn);
			if (shim_event_note(r->events_fd, "thread-watch-unsupported", probe.msg, &warn))
				shim_err_print(&warn);
		}
	}

	shim_forward_signals(&r->forward);
	if (sigprocmask(SIG_BLOCK, &r->forward, NULL) < 0)
		return shim_fail(err, errno, "sigprocmask");
	r->sigfd = signalfd(-1, &r->forward, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sigfd < 0)
		return shim_fail(err, errno, "signalfd");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, r->sock) < 0)
		return shim_fail(err, errno, "socketpair");
	shim_profile("signals-events");
	return 0;
}

/* A child in new namespaces and, when the container has one, in its cgroup. */
static pid_t spawn(uint64_t flags, const struct shim_cgroup *cg, int *pidfd, struct shim_err *err)
{
	struct shim_clone_args args;
	bool fallback = false;
	int fd = -1;
	long pid;

	memset(&args, 0, sizeof(args));
	args.flags = flags | CLONE_PIDFD;
	args.pidfd = (uint64_t)(uintptr_t)&fd;
	args.exit_signal = SIGCHLD;
	if (cg->fd >= 0) {
		args.flags |= SHIM_CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cg->fd;
	}
	pid = sys_clone3(&args);
	if (pid < 0 && errno == ENOSYS) {
		/* clone3 missing (old kernel, valgrind): clone has CLONE_PIDFD too. */
		pid = syscall(SYS_clone, (unsigned long)(flags | CLONE_PIDFD | SIGCHLD),
			      NULL, &fd, NULL, NULL);
		fallback = true;
	}
	/* Its children wait for the shim: it moves them before they go on. */
	if (pid > 0 && fallback && cg->fd >= 0 && shim_cgroup_enter(cg, (pid_t)pid, err)) {
		kill((pid_t)pid, SIGKILL);
		waitpid((pid_t)pid, NULL, 0);
		close(fd);
		return -1;
	}
	if (pid < 0)
		return shim_fail(err, errno, "clone3 (new%s%s%s%s%s%s%s namespaces)",
				 flags & CLONE_NEWUSER ? " user" : "", flags & CLONE_NEWNS ? " mount" : "",
				 flags & CLONE_NEWPID ? " PID" : "", flags & CLONE_NEWUTS ? " UTS" : "",
				 flags & CLONE_NEWIPC ? " IPC" : "", flags & CLONE_NEWCGROUP ? " cgroup" : "",
				 flags & CLONE_NEWNET ? " network" : "");
	if (pid > 0)
		*pidfd = fd;
	return (pid_t)pid;
}

static int write_file(const char *path, const char *data, struct shim_err *err)
{
	cleanup_fd int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(data);

	if (fd < 0)
		return shim_fail(err, errno, "open %s", path);
	if (write(fd, data, len) != (ssize_t)len)
		return shim_fail(err, errno, "write %s \"%.*s\"", path,
				 (int)strcspn(data, "\n"), data);
	return 0;
}

static int write_idmaps(const struct shim_run *r, pid_t pid, struct shim_err *err)
{
	char path[64], buf[SHIM_MAX_IDMAPS * 40];

	/*
	 * "deny" keeps the container from dropping groups that deny it
	 * access; the shim already cleared its own groups (run()).  Only a
	 * privileged writer of the maps may leave setgroups allowed.
	 */
	snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
	if (write_file(path, r->cfg->allow_setgroups ? "allow" : "deny", err))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	if (shim_format_idmaps(&r->cfg->uid_map, buf, sizeof(buf)) < 0)
		return shim_fail(err, E2BIG, "--uid-map: too long for %s", path);
	if (write_file(path, buf, err))
		return shim_explain_idmap_failure(r->cfg, "uid", err);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	if (shim_format_idmaps(&r->cfg->gid_map, buf, sizeof(buf)) < 0)
		return shim_fail(err, E2BIG, "--gid-map: too long for %s", path);
	if (write_file(path, buf, err))
		return shim_explain_idmap_failure(r->cfg, "gid", err);
	return 0;
}

/*
 * A privileged run: the container's user, UTS, IPC, cgroup and (--net
 * none) network namespaces are made first, by a holder process that
 * does nothing else; with its ID maps written, the shim keeps a
 * descriptor of each (ns) and the holder is killed.  The init then sets
 * the rootfs up as host root in a mount namespace of the host's user
 * namespace, and only then joins these: its mount namespace, copied into
 * the container's user namespace, has every mount locked (container.c).
 */
static int make_namespaces(struct shim_run *r, uint64_t flags, struct shim_nsfds *ns,
			   int *tree, struct shim_err *err)
{
	static const struct {
		const char *name;
		size_t off;
	} links[] = {
		{ "user", offsetof(struct shim_nsfds, user) },
		{ "uts", offsetof(struct shim_nsfds, uts) },
		{ "ipc", offsetof(struct shim_nsfds, ipc) },
		{ "cgroup", offsetof(struct shim_nsfds, cgroup) },
		{ "net", offsetof(struct shim_nsfds, net) },
	};
	cleanup_fd int hpidfd = -1;
	cleanup_fd int target = -1;
	int sync[2] = { -1, -1 };
	bool own_cgroup = r->cgroup.fd >= 0;
	char path[64], byte = 0;
	pid_t holder;
	int ret = -1;

	/*
	 * A cgroup namespace is rooted where its maker is when it makes it:
	 * with a cgroup of its own, the holder makes it once in that cgroup.
	 */
	if (own_cgroup) {
		flags &= ~(uint64_t)CLONE_NEWCGROUP;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sync) < 0)
			return shim_fail(err, errno, "socketpair");
	}
	holder = spawn(flags, &r->cgroup, &hpidfd, err);
	if (holder < 0) {
		shim_closep(&sync[0]);
		shim_closep(&sync[1]);
		return -1;
	}
	if (holder == 0) {
		/* Only its namespaces matter: it waits to be killed. */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (own_cgroup && (read(sync[1], &byte, 1) != 1 || unshare(CLONE_NEWCGROUP) < 0 ||
				   write(sync[1], &byte, 1) != 1))
			_exit(SHIM_EXIT_ERROR);
		for (;;)
			pause();
	}
	if (own_cgroup) {
		bool made = write(sync[0], &byte, 1) == 1 && read(sync[0], &byte, 1) == 1;

		shim_closep(&sync[0]);
		shim_closep(&sync[1]);
		if (!made) {
			shim_fail(err, 0, "the namespace holder could not make the cgroup namespace");
			goto out;
		}
	}
	shim_profile("holder");
	if (write_idmaps(r, holder, err))
		goto out;
	shim_profile("idmaps");
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		int *fd = (int *)((char *)ns + links[i].off);

		if (strcmp(links[i].name, "net") == 0 && !(flags & CLONE_NEWNET))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)holder, links[i].name);
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0) {
			shim_fail(err, errno, "open %s", path);
			goto out;
		}
	}
	/* The idmapped copy of the rootfs needs the user namespace alone. */
	ret = shim_rootfs_for_init(r->cfg, r->rootfs, holder, &target, tree, err);
out:
	/* Our unreaped child: its PID names no other process (nor under valgrind, without pidfds). */
	kill(holder, SIGKILL);
	while (waitpid(holder, NULL, 0) < 0 && errno == EINTR)
		;
	return ret;
}

/*
 * Kill the half-made container and wait until it is gone.  The
 * container-exit event is written for every container that existed, with
 * the status the shim exits with.
 */
static void abort_container(struct shim_run *r, int status)
{
	struct shim_err ev = { 0 };
	siginfo_t info;

	/* A failure (ESRCH: it is dead already) leaves the wait below to tell. */
	shim_send_to_init(r->pidfd, r->pid, SIGKILL, &ev);
	while (waitid((idtype_t)P_PIDFD, (id_t)r->pidfd, &info, WEXITED) < 0 &&
	       errno == EINTR)
		;
	if (shim_event_container_exit(r->events_fd, r->pid, status, shim_cgroup_oom_kills(&r->cgroup),
				      &ev))
		shim_err_print(&ev);
}

/* The signals that end the shim while the container is being set up. */
static int setup_abort_fd(struct shim_err *err)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		return shim_fail(err, errno, "signalfd");
	return fd;
}

/* Wait until the setup socket is readable; 128+N when signal N asks to stop. */
static int wait_setup(int sock, int abortfd, struct shim_err *err)
{
	struct pollfd pfd[2] = {
		{ .fd = sock, .events = POLLIN },
		{ .fd = abortfd, .events = POLLIN },
	};

	for (;;) {
		struct signalfd_siginfo si;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			shim_fail(err, errno, "poll the setup socket");
			return SHIM_EXIT_ERROR;
		}
		if (pfd[1].revents & POLLIN &&
		    read(abortfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			shim_fail(err, 0, "interrupted by SIG%s during setup; the container is removed",
				  sigabbrev_np((int)si.ssi_signo));
			return 128 + (int)si.ssi_signo;
		}
		if (pfd[0].revents)
			return 0;
	}
}

/*
 * Serve the init's setup requests until it reports the command started.
 * Returns 0 when started, else the exit status to use (err set or the
 * message already printed).
 */
static int drive_setup(struct shim_run *r, struct shim_err *err)
{
	int sock = r->sock[0];
	cleanup_fd int abortfd = setup_abort_fd(err);

	if (abortfd < 0)
		return SHIM_EXIT_ERROR;
	/*
	 * SIGINT, SIGTERM, SIGHUP and SIGQUIT abort the setup.  Other
	 * signals stay queued in the signalfd meanwhile: they are forwarded
	 * to the command once it runs.
	 */
	for (;;) {
		cleanup_fd int fd = -1;
		struct shim_msg msg;
		int n;

		n = wait_setup(sock, abortfd, err);
		if (n)
			return n;
		n = shim_msg_recv(sock, &msg, &fd, err);
		if (n < 0)
			return SHIM_EXIT_ERROR;
		if (n == 0) {
			shim_fail(err, 0, "the container's init exited during setup");
			return SHIM_EXIT_ERROR;
		}
		switch (msg.type) {
		case SHIM_MSG_STARTED:
			return 0;
		case SHIM_MSG_TTY:
			if (fd < 0 || !r->cfg->tty || r->tty_master >= 0) {
				shim_fail(err, EPROTO, "unexpected pty from the container");
				return SHIM_EXIT_ERROR;
			}
			r->tty_master = shim_steal_fd(&fd);
			shim_tty_resize_to_caller(r->tty_master);
			if (shim_msg_send(sock, SHIM_MSG_TTY_ACK, 0, NULL, -1, err))
				return SHIM_EXIT_ERROR;
			break;
		case SHIM_MSG_ERROR:
			shim_fail(err, 0, "%s", msg.text);
			return msg.errnum ? msg.errnum : SHIM_EXIT_ERROR;
		case SHIM_MSG_BPF_FD:
			if (fd < 0) {
				shim_fail(err, EPROTO, "BPF FS context missing");
				return SHIM_EXIT_ERROR;
			}
			/* On failure the init gives up quietly; err says why. */
			if (shim_bpffs_grant(sock, fd, &r->delegation, err))
				return SHIM_EXIT_ERROR;
			shim_note(&r->voice, "BPF FS created for the container's user namespace; it mounts it at %s",
				r->cfg->bpf_mount);
			break;
		default:
			shim_fail(err, EPROTO, "unexpected setup message %u", msg.type);
			return SHIM_EXIT_ERROR;
		}
	}
}

/*
 * The container's own cgroup, before any of its processes exists.  Where
 * it gets none, what needs one is refused: a limit, or a program type it
 * could attach to a cgroup it does not own.
 */
static int make_cgroup(struct shim_run *r, struct shim_err *err)
{
	if (shim_cgroup_create(r->cfg, &r->cgroup, &r->voice, err))
		return shim_fail_wrap(err, "the container's cgroup");
	if (r->cgroup.fd >= 0)
		return 0;
	if (shim_limits_asked(&r->cfg->limits))
		return shim_fail(err, 0, "a limit needs a cgroup of the container's own, and "
				 "it gets none: %s", r->cgroup.why_none);
	if (shim_config_delegates(r->cfg) && shim_delegates_cgroup_types(r->delegation.mask))
		return shim_fail(err, 0, "a cgroup program or attach type is delegated, and the "
				 "container has no cgroup of its own to confine it to: %s",
				 r->cgroup.why_none);
	shim_note(&r->voice, "no cgroup of the container's own: %s", r->cgroup.why_none);
	return 0;
}

/* Default maps: a block of subordinate IDs of its own; never host root, nor the caller. */
static int resolve_idmaps(struct shim_run *r, struct shim_config *cfg, struct shim_err *err)
{
	if (!cfg->uid_map.n && shim_idblock_take(cfg, r->rootfs, &r->ids, err)) {
		if (geteuid() != 0)
			shim_fail_note(err, "without root only your own IDs: --uid-map 0:%u:1 --gid-map 0:%u:1",
				       (unsigned int)geteuid(), (unsigned int)getegid());
		return -1;
	}
	if (shim_idmaps_check_host_root(&cfg->uid_map, "--uid-map", err) ||
	    shim_idmaps_check_host_root(&cfg->gid_map, "--gid-map", err) ||
	    shim_idmaps_check_owner(&cfg->uid_map, (uint32_t)getuid(), "--uid-map", err) ||
	    shim_idmaps_check_owner(&cfg->gid_map, (uint32_t)getgid(), "--gid-map", err))
		return -1;
	return 0;
}

static int run(struct shim_config *cfg)
{
	struct shim_run r = {
		.cfg = cfg, .sigfd = -1, .events_fd = -1, .sock = { -1, -1 },
		.tty_master = -1, .pidfd = -1, .watch = SHIM_WATCH_INIT, .cgroup = SHIM_CGROUP_INIT,
		.voice = { .who = "shim", .verbose = cfg->verbose },
	};
	struct shim_supervisor sup;
	struct shim_err err = { 0 };
	uint64_t flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWUTS |
			 CLONE_NEWIPC | CLONE_NEWCGROUP;
	int status = SHIM_EXIT_ERROR;
	cleanup_fd int tree = -1;
	cleanup_fd int target = -1;
	struct shim_nsfds ns = SHIM_NSFDS_INIT;
	bool locked;

	if (prepare(&r, &err) || resolve_idmaps(&r, cfg, &err))
		goto fail;
	shim_profile("idblock");
	if (make_cgroup(&r, &err))
		goto fail;
	shim_profile("cgroup");
	/*
	 * The container must not keep the caller's supplementary groups
	 * (disk, adm, ...): they would still open host files.  Only a
	 * privileged caller can drop them; an unprivileged one's container
	 * keeps its own groups, as the kernel requires (user_namespaces(7)).
	 */
	if (setgroups(0, NULL) < 0) {
		if (errno != EPERM) {
			shim_fail(&err, errno, "setgroups(0, NULL)");
			goto fail;
		}
		shim_note(&r.voice, "not privileged: the container keeps your supplementary groups");
	}
	if (cfg->net == SHIM_NET_NONE)
		flags |= CLONE_NEWNET;

	/*
	 * As root, the mounts are made where the container cannot undo them
	 * (make_namespaces); without root, where it can (only its missing
	 * CAP_SYS_ADMIN stops it): an unprivileged user cannot make a mount
	 * namespace of the host's user namespace.
	 */
	locked = geteuid() == 0;
	if (locked) {
		fflush(NULL);
		if (make_namespaces(&r, flags & ~(uint64_t)(CLONE_NEWNS | CLONE_NEWPID), &ns, &tree,
				    &err))
			goto fail;
		flags = CLONE_NEWNS | CLONE_NEWPID;
		shim_profile("rootfs-tree");
		shim_note(&r.voice, "the container's namespaces are made; its mounts are made by host root "
			"and locked in its own mount namespace");
	}

	/*
	 * Just before the init exists, so that its first fork is seen and
	 * nothing the shim made before it (the holder) is.
	 */
	if (r.watch_threads && shim_threads_subscribe(&r.watch, r.events_fd, &err))
		goto fail;
	fflush(NULL);
	/* Without root the init makes the cgroup namespace once in its cgroup (container.c). */
	if (!locked && r.cgroup.fd >= 0)
		flags &= ~(uint64_t)CLONE_NEWCGROUP;
	r.pid = spawn(flags, &r.cgroup, &r.pidfd, &err);
	if (r.pid < 0)
		goto fail;
	if (r.pid == 0) {
		struct shim_container c = {
			.cfg = cfg, .rootfs = r.rootfs, .sock = r.sock[1],
			.seccomp = &r.seccomp, .forward = r.forward, .caps = r.caps,
			.locked = locked, .ns = ns,
			.unshare_cgroup = !locked && r.cgroup.fd >= 0,
		};

		close(r.sock[0]);
		close(r.sigfd);
		shim_container_init(&c);
	}
	shim_profile("init-clone");
	shim_closep(&r.sock[1]);
	shim_nsfds_close(&ns);
	shim_note(&r.voice, "container init is pid %d (pidfd %d)", (int)r.pid, r.pidfd);

	/*
	 * Without root, the init mounts the rootfs on a descriptor the shim
	 * opened; one the container does not own goes to it idmapped
	 * (rootfs.c).
	 */
	if (!locked &&
	    (write_idmaps(&r, r.pid, &err) ||
	     shim_rootfs_for_init(cfg, r.rootfs, r.pid, &target, &tree, &err) ||
	     shim_msg_send(r.sock[0], SHIM_MSG_ROOTFS, 0, NULL, target, &err))) {
		abort_container(&r, status);
		goto fail;
	}
	if (shim_msg_send(r.sock[0], SHIM_MSG_GO, 0, NULL, tree, &err)) {
		abort_container(&r, status);
		goto fail;
	}
	shim_closep(&target);
	shim_closep(&tree);
	status = drive_setup(&r, &err);
	if (status) {
		abort_container(&r, status);
		goto fail;
	}
	shim_closep(&r.sock[0]);
	shim_profile("started");
	shim_note(&r.voice, "%s started", cfg->argv[0]);
	if (shim_event_container_start(r.events_fd, r.pid, &err)) {
		/* The consumer of the events would miss the start: tell it, go on. */
		shim_err_print(&err);
		err.msg[0] = '\0';
	}

	sup = (struct shim_supervisor){
		.pid = r.pid, .pidfd = r.pidfd, .sigfd = r.sigfd,
		.events_fd = r.events_fd, .watch_threads = r.watch_threads, .watch = &r.watch,
		.verbose = cfg->verbose, .tty_master = r.tty_master, .cgroup = &r.cgroup,
	};
	if (shim_supervise(&sup, &status, &err)) {
		status = SHIM_EXIT_ERROR;
		abort_container(&r, status);
		goto fail;
	}
	shim_profile("command-exit");
	shim_note(&r.voice, "container exited with status %d", status);
	run_release(&r);
	shim_profile("teardown");
	return status;

fail:
	if (err.msg[0])
		shim_err_print(&err);
	shim_nsfds_close(&ns);
	run_release(&r);
	return status ? status : SHIM_EXIT_ERROR;
}

int shim_run_main(int argc, char *const argv[])
{
	struct shim_config cfg;
	struct shim_err err = { 0 };
	int parsed = shim_parse_run(argc, argv, &cfg, &err);

	shim_profile("options");
	if (parsed) {
		shim_err_print(&err);
		return SHIM_EXIT_ERROR;
	}
	if (cfg.help) {
		shim_usage(stdout);
		return 0;
	}
	return run(&cfg);
}
