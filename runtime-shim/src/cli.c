// SPDX-License-Identifier: GPL-2.0-or-later
/* Command line parsing and the usage text. */
#include <errno.h>
#include <string.h>

#include "bpffs.h"
#include "caps.h"
#include "cgroup.h"
#include "cli.h"
#include "idblock.h"
#include "idmap.h"
#include "delegate.h"
#include "opts.h"

void shim_usage(FILE *out)
{
	fputs(
"Usage: shim run [OPTIONS] --rootfs DIR [--] CMD [ARGS...]\n"
"  or:  shim ps                            (running containers, their host IDs)\n"
"  or:  shim hook bpffs [--policy FILE]    (an OCI createRuntime hook)\n"
"  or:  shim seccomp-profile [--bpf]       (the default seccomp filter, OCI JSON)\n"
"  or:  shim bpf-needs [--format F] OBJ... (the delegation BPF objects need)\n"
"  or:  shim --help | --version\n"
"\n"
"Run CMD in a new container: new user, mount, PID, UTS, IPC and cgroup\n"
"namespaces (and a new network namespace unless --net=host), with DIR as its\n"
"root file system.  The container's root user is an unprivileged range of host\n"
"IDs.  The shim stays outside as the supervisor: it forwards signals to the\n"
"container and exits with the command's status.\n"
"\n"
"Options:\n"
"  --rootfs DIR           root file system of the container (required)\n"
"  --hostname NAME        host name in the container (default: container)\n"
"  --env K=V              set an environment variable; K alone copies it from\n"
"                         the shim's environment (repeatable)\n"
"  --cwd DIR              working directory of CMD (default: /)\n"
"  -t, --tty              give CMD a new terminal (a pty of the container's\n"
"                         devpts) as its controlling terminal and stdio; the\n"
"                         shim relays its stdin/stdout to it (its own terminal\n"
"                         in raw mode) and passes its window size on, at start\n"
"                         and on SIGWINCH, as runc run -t.  Without --tty, CMD\n"
"                         shares the shim's stdio but runs in a session of its\n"
"                         own, without a controlling terminal\n"
"  --net none|host        none: a new network namespace with only loopback,\n"
"                         which is up (default); host: share the host's network\n"
"  --userns auto[:size=N] the container's IDs 0..N-1 map to a block of N host\n"
"                         IDs of its own (default: auto, N 65536), as podman's\n"
"                         --userns=auto: the blocks of the line\n"
"                         \"containers:START:COUNT\" of /etc/subuid and\n"
"                         /etc/subgid (without root, your user's line), one\n"
"                         for each running container, given back when it\n"
"                         ends (shim ps lists them).  A rootfs owned by an ID\n"
"                         of the range runs with the block that holds it, one\n"
"                         container at a time; any other gets a free block\n"
"  --uid-map IN:OUT:COUNT map container UIDs IN.. to host UIDs OUT..\n"
"                         (repeatable), instead of a block: the maps given\n"
"                         apply as they are, shared with any other container\n"
"                         given them.  Needs --gid-map too.  A range that\n"
"                         includes your own ID is refused, but your ID alone\n"
"                         (COUNT 1)\n"
"  --gid-map IN:OUT:COUNT the same for GIDs\n"
"  --allow-setgroups      let setgroups(2) work in the container (apt, su,\n"
"                         sshd need it); root only.  Default: denied.  Either\n"
"                         way the container starts with no supplementary\n"
"                         groups (without root it keeps yours: the kernel\n"
"                         lets only a privileged map writer drop them)\n"
"  --seccomp none|default|FILE\n"
"                         system call filter of CMD (default: default).\n"
"                         default: an allowlist in the spirit of Docker's\n"
"                         and podman's runtime default.  Calls not listed\n"
"                         fail with ENOSYS; ptrace, process_vm_*, kcmp,\n"
"                         setns, io_uring, the new mount API, key rings and\n"
"                         host-wide calls (modules, reboot, clocks, ...) fail\n"
"                         with EPERM, as do clone and unshare with namespace\n"
"                         flags; bpf and perf_event_open are allowed only\n"
"                         with --bpf-delegate-*.  shim seccomp-profile prints\n"
"                         it as OCI JSON; README.md lists the differences.\n"
"                         FILE has one rule per line: SYSCALL [ACTION], with\n"
"                         ACTION one of errno (EPERM, the default), errno:N or\n"
"                         errno:ENAME (any errno name: EACCES, ENOSYS, ...),\n"
"                         kill, trap, log, allow; a line\n"
"                         \"default ACTION\" sets the action of other system\n"
"                         calls (default allow); '#' starts a comment\n"
"  --cap-add LIST         capabilities CMD keeps beyond the default set\n"
"  --cap-drop LIST        capabilities CMD does not keep (repeatable; LIST:\n"
"                         names separated by ',', with or without CAP_, any\n"
"                         case, or all, as podman takes them).  CMD keeps,\n"
"                         in the container's user namespace only, podman's\n"
"                         default set (CAP_CHOWN, CAP_DAC_OVERRIDE,\n"
"                         CAP_FOWNER, CAP_FSETID, CAP_KILL,\n"
"                         CAP_NET_BIND_SERVICE, CAP_SETFCAP, CAP_SETGID,\n"
"                         CAP_SETPCAP, CAP_SETUID, CAP_SYS_CHROOT), plus, with\n"
"                         --bpf-delegate-*, CAP_BPF, CAP_NET_ADMIN for\n"
"                         network program and map types and CAP_PERFMON for\n"
"                         tracing program types (shim bpf-needs names\n"
"                         these); then --cap-add, then --cap-drop.  Never\n"
"                         CAP_SYS_ADMIN unless added.  --verbose prints the\n"
"                         set\n"
"  --no-pivot             UNSAFE: enter the rootfs with MS_MOVE+chroot instead\n"
"                         of pivot_root (as runc --no-pivot), for a host whose\n"
"                         / is the initial ramfs.  The container's root can\n"
"                         then unmount its / and reach the host's files.\n"
"\n"
"Root file system: a DIR whose owner is a host ID of the uid map (as after\n"
"chown -R to the maps' first outside IDs) is used as it is.  Another DIR,\n"
"such as one host root owns, is mounted idmapped with the container's user\n"
"namespace (mount_setattr MOUNT_ATTR_IDMAP; nothing on disk changes): its\n"
"on-disk IDs are the container's, uid 0 its root, and it is writable inside.\n"
"Where that mount fails (tmpfs before Linux 6.3, a shim without root), or\n"
"the owner is not a mapped container ID either, DIR stays read-only for the\n"
"container's root, and the shim prints one warning with the\n"
"chown -R UID:GID DIR that makes it the container's.  Missing mount points\n"
"(/proc, /sys, /dev, /tmp, --bpf-mount) are made inside DIR only.\n"
"\n"
"Cgroup and limits (as podman spells them):\n"
"  --cgroup-parent PATH   the cgroup v2 the container's cgroup is made in\n"
"                         (a path in the cgroup2 hierarchy).  Default, as\n"
"                         root without systemd: /shim; under systemd or\n"
"                         without root: the shim's own cgroup where it is\n"
"                         delegated (systemd-run [--user] --scope -p\n"
"                         Delegate=yes shim run ...), the shim moving into\n"
"                         its leaf \"supervisor\"; elsewhere the container\n"
"                         has no cgroup of its own, and a limit or a cgroup\n"
"                         program type for --bpf-delegate-* is refused.  The\n"
"                         container's cgroup, shim-PID-START-PIDNS (the\n"
"                         shim's), is its cgroup namespace's root and its\n"
"                         read-only /sys/fs/cgroup; cgroup.kill ends it with\n"
"                         the container, and a later shim removes one a\n"
"                         killed shim left\n"
"  --cgroups enabled|disabled\n"
"                         disabled: no cgroup of the container's own (as\n"
"                         podman's --cgroups=disabled); the container stays\n"
"                         in the caller's, and limits and cgroup program\n"
"                         types for --bpf-delegate-* are refused\n"
"  -m, --memory SIZE      memory.max (SIZE: a number, then b, k, m, g or t;\n"
"                         6m at least); an OOM kill is reported on stderr and\n"
"                         in --events (oom-kill, container-exit's oom_kill)\n"
"  --memory-swap SIZE     memory and swap together (memory.swap.max is\n"
"                         SIZE - --memory), -1 for unlimited swap; needs\n"
"                         --memory\n"
"  --pids-limit N         pids.max: tasks (threads too) of the container at\n"
"                         most; default 2048, -1 for none\n"
"  --cpus N               cpu.max: N CPUs' time (such as 1.5) per 100 ms\n"
"  --cpuset-cpus LIST     cpuset.cpus: the CPUs it may run on (0-3,6)\n"
"                         Limits need cgroup v2 and its controllers: on a\n"
"                         hybrid host the container's cgroup is made in v2\n"
"                         and a limit whose controller v1 holds is refused\n"
"\n"
"BPF delegation (Linux 6.9+ or this project's kernel series):\n"
"  --bpf-delegate-cmds=LIST     BPF commands the container may use\n"
"  --bpf-delegate-maps=LIST     map types\n"
"  --bpf-delegate-progs=LIST    program types\n"
"  --bpf-delegate-attachs=LIST  attach types\n"
"                         LIST: names separated by ':' or ',' (enum names\n"
"                         without their BPF_/BPF_MAP_TYPE_/BPF_PROG_TYPE_\n"
"                         prefix, any case, e.g. map_create:prog_load), 'any',\n"
"                         or numbers (a number replaces the mask built so\n"
"                         far).  Names are checked against the running\n"
"                         kernel's BTF before the container starts.\n"
"  --bpf-mount PATH       where the delegated BPF FS is mounted in the\n"
"                         container (default /sys/fs/bpf); another PATH sets\n"
"                         LIBBPF_BPF_TOKEN_PATH=PATH for CMD\n"
"\n"
"  Any --bpf-delegate-* option mounts a BPF FS owned by the container's user\n"
"  namespace with those delegate_* options; the container then creates BPF\n"
"  tokens from it (BPF_TOKEN_CREATE).  The shim (in the initial user\n"
"  namespace) sets the options on a context the container opened, as systemd,\n"
"  LXD and Incus do.  The default seccomp profile allows bpf(2) only then.\n"
"\n"
"Supervision:\n"
"  --events FILE          write events to FILE, one JSON object a line:\n"
"                         container-start, thread-exit, container-exit,\n"
"                         thread-watch, thread-watch-unsupported (README.md\n"
"                         has the fields).\n"
"                         FILE is appended to, never truncated; no symlink is\n"
"                         followed in any component of its path, and only a\n"
"                         FIFO, or a regular file of a file system that\n"
"                         stores data (ext4, xfs, btrfs, tmpfs, overlayfs,\n"
"                         ...: never procfs, sysfs or the like), is taken (a\n"
"                         device is never opened)\n"
"  --watch-threads        follow every task of the container (threads, child\n"
"                         processes and theirs) and report each one's exit as\n"
"                         a thread-exit event; needs --events FILE, and root:\n"
"                         a BPF program on the fork and exit tracepoints, or\n"
"                         where it cannot load, the process-events connector\n"
"                         (netlink CN_PROC), which takes CAP_NET_ADMIN in the\n"
"                         initial namespaces, and a PIDFD_THREAD pidfd each;\n"
"                         with CAP_SYS_NICE the shim then runs at nice -10,\n"
"                         its container at nice 0\n"
"  --verbose              say what the shim does on stderr\n"
"  --help                 show this text\n"
"  --version              show the version\n"
"\n"
"Signals: every signal sent to the shim that can be caught (all but SIGKILL,\n"
"SIGSTOP and SIGCHLD; SIGALRM, SIGPIPE and real-time signals included) is\n"
"forwarded to the container's init, which passes it to CMD, as runc's signal\n"
"proxy does; none of them ends the shim (with --tty, SIGWINCH resizes the\n"
"container's terminal instead).  SIGINT, SIGTERM, SIGHUP or SIGQUIT before\n"
"CMD started stop the setup: the container is removed, exit 128+N.  If the\n"
"shim dies, the container is killed.  With --events, container-exit is\n"
"written for every container that was created.\n"
"\n"
"Exit status:\n"
"  the exit code of CMD, or 128+N if CMD was killed by signal N;\n"
"  125 when the shim fails before CMD starts (bad option, unsupported kernel,\n"
"  mount or delegation failure); 126 when CMD cannot be executed; 127 when\n"
"  CMD is not found.\n"
"\n"
"Hardening: CMD runs with no_new_privs, the seccomp filter, and the\n"
"capabilities above, effective only in the container's user namespace.\n"
"runc's and podman's masked paths are covered (/proc/kcore, /proc/keys,\n"
"/sys/firmware, ...: an empty read-only tmpfs or /dev/null) and their\n"
"read-only paths bound read-only (/proc/sys, /proc/sysrq-trigger, /proc/bus,\n"
"/proc/fs, /proc/irq); /sys is read-only.  SECURITY.md has the whole model.\n"
"\n"
"Privileges: as root, everything above.  Without root the shim can map only\n"
"your own IDs and cannot delegate BPF: use\n"
"  shim run --uid-map 0:$(id -u):1 --gid-map 0:$(id -g):1 --rootfs DIR CMD\n"
"with a DIR you own and no --bpf-delegate-* option.\n",
	      out);
}

