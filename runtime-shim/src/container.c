// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container side: the init process (PID 1 in the new namespaces) and
 * the command it starts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "bpffs.h"
#include "caps.h"
#include "idmap.h"
#include "container.h"
#include "execstub.h"
#include "profile.h"
#include "kernel.h"
#include "loopback.h"
#include "mounts.h"
#include "status.h"
#include "sync.h"
#include "tty.h"

extern char **environ;

int shim_build_env(const struct shim_config *cfg, char **envp, size_t max,
		   char *storage, size_t storage_len, struct shim_err *err)
{
	const char *defaults[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/root",
		"container=shim",
	};
	size_t n = 0, off = 0;

	/* Later entries replace earlier ones with the same name. */
#define ADD(str) do {							\
		const char *s_ = (str);					\
		size_t klen_ = strcspn(s_, "=");			\
		size_t len_ = strlen(s_) + 1;				\
		size_t j_;						\
		for (j_ = 0; j_ < n; j_++)				\
			if (strncmp(envp[j_], s_, klen_) == 0 &&	\
			    envp[j_][klen_] == '=')			\
				break;					\
		if (j_ == n && n + 1 >= max)				\
			return shim_fail(err, E2BIG, "environment");	\
		if (off + len_ > storage_len)				\
			return shim_fail(err, E2BIG, "environment");	\
		memcpy(storage + off, s_, len_);			\
		envp[j_] = storage + off;				\
		off += len_;						\
		if (j_ == n)						\
			n++;						\
	} while (0)

	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		ADD(defaults[i]);
	if (getenv("TERM")) {
		char term[256];

		snprintf(term, sizeof(term), "TERM=%s", getenv("TERM"));
		ADD(term);
	}
	if (cfg->bpf_mount && shim_config_delegates(cfg) &&
	    strcmp(cfg->bpf_mount, "/sys/fs/bpf") != 0) {
		char tok[4096];

		snprintf(tok, sizeof(tok), "LIBBPF_BPF_TOKEN_PATH=%s", cfg->bpf_mount);
		ADD(tok);
	}
	for (size_t i = 0; i < cfg->n_env; i++) {
		const char *e = cfg->env[i];

		if (strchr(e, '=')) {
			ADD(e);
		} else if (getenv(e)) {
			char kv[4096];

			snprintf(kv, sizeof(kv), "%s=%s", e, getenv(e));
			ADD(kv);
		}
	}
#undef ADD
	envp[n] = NULL;
	return 0;
}

static int become_root(const struct shim_config *cfg, struct shim_err *err)
{
	uid_t uid = shim_idmap_root(&cfg->uid_map);
	gid_t gid = shim_idmap_root(&cfg->gid_map);

	if (setresgid(gid, gid, gid) < 0)
		return shim_fail(err, errno, "setresgid %u", gid);
	if (setresuid(uid, uid, uid) < 0)
		return shim_fail(err, errno, "setresuid %u", uid);
	return 0;
}

/* After pivot_root: the container's "/" is the root below which it goes. */
static int delegate_bpffs(const struct shim_container *c, struct shim_err *err)
{
	cleanup_fd int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root < 0)
		return shim_fail(err, errno, "open /");
	if (shim_bpffs_request(c->sock, root, c->cfg->bpf_mount, err)) {
		shim_note_rootfs_owner(err);
		return shim_fail_wrap(err, "--bpf-mount %s", c->cfg->bpf_mount);
	}
	return 0;
}

/* Where the command's setup stopped; exec_steps[] names each. */
enum exec_step {
	STEP_SIGPROCMASK,
	STEP_SETSID,
	STEP_TTY,
	STEP_CHDIR,
	STEP_ENVIRONMENT,
	STEP_CAPABILITIES,
	STEP_NO_NEW_PRIVS,
	STEP_SECCOMP,
	STEP_EXEC_STUB,
	STEP_NR,
};