int shim_parse_userns(const char *v, uint32_t *size, struct shim_err *err)
{
	const char *p;

	if (strcmp(v, "auto") == 0) {
		*size = SHIM_IDBLOCK_SIZE;
		return 0;
	}
	p = v + strlen("auto:size=");
	if (strncmp(v, "auto:size=", strlen("auto:size=")) != 0 ||
	    shim_parse_u32(p, &p, size) || *p != '\0' || *size == 0)
		return shim_fail(err, 0, "--userns: \"%s\" is not auto or auto:size=N (N at least 1)", v);
	return 0;
}

static bool idmaps_overlap(const struct shim_idmaps *maps, bool outside)
{
	for (size_t i = 0; i < maps->n; i++)
		for (size_t j = i + 1; j < maps->n; j++) {
			uint64_t a = outside ? maps->map[i].outside : maps->map[i].inside;
			uint64_t b = outside ? maps->map[j].outside : maps->map[j].inside;

			if (a < b + maps->map[j].count && b < a + maps->map[i].count)
				return true;
		}
	return false;
}

static int add_idmap(struct shim_idmaps *maps, const char *opt,
		     const char *value, struct shim_err *err)
{
	if (maps->n >= SHIM_MAX_IDMAPS)
		return shim_fail(err, 0, "%s: at most %d ranges", opt, SHIM_MAX_IDMAPS);
	if (shim_parse_idmap(value, &maps->map[maps->n], err))
		return shim_fail_wrap(err, "%s", opt);
	maps->n++;
	return 0;
}

/* Every option of shim run, once: its names and whether it takes a value. */
enum shim_opt_id {
	OPT_HELP, OPT_TTY, OPT_ALLOW_SETGROUPS, OPT_NO_PIVOT, OPT_WATCH_THREADS,
	OPT_VERBOSE, OPT_ROOTFS, OPT_HOSTNAME, OPT_ENV, OPT_CWD, OPT_NET,
	OPT_UID_MAP, OPT_GID_MAP, OPT_SECCOMP, OPT_BPF_MOUNT, OPT_EVENTS,
	OPT_CAP_ADD, OPT_CAP_DROP, OPT_USERNS,
	OPT_MEMORY, OPT_MEMORY_SWAP, OPT_PIDS_LIMIT, OPT_CPUS, OPT_CPUSET_CPUS, OPT_CGROUP_PARENT,
	OPT_CGROUPS,
	OPT_DELEGATE,	/* + SHIM_DELEG_*: names from shim_deleg_flag() */
};

static const struct shim_opt run_opts[] = {
	{ "--help", "-h", false, OPT_HELP },
	{ "--tty", "-t", false, OPT_TTY },
	{ "--allow-setgroups", NULL, false, OPT_ALLOW_SETGROUPS },
	{ "--no-pivot", NULL, false, OPT_NO_PIVOT },
	{ "--watch-threads", NULL, false, OPT_WATCH_THREADS },
	{ "--verbose", "-v", false, OPT_VERBOSE },
	{ "--rootfs", NULL, true, OPT_ROOTFS },
	{ "--hostname", NULL, true, OPT_HOSTNAME },
	{ "--env", NULL, true, OPT_ENV },
	{ "--cwd", NULL, true, OPT_CWD },
	{ "--net", NULL, true, OPT_NET },
	{ "--uid-map", NULL, true, OPT_UID_MAP },
	{ "--gid-map", NULL, true, OPT_GID_MAP },
	{ "--seccomp", NULL, true, OPT_SECCOMP },
	{ "--bpf-mount", NULL, true, OPT_BPF_MOUNT },
	{ "--events", NULL, true, OPT_EVENTS },
	{ "--cap-add", NULL, true, OPT_CAP_ADD },
	{ "--cap-drop", NULL, true, OPT_CAP_DROP },
	{ "--userns", NULL, true, OPT_USERNS },
	{ "--memory", "-m", true, OPT_MEMORY },
	{ "--memory-swap", NULL, true, OPT_MEMORY_SWAP },
	{ "--pids-limit", NULL, true, OPT_PIDS_LIMIT },
	{ "--cpuset-cpus", NULL, true, OPT_CPUSET_CPUS },
	{ "--cpus", NULL, true, OPT_CPUS },
	{ "--cgroup-parent", NULL, true, OPT_CGROUP_PARENT },
	{ "--cgroups", NULL, true, OPT_CGROUPS },
	/* In SHIM_DELEG_* order, as shim_deleg_flag() names them. */
	{ "--bpf-delegate-cmds", NULL, true, OPT_DELEGATE + SHIM_DELEG_CMDS },
	{ "--bpf-delegate-maps", NULL, true, OPT_DELEGATE + SHIM_DELEG_MAPS },
	{ "--bpf-delegate-progs", NULL, true, OPT_DELEGATE + SHIM_DELEG_PROGS },
	{ "--bpf-delegate-attachs", NULL, true, OPT_DELEGATE + SHIM_DELEG_ATTACHS },
};