static const char *const exec_steps[STEP_NR] = {
	[STEP_SIGPROCMASK] = "sigprocmask",
	[STEP_SETSID] = "setsid",
	[STEP_TTY] = "--tty: make the pty the controlling terminal",
	[STEP_CHDIR] = "chdir",
	[STEP_ENVIRONMENT] = "environment",
	[STEP_CAPABILITIES] = "capabilities",
	[STEP_NO_NEW_PRIVS] = "no_new_privs",
	[STEP_SECCOMP] = "seccomp",
	[STEP_EXEC_STUB] = "exec the shim's exec stub through /proc/self/fd",
};

/* close_range() fallback: mark every fd >= from close-on-exec. */
static void shim_cloexec_fds_from(int from)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *end;
		uint32_t fd;

		if (shim_parse_u32(de->d_name, &end, &fd) == 0 && *end == '\0' &&
		    fd >= (uint32_t)from && (int)fd != dirfd(d))
			fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	}
	closedir(d);
}

/* Close every fd but 0, 1, 2 and keep. */
static int close_fds_except(int keep, struct shim_err *err)
{
	DIR *d;
	struct dirent *de;

	if (keep < 3)
		return shim_fail(err, EBADF, "setup socket is fd %d", keep);
	if ((keep == 3 || sys_close_range(3, (unsigned int)keep - 1, 0) == 0) &&
	    sys_close_range((unsigned int)keep + 1, ~0U, 0) == 0)
		return 0;
	if (errno != ENOSYS)
		return shim_fail(err, errno, "close_range");
	/* No close_range (valgrind, old kernels): close what /proc lists. */
	d = opendir("/proc/self/fd");
	if (!d)
		return shim_fail(err, errno, "opendir /proc/self/fd");
	while ((de = readdir(d)) != NULL) {
		const char *end;
		uint32_t fd;

		if (shim_parse_u32(de->d_name, &end, &fd) == 0 && *end == '\0' &&
		    fd > 2 && (int)fd != keep && (int)fd != dirfd(d))
			close((int)fd);
	}
	closedir(d);
	return 0;
}

__attribute__((noreturn))
static void run_command(const struct shim_container *c, int report_fd, int tty, int stub)
{
	struct shim_exec_failure f = { STEP_SIGPROCMASK, 0 };
	char storage[65536];
	char *envp[SHIM_MAX_ENV + 16];
	struct shim_err err;
	sigset_t none;

	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0) {
		f.step = STEP_SIGPROCMASK;
		goto fail;
	}
	/*
	 * A session of its own: the caller's terminal is not the command's
	 * controlling terminal, so TIOCSTI cannot push input into it.
	 */
	if (setsid() < 0) {
		f.step = STEP_SETSID;
		goto fail;
	}
	/* --tty: the container's own pty is its controlling terminal and stdio. */
	if (tty >= 0) {
		if (ioctl(tty, TIOCSCTTY, 0) < 0 || dup2(tty, 0) < 0 ||
		    dup2(tty, 1) < 0 || dup2(tty, 2) < 0) {
			f.step = STEP_TTY;
			goto fail;
		}
	}
	/* Only stdin, stdout and stderr go into the container. */
	if (sys_close_range(3, ~0U, SHIM_CLOSE_RANGE_CLOEXEC) < 0)
		shim_cloexec_fds_from(3);
	if (chdir(c->cfg->cwd) < 0) {
		f.step = STEP_CHDIR;
		goto fail;
	}
	if (shim_build_env(c->cfg, envp, ARRAY_SIZE(envp), storage, sizeof(storage), &err)) {
		/* Too much environment is a setup error (125), not an exec failure. */
		f.step = STEP_ENVIRONMENT;
		errno = err.errnum;
		goto fail;
	}
	environ = envp;
	shim_profile("command-prep");
	/* The bounding set decides what exec as root gives: caps and no more. */
	if (shim_caps_limit(c->caps, &err)) {
		f.step = STEP_CAPABILITIES;
		errno = err.errnum;
		goto fail;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		f.step = STEP_NO_NEW_PRIVS;
		goto fail;
	}
	shim_profile("command-caps");
	if (c->seccomp->fprog.len) {
		int r = shim_seccomp_prog_load(c->seccomp);

		if (r < 0) {
			f.step = STEP_SECCOMP;
			errno = -r;
			goto fail;
		}
	}
	shim_profile("seccomp-load");
	/* The command is executed by the stub, never by this copy of the shim (execstub.h). */
	f.step = STEP_EXEC_STUB;
	shim_exec_stub_run(stub, report_fd, c->cfg->argv, environ);