static int parse_run(int argc, char *const argv[], int i,
		     struct shim_config *cfg, struct shim_err *err)
{
	for (; i < argc; i++) {
		const char *v = NULL;
		int id, r;

		r = shim_opt_next("shim", run_opts, ARRAY_SIZE(run_opts), argc, argv, &i, &id, &v, err);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		switch (id) {
		case OPT_HELP:
			cfg->help = true;
			return 0;
		case OPT_TTY:
			cfg->tty = true;
			break;
		case OPT_ALLOW_SETGROUPS:
			cfg->allow_setgroups = true;
			break;
		case OPT_NO_PIVOT:
			cfg->no_pivot = true;
			break;
		case OPT_WATCH_THREADS:
			cfg->watch_threads = true;
			break;
		case OPT_VERBOSE:
			cfg->verbose = true;
			break;
		case OPT_ROOTFS:
			cfg->rootfs = v;
			break;
		case OPT_HOSTNAME:
			if (strlen(v) == 0 || strlen(v) > 64)
				return shim_fail(err, 0, "--hostname: \"%s\" must be 1 to 64 characters", v);
			cfg->hostname = v;
			break;
		case OPT_ENV:
			if (v[0] == '=' || v[0] == '\0')
				return shim_fail(err, 0, "--env: \"%s\" is not K=V or K", v);
			if (cfg->n_env >= SHIM_MAX_ENV)
				return shim_fail(err, 0, "--env: at most %d variables", SHIM_MAX_ENV);
			cfg->env[cfg->n_env++] = v;
			break;
		case OPT_CWD:
			if (v[0] != '/')
				return shim_fail(err, 0, "--cwd: \"%s\" is not an absolute path", v);
			cfg->cwd = v;
			break;
		case OPT_NET:
			if (strcmp(v, "none") == 0)
				cfg->net = SHIM_NET_NONE;
			else if (strcmp(v, "host") == 0)
				cfg->net = SHIM_NET_HOST;
			else
				return shim_fail(err, 0, "--net: unknown value \"%s\" (valid: none, host)", v);
			break;
		case OPT_UID_MAP:
			if (add_idmap(&cfg->uid_map, "--uid-map", v, err))
				return -1;
			break;
		case OPT_GID_MAP:
			if (add_idmap(&cfg->gid_map, "--gid-map", v, err))
				return -1;
			break;
		case OPT_SECCOMP:
			if (strcmp(v, "none") == 0) {
				cfg->seccomp = SHIM_SECCOMP_NONE;
			} else if (strcmp(v, "default") == 0) {
				cfg->seccomp = SHIM_SECCOMP_DEFAULT;
			} else if (v[0] == '\0') {
				return shim_fail(err, 0, "--seccomp: empty value (valid: none, default, or a file)");
			} else {
				cfg->seccomp = SHIM_SECCOMP_FILE;
				cfg->seccomp_file = v;
			}
			break;
		case OPT_BPF_MOUNT:
			if (shim_bpffs_path_check(v, "--bpf-mount", err))
				return -1;
			cfg->bpf_mount = v;
			break;
		case OPT_EVENTS:
			if (v[0] == '\0')
				return shim_fail(err, 0, "--events: empty file name");
			cfg->events_file = v;
			break;
		case OPT_CAP_ADD:
			if (shim_caps_parse("--cap-add", v, &cfg->cap_add, err))
				return -1;
			break;
		case OPT_CAP_DROP:
			if (shim_caps_parse("--cap-drop", v, &cfg->cap_drop, err))
				return -1;
			break;
		case OPT_USERNS:
			if (shim_parse_userns(v, &cfg->userns_size, err))
				return -1;
			break;
		case OPT_MEMORY:
			if (shim_parse_size("--memory", v, &cfg->limits.memory, err))
				return -1;
			break;
		case OPT_MEMORY_SWAP:
			if (strcmp(v, "-1") == 0)
				cfg->limits.memory_swap = -1;
			else if (shim_parse_size("--memory-swap", v, &cfg->limits.memory_swap, err))
				return -1;
			break;
		case OPT_PIDS_LIMIT:
			if (shim_parse_pids_limit(v, &cfg->limits.pids, err))
				return -1;
			cfg->limits.pids_given = true;
			break;
		case OPT_CPUS:
			if (shim_parse_cpus(v, &cfg->limits.cpu_quota, err))
				return -1;
			break;
		case OPT_CPUSET_CPUS:
			if (shim_parse_cpuset(v, err))
				return -1;
			cfg->limits.cpuset_cpus = v;
			break;
		case OPT_CGROUP_PARENT:
			if (shim_parse_cgroup_parent(v, err))
				return -1;
			cfg->limits.cgroup_parent = v;
			break;
		case OPT_CGROUPS:
			if (strcmp(v, "enabled") != 0 && strcmp(v, "disabled") != 0)
				return shim_fail(err, 0, "--cgroups: unknown value \"%s\" (valid: enabled, "
						 "disabled)", v);
			cfg->limits.no_cgroup = strcmp(v, "disabled") == 0;
			break;
		default:	/* OPT_DELEGATE + kind */
			if (shim_delegate_syntax_check(id - OPT_DELEGATE, v,
						       shim_deleg_flag(id - OPT_DELEGATE), err))
				return -1;
			cfg->delegate[id - OPT_DELEGATE] = v;
			break;
		}
	}

	if (!cfg->rootfs)
		return shim_fail(err, 0, "run: --rootfs DIR is required (see shim --help)");
	if (i >= argc)
		return shim_fail(err, 0, "run: no command given (see shim --help)");
	cfg->argv = &argv[i];
	if (idmaps_overlap(&cfg->uid_map, false) || idmaps_overlap(&cfg->uid_map, true))
		return shim_fail(err, 0, "--uid-map: ranges overlap");
	if (idmaps_overlap(&cfg->gid_map, false) || idmaps_overlap(&cfg->gid_map, true))
		return shim_fail(err, 0, "--gid-map: ranges overlap");
	if (cfg->userns_size && (cfg->uid_map.n || cfg->gid_map.n))
		return shim_fail(err, 0, "--userns and --uid-map/--gid-map: give one or the other");
	if (!cfg->uid_map.n != !cfg->gid_map.n)
		return shim_fail(err, 0, "%s without %s: give both, or neither for a block of "
				 "host IDs of the container's own", cfg->uid_map.n ? "--uid-map" : "--gid-map",
				 cfg->uid_map.n ? "--gid-map" : "--uid-map");
	if (!cfg->userns_size)
		cfg->userns_size = SHIM_IDBLOCK_SIZE;
	if (cfg->bpf_mount && !shim_config_delegates(cfg))
		return shim_fail(err, 0, "--bpf-mount needs at least one --bpf-delegate-* option");
	if (cfg->watch_threads && !cfg->events_file)
		return shim_fail(err, 0, "--watch-threads needs --events FILE");
	if (shim_limits_check(&cfg->limits, err))
		return -1;
	if (cfg->limits.no_cgroup && cfg->limits.cgroup_parent)
		return shim_fail(err, 0, "--cgroup-parent with --cgroups=disabled: no cgroup is made");
	if (!cfg->bpf_mount)
		cfg->bpf_mount = "/sys/fs/bpf";
	return 0;
}

int shim_parse_run(int argc, char *const argv[], struct shim_config *cfg,
		   struct shim_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->hostname = "container";
	cfg->cwd = "/";
	cfg->net = SHIM_NET_NONE;
	cfg->seccomp = SHIM_SECCOMP_DEFAULT;
	cfg->limits.pids = SHIM_PIDS_LIMIT_DEFAULT;
	return parse_run(argc, argv, 1, cfg, err);
}