fail:
	f.errnum = errno;
	if (write(report_fd, &f, sizeof(f)) < 0)
		_exit(SHIM_EXIT_ERROR);
	_exit(SHIM_EXIT_ERROR);
}

__attribute__((noreturn))
static void fail_setup(const struct shim_container *c, struct shim_err *err,
		       int status)
{
	struct shim_err ignore;

	shim_msg_send(c->sock, SHIM_MSG_ERROR, status, err->msg, -1, &ignore);
	_exit(status);
}

/* Keep only stdio and the setup socket: not the events file, not the caller's fds. */
static int close_inherited(const struct shim_container *c, struct shim_err *err)
{
	return close_fds_except(c->sock, err);
}

/*
 * Root of the user namespace, as a process nothing in the container may
 * look into through /proc/1: not its fds, memory or exe.  Only now: a
 * non-dumpable init's /proc/PID/{uid,gid}_map belong to host root, and
 * an unprivileged shim has written them by GO.  Nothing of the container
 * runs yet.
 */
static int become_container_root(const struct shim_container *c, struct shim_err *err)
{
	if (become_root(c->cfg, err))
		return -1;
	/* Changing credentials cleared it: set it again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return shim_fail(err, errno, "prctl PR_SET_PDEATHSIG");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return shim_fail(err, errno, "prctl PR_SET_DUMPABLE 0");
	return 0;
}

static int join(int *fd, int type, const char *what, struct shim_err *err)
{
	if (*fd < 0)
		return 0;
	if (setns(*fd, type) < 0)
		return shim_fail(err, errno, "setns into the container's %s namespace", what);
	shim_closep(fd);
	return 0;
}

/*
 * Host name and network, once in the container's UTS and network
 * namespaces; root_gid is the container's gid 0 as the caller's user
 * namespace names it.
 */
static int setup_host_and_net(const struct shim_container *c, gid_t root_gid,
			      struct shim_err *err)
{
	if (sethostname(c->cfg->hostname, strlen(c->cfg->hostname)) < 0)
		return shim_fail(err, errno, "sethostname %s", c->cfg->hostname);
	/* A new network namespace: "only loopback" means loopback up. */
	if (c->cfg->net == SHIM_NET_NONE &&
	    (shim_loopback_up(err) || shim_ping_groups(root_gid, err)))
		return -1;
	return 0;
}

/*
 * Without root: the init starts in all the container's namespaces and
 * builds the rootfs as the container's root, on the directory the shim
 * opened.  Its mounts are its own: only its missing CAP_SYS_ADMIN keeps
 * the command from undoing them.
 */
static int setup_in_userns(const struct shim_container *c, struct shim_err *err)
{
	cleanup_fd int target = -1;
	cleanup_fd int tree = -1;
	struct shim_msg msg;
	int r;

	if (close_inherited(c, err))
		return -1;
	/* The rootfs directory, then GO, with the rootfs idmapped when the shim made one. */
	r = shim_msg_recv(c->sock, &msg, &target, err);
	if (r <= 0 || msg.type != SHIM_MSG_ROOTFS || target < 0)
		_exit(SHIM_EXIT_ERROR);	/* the shim is gone or gave up */
	r = shim_msg_recv(c->sock, &msg, &tree, err);
	if (r <= 0 || msg.type != SHIM_MSG_GO)
		_exit(SHIM_EXIT_ERROR);
	if (c->unshare_cgroup && unshare(CLONE_NEWCGROUP) < 0)
		return shim_fail(err, errno, "unshare the cgroup namespace in the container's cgroup");
	if (become_container_root(c, err) || setup_host_and_net(c, 0, err))
		return -1;
	return shim_setup_rootfs(c->rootfs, target, &tree, c->cfg->net, c->cfg->no_pivot, err);
}

/*
 * As root: the init starts as host root, in new mount and PID namespaces
 * of the host's user namespace.  It joins the container's other
 * namespaces, builds the rootfs (its path walked with host root's
 * credentials, so directories only root may cross are fine; files made
 * in it as the container's root), pivots, and only then joins the user
 * namespace and copies its mount namespace into it.  The kernel locks
 * every mount of that copy to its parent, with its read-only, nosuid,
 * nodev and noexec flags: whatever capabilities the command holds in its
 * user namespace, it cannot unmount, remount or uncover them.
 */
static int setup_locked(const struct shim_container *c, struct shim_err *err)
{
	struct shim_nsfds ns = c->ns;
	cleanup_fd int target = -1;
	cleanup_fd int root = -1;
	cleanup_fd int tree = -1;
	struct shim_msg msg;
	uid_t uid = 0;
	gid_t gid = 0;
	int r;

	r = shim_msg_recv(c->sock, &msg, &tree, err);
	if (r <= 0 || msg.type != SHIM_MSG_GO)
		_exit(SHIM_EXIT_ERROR);
	shim_idmap_to_host(&c->cfg->uid_map, shim_idmap_root(&c->cfg->uid_map), &uid);
	shim_idmap_to_host(&c->cfg->gid_map, shim_idmap_root(&c->cfg->gid_map), &gid);
	if (join(&ns.uts, CLONE_NEWUTS, "UTS", err) || join(&ns.ipc, CLONE_NEWIPC, "IPC", err) ||
	    join(&ns.cgroup, CLONE_NEWCGROUP, "cgroup", err) ||
	    join(&ns.net, CLONE_NEWNET, "network", err) || setup_host_and_net(c, gid, err))
		return -1;
	target = open(c->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (target < 0)
		return shim_fail(err, errno, "open %s", c->rootfs);
	root = shim_place_rootfs(c->rootfs, target, &tree, err);
	if (root < 0)
		return -1;
	/*
	 * Missing mount points are the container root's, as when it makes
	 * them, and through an idmapped rootfs only its IDs can be written.
	 * A non-root fsuid also drops the file capabilities.
	 */
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid)
		return shim_fail(err, EPERM, "setfsuid %u / setfsgid %u", (unsigned int)uid,
				 (unsigned int)gid);
	if (shim_build_rootfs(c->rootfs, shim_steal_fd(&root), c->cfg->net, c->cfg->no_pivot, err))
		return -1;
	setfsuid(0);
	setfsgid(0);
	if (join(&ns.user, CLONE_NEWUSER, "user", err))
		return -1;
	if (unshare(CLONE_NEWNS) < 0)
		return shim_fail(err, errno, "unshare the mount namespace into the container's "
				 "user namespace");
	shim_closep(&target);
	return close_inherited(c, err);
}

void shim_container_init(const struct shim_container *c)
{
	struct shim_err err = { 0 };
	struct shim_msg msg;
	struct shim_exec_failure f;
	sigset_t mask;
	int junk = -1, tty = -1, pipefd[2], sfd, stub, r;
	ssize_t n;
	pid_t cmd;

	/*
	 * Out of the caller's session: its terminal's signals (^C) reach the
	 * shim, which forwards them once, and nothing of the container has
	 * the caller's terminal as controlling terminal.
	 */
	if (setsid() < 0) {
		shim_fail(&err, errno, "setsid");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	/* If the shim dies, so do we, and with us the whole PID namespace. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		shim_fail(&err, errno, "prctl PR_SET_PDEATHSIG");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	if ((c->locked ? setup_locked(c, &err) : setup_in_userns(c, &err)) ||
	    become_container_root(c, &err))
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	shim_profile("init-mounts");
	if (shim_config_delegates(c->cfg)) {
		if (delegate_bpffs(c, &err))
			fail_setup(c, &err, SHIM_EXIT_ERROR);
		shim_profile("init-bpffs");
	}

	if (c->cfg->tty) {
		cleanup_fd int master = shim_tty_open_pty(&tty, &err);

		if (master < 0 ||
		    shim_msg_send(c->sock, SHIM_MSG_TTY, 0, NULL, master, &err))
			fail_setup(c, &err, SHIM_EXIT_ERROR);
		/* The command starts with the caller's window size. */
		r = shim_msg_recv(c->sock, &msg, &junk, &err);
		if (r <= 0 || msg.type != SHIM_MSG_TTY_ACK)
			_exit(SHIM_EXIT_ERROR);
	}

	/* The forwarded signals are blocked since the shim started. */
	mask = c->forward;
	sigaddset(&mask, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		shim_fail(&err, errno, "sigprocmask");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		shim_fail(&err, errno, "signalfd");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		shim_fail(&err, errno, "pipe");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	/* The container's own copy of the stub, made by its root (execstub.h). */
	stub = shim_exec_stub_open(&err);
	if (stub < 0)
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	shim_profile("init-signals");
	cmd = fork();
	if (cmd < 0) {
		shim_fail(&err, errno, "fork the command");
		fail_setup(c, &err, SHIM_EXIT_ERROR);
	}
	if (cmd == 0) {
		close(pipefd[0]);
		close(sfd);
		close(c->sock);
		run_command(c, pipefd[1], tty, stub);
	}
	close(stub);
	close(pipefd[1]);
	if (tty >= 0)
		close(tty);	/* the command's now: the pty ends when it does */
	do {
		n = read(pipefd[0], &f, sizeof(f));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == (ssize_t)sizeof(f)) {
		int status = SHIM_EXIT_ERROR;

		waitpid(cmd, NULL, 0);
		if (f.step == SHIM_EXEC_STEP_COMMAND)
			status = f.errnum == ENOENT ? SHIM_EXIT_NOT_FOUND : SHIM_EXIT_CANNOT_EXEC;
		if (f.step == STEP_CHDIR)
			shim_fail(&err, f.errnum, "chdir %s", c->cfg->cwd);
		else if (f.step == SHIM_EXEC_STEP_COMMAND)
			shim_fail(&err, f.errnum, "exec %s", c->cfg->argv[0]);
		else
			shim_fail(&err, f.errnum, "%s", (unsigned int)f.step < STEP_NR ?
				  exec_steps[f.step] : "command setup");
		fail_setup(c, &err, status);
	}
	if (shim_msg_send(c->sock, SHIM_MSG_STARTED, 0, NULL, -1, &err))
		_exit(SHIM_EXIT_ERROR);
	close(c->sock);

	for (;;) {
		struct signalfd_siginfo si;

		n = read(sfd, &si, sizeof(si));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(si))
			_exit(SHIM_EXIT_ERROR);
		if (si.ssi_signo != SIGCHLD) {
			kill(cmd, (int)si.ssi_signo);
			continue;
		}
		/* Reap everything: we are PID 1 and inherit orphans. */
		for (;;) {
			int status;
			pid_t p = waitpid(-1, &status, WNOHANG);

			if (p <= 0)
				break;
			if (p == cmd)
				_exit(shim_exit_status(status));
		}
	}
}
