// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --watch-threads through the kernel's process-events connector (netlink
 * NETLINK_CONNECTOR, group CN_IDX_PROC), where the BPF program
 * (threads_bpf.c) cannot load.  The connector reports every fork and
 * exit on the host as it happens; the shim subscribes before the
 * container exists and follows the tasks that descend from the
 * container's init: a new thread of a followed process, or a new process
 * whose parent is followed.  Each followed thread gets a PIDFD_THREAD
 * pidfd, readable once that thread has exited, and its exit is reported
 * once: by its connector exit event or its pidfd, whichever comes first.
 * A thread reported through its pidfd is still known until its exit
 * event is read, so that the threads and children it started, whose fork
 * events come before that event, are still recognised as the container's.
 *
 * Nothing is lost silently: when the socket overflows (ENOBUFS) the shim
 * says so in an event and rescans /proc for the container's PID namespace;
 * followed threads keep their pidfds through the gap.  When the fd limit
 * stops a pidfd, the shim says so and still reports that thread's exit
 * from the connector.
 *
 * A supervisor that is busy finds many datagrams queued: it takes them
 * in one recvmmsg(), and a thread whose exit is already among them gets
 * no pidfd, since its exit is known.  Its exits are written in one line
 * each but in one write, once what epoll returned has been handled.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <search.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "kernel.h"
#include "threads_backend.h"

/* Room for the events of a burst of thread starts while the shim is busy. */
#define SHIM_CN_RCVBUF (64 << 20)
/* Datagrams taken per wakeup, so signals and the pty are served in between. */
#define SHIM_CN_BATCH 4096
/* Datagrams per recvmmsg(); one process event each, ~100 bytes. */
#define SHIM_CN_RECV 64
#define SHIM_CN_DGRAM 1024
/* shim_cn_parse() takes up to this many events from a datagram. */
#define SHIM_CN_PER_DGRAM 16
/*
 * The most datagrams the socket can hold: SO_RCVBUF is doubled by the
 * kernel, and each datagram is charged well over 512 bytes of it.
 */
#define SHIM_CN_QUEUED_MAX (SHIM_CN_RCVBUF * 2L / 512)

struct shim_thread {
	pid_t tid;
	pid_t tgid;
	int fd;			/* PIDFD_THREAD pidfd, or -1 */
	bool reported;		/* exit said; kept until the connector's exit event */
};

struct shim_proc {
	pid_t tgid;
	size_t threads;		/* followed threads of this process */
};

void shim_pidfd_thread_probe(bool *supported, struct shim_err *why)
{
	int fd = sys_pidfd_open(getpid(), SHIM_PIDFD_THREAD);

	*supported = fd >= 0;
	if (fd >= 0) {
		close(fd);
		shim_fail(why, 0, "pidfd_open(PIDFD_THREAD): ok");
		return;
	}
	shim_fail(why, errno, "pidfd_open(PIDFD_THREAD)");
}

/*
 * An event the stream did not take.  Said on stderr the first time only:
 * a reader that went away would otherwise cost a line per thread.
 */
/* ---- the connector ------------------------------------------------- */

int shim_threads_connector_subscribe(struct shim_err *err)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	/* nlmsghdr, cn_msg, then the operation: 40 bytes, 4-aligned. */
	uint32_t buf[NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof(uint32_t)) / 4];
	struct nlmsghdr *nl = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nl);
	uint32_t op = PROC_CN_MCAST_LISTEN;
	int size = SHIM_CN_RCVBUF;
	cleanup_fd int fd = -1;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_CONNECTOR);
	if (fd < 0)
		return shim_fail(err, errno, "--watch-threads: socket(NETLINK_CONNECTOR)");
	/* Beyond rmem_max needs CAP_NET_ADMIN, which binding the group needs anyway. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) < 0)
		return shim_fail(err, errno, "--watch-threads: SO_RCVBUF %d", size);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		shim_fail(err, errno, "--watch-threads: bind the process-events connector (CN_IDX_PROC)");
		if (errno == EPERM)
			shim_fail_note(err, "it needs CAP_NET_ADMIN in the initial namespaces: run the shim as root");
		return -1;
	}
	memset(buf, 0, sizeof(buf));
	nl->nlmsg_len = sizeof(buf);
	nl->nlmsg_type = NLMSG_DONE;
	nl->nlmsg_pid = 0;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(op);
	memcpy(cn->data, &op, sizeof(op));
	sa.nl_groups = 0;	/* to the kernel */
	if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return shim_fail(err, errno, "--watch-threads: PROC_CN_MCAST_LISTEN");
	return shim_steal_fd(&fd);
}

/*
 * The BPF program and the connector report the host's IDs: the shim must
 * see them as they are, in the initial PID namespace (one NSpid entry).
 */
int shim_cn_parse(const void *buf, size_t len, struct shim_cn_event *out,
		  size_t max, struct shim_err *err)
{
	const struct nlmsghdr *nl = buf;
	int n = 0;
	int rest = (int)len;

	if (len > INT32_MAX)
		return shim_fail(err, EMSGSIZE, "connector message of %zu bytes", len);
	for (; NLMSG_OK(nl, rest); nl = NLMSG_NEXT(nl, rest)) {
		const struct cn_msg *cn = NLMSG_DATA(nl);
		const struct proc_event *ev;
		size_t payload = nl->nlmsg_len - NLMSG_HDRLEN;

		if (nl->nlmsg_type == NLMSG_NOOP)
			continue;
		if (nl->nlmsg_type == NLMSG_ERROR || nl->nlmsg_type == NLMSG_OVERRUN)
			return shim_fail(err, EPROTO, "connector: netlink message type %u",
					 nl->nlmsg_type);
		if (payload < sizeof(*cn) || cn->len > payload - sizeof(*cn))
			return shim_fail(err, EPROTO, "connector: message of %zu bytes, cn_msg says %u",
					 payload, payload < sizeof(*cn) ? 0 : cn->len);
		if (cn->id.idx != CN_IDX_PROC || cn->id.val != CN_VAL_PROC)
			continue;
		/* Up to the fork/exit members: the union is as long as its largest member. */
		if (cn->len < offsetof(struct proc_event, event_data) +
			      sizeof(struct fork_proc_event))
			return shim_fail(err, EPROTO, "connector: process event of %u bytes", cn->len);
		ev = (const struct proc_event *)cn->data;
		if ((size_t)n == max)
			return shim_fail(err, ENOBUFS, "connector: more than %zu events in a message", max);
		if (ev->what == PROC_EVENT_FORK) {
			out[n++] = (struct shim_cn_event){
				.kind = SHIM_CN_FORK,
				.tid = ev->event_data.fork.child_pid,
				.tgid = ev->event_data.fork.child_tgid,
				.parent_tid = ev->event_data.fork.parent_pid,
				.parent_tgid = ev->event_data.fork.parent_tgid,
			};
		} else if (ev->what == PROC_EVENT_EXIT) {
			out[n++] = (struct shim_cn_event){
				.kind = SHIM_CN_EXIT,
				.tid = ev->event_data.exit.process_pid,
				.tgid = ev->event_data.exit.process_tgid,
			};
		}
	}
	if (rest > 0 && rest >= (int)sizeof(struct nlmsghdr))
		return shim_fail(err, EPROTO, "connector: truncated netlink message");
	return n;
}

/* ---- the followed threads ---------------------------------------------- */

static int cmp_thread(const void *a, const void *b)
{
	pid_t x = ((const struct shim_thread *)a)->tid, y = ((const struct shim_thread *)b)->tid;

	return (x > y) - (x < y);
}

static int cmp_proc(const void *a, const void *b)
{
	pid_t x = ((const struct shim_proc *)a)->tgid, y = ((const struct shim_proc *)b)->tgid;

	return (x > y) - (x < y);
}

static struct shim_thread *find_thread(const struct shim_threads *t, pid_t tid)
{
	struct shim_thread key = { .tid = tid };
	struct shim_thread **p = tfind(&key, &t->cn.threads, cmp_thread);

	return p ? *p : NULL;
}

static struct shim_proc *find_proc(const struct shim_threads *t, pid_t tgid)
{
	struct shim_proc key = { .tgid = tgid };
	struct shim_proc **p = tfind(&key, &t->cn.procs, cmp_proc);

	return p ? *p : NULL;
}

/*
 * The soft limit goes to the hard one at start; at EMFILE root may raise
 * both, up to fs.nr_open.  Returns 0 if there is more room now.
 */
static int raise_nofile(void)
{
	struct rlimit rl;
	unsigned long nr_open = 0;
	FILE *f;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		return setrlimit(RLIMIT_NOFILE, &rl);
	}
	f = fopen("/proc/sys/fs/nr_open", "re");
	if (!f)
		return -1;
	if (fscanf(f, "%lu", &nr_open) != 1)
		nr_open = 0;
	fclose(f);
	if (rl.rlim_max >= nr_open)
		return -1;
	rl.rlim_cur = rl.rlim_max = nr_open;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

static int open_pidfd(struct shim_threads *t, pid_t tid)
{
	int fd = sys_pidfd_open(tid, SHIM_PIDFD_THREAD);

	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && raise_nofile() == 0)
		fd = sys_pidfd_open(tid, SHIM_PIDFD_THREAD);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && !t->cn.fd_limit_noted) {
		struct shim_err warn = { 0 };

		/* The event's detail, then the same on stderr with the option. */
		shim_fail(&warn, 0, "pidfd_open %d: %s: threads from here on are followed "
			  "through the connector only", (int)tid, strerror(errno));
		shim_threads_note(t, "thread-watch-fd-limit", warn.msg);
		shim_fail_wrap(&warn, "--watch-threads");
		shim_err_print(&warn);
		t->cn.fd_limit_noted = true;
	}
	return fd;
}

static void forget(struct shim_threads *t, struct shim_thread *th);

/*
 * Follow a thread of the container (once), with a pidfd when it can have
 * one and its exit is not already known (with_pidfd false).
 */
static int follow(struct shim_threads *t, pid_t tid, pid_t tgid, bool with_pidfd,
		  struct shim_err *err)
{
	struct shim_thread *th;
	struct shim_proc *pr;

	th = find_thread(t, tid);
	if (th && !th->reported)
		return 0;
	/* A reported thread whose exit event was lost: the tid is new again. */
	if (th)
		forget(t, th);
	th = calloc(1, sizeof(*th));
	if (!th)
		return shim_fail(err, errno, "thread table");
	th->tid = tid;
	th->tgid = tgid;
	/* ESRCH: gone already; its exit event is still to come. */
	th->fd = with_pidfd ? open_pidfd(t, tid) : -1;
	if (th->fd >= 0) {
		struct epoll_event ev = {
			.events = EPOLLIN,
			.data.u64 = shim_loop_data(SHIM_LOOP_THREAD, (uint32_t)tid),
		};

		if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, th->fd, &ev) < 0) {
			int e = errno;

			close(th->fd);
			free(th);
			return shim_fail(err, e, "epoll_ctl thread %d", (int)tid);
		}
	}
	pr = find_proc(t, tgid);
	if (!pr) {
		/* Keyed before it goes in: the tree is ordered by tgid. */
		pr = calloc(1, sizeof(*pr));
		if (pr)
			pr->tgid = tgid;
		if (!pr || !tsearch(pr, &t->cn.procs, cmp_proc)) {
			free(pr);
			if (th->fd >= 0)
				close(th->fd);
			free(th);
			return shim_fail(err, ENOMEM, "process table");
		}
	}
	if (!tsearch(th, &t->cn.threads, cmp_thread)) {
		if (th->fd >= 0)
			close(th->fd);
		free(th);
		return shim_fail(err, ENOMEM, "thread table");
	}
	pr->threads++;
	return 0;
}

/* Report a followed thread's exit, once. */
static void report(struct shim_threads *t, struct shim_thread *th)
{
	if (th->reported)
		return;
	if (th->fd >= 0) {
		epoll_ctl(t->epfd, EPOLL_CTL_DEL, th->fd, NULL);
		close(th->fd);
		th->fd = -1;
	}
	shim_threads_exit(t, th->tid, th->tgid);
	th->reported = true;
}

/*
 * Stop following a reported thread (its pidfd went with the report); its
 * process goes with its last thread.
 */
static void forget(struct shim_threads *t, struct shim_thread *th)
{
	struct shim_proc *pr = find_proc(t, th->tgid);

	tdelete(th, &t->cn.threads, cmp_thread);
	if (pr && --pr->threads == 0) {
		tdelete(pr, &t->cn.procs, cmp_proc);
		free(pr);
	}
	free(th);
}

/* An exit in a batch of events: the task and the event's place. */
struct batch_exit {
	pid_t tid;
	size_t at;
};

static int cmp_batch_exit(const void *a, const void *b)
{
	const struct batch_exit *x = a, *y = b;

	if (x->tid != y->tid)
		return (x->tid > y->tid) - (x->tid < y->tid);
	return (x->at > y->at) - (x->at < y->at);
}

/* Whether tid exits after the event at `at`: exits sorted by tid, then place. */
static bool exits_after(const struct batch_exit *exits, size_t n, pid_t tid, size_t at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (exits[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && exits[lo].tid == tid; lo++)
		if (exits[lo].at > at)
			return true;
	return false;
}

/* A batch of connector events, in the order the kernel sent them. */
static int on_events(struct shim_threads *t, const struct shim_cn_event *evs, size_t n,
		     struct batch_exit *exits, struct shim_err *err)
{
	size_t n_exits = 0;

	for (size_t i = 0; i < n; i++)
		if (evs[i].kind == SHIM_CN_EXIT)
			exits[n_exits++] = (struct batch_exit){ .tid = evs[i].tid, .at = i };
	qsort(exits, n_exits, sizeof(*exits), cmp_batch_exit);

	for (size_t i = 0; i < n; i++) {
		const struct shim_cn_event *ev = &evs[i];
		struct shim_thread *th;

		if (ev->kind == SHIM_CN_EXIT) {
			th = find_thread(t, ev->tid);
			if (th) {
				report(t, th);
				forget(t, th);
			}
			continue;
		}
		/* A new thread of a followed process, or a child of one. */
		if ((find_proc(t, ev->tgid) || find_proc(t, ev->parent_tgid)) &&
		    follow(t, ev->tid, ev->tgid, !exits_after(exits, n_exits, ev->tid, i), err))
			return -1;
	}
	return 0;
}

/* ---- rescans after a loss ----------------------------------------------- */

static bool task_exists(pid_t tgid, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)tgid, (int)tid);
	return access(path, F_OK) == 0;
}

static int scan_tasks(struct shim_threads *t, pid_t pid, struct shim_err *err)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (r == 0 && (de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid > 0)
			r = follow(t, tid, pid, true, err);
	}
	closedir(d);
	return r;
}

/* Every task in the container's PID namespace now is followed. */
static int rescan(struct shim_threads *t, struct shim_err *err)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int r = 0;

	if (!d)
		return shim_fail(err, errno, "opendir /proc");
	while (r == 0 && (de = readdir(d)) != NULL) {
		char path[64];
		struct stat st;
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
		if (stat(path, &st) < 0 || st.st_ino != t->cn.ns_ino || st.st_dev != t->cn.ns_dev)
			continue;
		r = scan_tasks(t, pid, err);
	}
	closedir(d);
	return r;
}

struct thread_list {
	struct shim_thread **v;
	size_t n, cap;
	bool only_gone;
};

static void collect(const void *node, VISIT which, void *closure)
{
	struct shim_thread *th = *(struct shim_thread *const *)node;
	struct thread_list *l = closure;

	if (which != postorder && which != leaf)
		return;
	if (l->only_gone && (th->fd >= 0 || task_exists(th->tgid, th->tid)))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct shim_thread **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return;	/* the rest stay followed; finish() reports them */
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = th;
}

/*
 * Report followed threads: all, or (only_gone) those without a pidfd that
 * are no longer in /proc, whose exit events may be among the lost ones.
 * Collected first: the tree cannot change during twalk.
 */
static void report_all(struct shim_threads *t, bool only_gone)
{
	struct thread_list l = { .only_gone = only_gone };

	twalk_r(t->cn.threads, collect, &l);
	for (size_t i = 0; i < l.n; i++) {
		report(t, l.v[i]);
		forget(t, l.v[i]);
	}
	free(l.v);
}

static int on_loss(struct shim_threads *t, struct shim_err *err)
{
	static const char detail[] =
		"the process-events connector dropped events (socket buffer full); "
		"rescanning the container's PID namespace: a thread that started and "
		"ended within the gap is not reported";

	shim_threads_lost(t, detail);
	report_all(t, true);
	return rescan(t, err);
}

/* ---- the supervisor's side ------------------------------------------------ */

/*
 * Take what the connector has queued, up to SHIM_CN_BATCH datagrams:
 * 0 once recvmmsg() says EAGAIN, 1 if more may be queued, -1 on failure.
 */
static int drain(struct shim_threads *t, struct shim_err *err)
{
	union {
		struct nlmsghdr nl;
		char b[SHIM_CN_DGRAM];
	} buf[SHIM_CN_RECV];
	struct sockaddr_nl from[SHIM_CN_RECV];
	struct iovec iov[SHIM_CN_RECV];
	struct mmsghdr msgs[SHIM_CN_RECV];
	struct shim_cn_event evs[SHIM_CN_RECV * SHIM_CN_PER_DGRAM];
	struct batch_exit exits[ARRAY_SIZE(evs)];

	for (int round = 0; round < SHIM_CN_BATCH / SHIM_CN_RECV; round++) {
		size_t n = 0;
		int got;

		for (int i = 0; i < SHIM_CN_RECV; i++) {
			iov[i] = (struct iovec){ .iov_base = &buf[i], .iov_len = sizeof(buf[i]) };
			msgs[i] = (struct mmsghdr){ .msg_hdr = {
				.msg_name = &from[i], .msg_namelen = sizeof(from[i]),
				.msg_iov = &iov[i], .msg_iovlen = 1,
			} };
		}
		got = recvmmsg(t->cn.fd, msgs, SHIM_CN_RECV, MSG_DONTWAIT, NULL);
		if (got < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				if (on_loss(t, err))
					return -1;
				continue;
			}
			return shim_fail(err, errno, "recv from the process-events connector");
		}
		for (int i = 0; i < got; i++) {
			int k;

			/* Only the kernel speaks for the connector; anyone may unicast to us. */
			if (msgs[i].msg_hdr.msg_namelen != sizeof(from[i]) || from[i].nl_pid != 0)
				continue;
			k = shim_cn_parse(&buf[i], msgs[i].msg_len, evs + n,
					  SHIM_CN_PER_DGRAM, err);
			if (k < 0)
				return -1;
			n += (size_t)k;
		}
		if (on_events(t, evs, n, exits, err))
			return -1;
		/*
		 * Fewer than asked for is not yet an empty socket: an overrun
		 * met after the first datagram is kept for the next call, and
		 * only that call says ENOBUFS.
		 */
	}
	return 1;
}

/*
 * A failure to read the connector stops following new threads; it is said
 * on stderr and in an event, and followed threads keep their pidfds.
 */
static void stop(struct shim_threads *t, const struct shim_err *err)
{
	struct shim_err warn = { 0 };

	shim_fail(&warn, 0, "--watch-threads: %s; new threads are no longer followed", err->msg);
	shim_err_print(&warn);
	shim_threads_note(t, "thread-watch-failed", err->msg);
	epoll_ctl(t->epfd, EPOLL_CTL_DEL, t->cn.fd, NULL);
	t->cn.fd = -1;
}

/* The socket, or a thread's pidfd (its TID in low), is readable. */
static void cn_readable(struct shim_threads *t, enum shim_loop_tag tag, uint32_t low)
{
	struct shim_err err;
	struct shim_thread *th;

	if (tag == SHIM_LOOP_CONNECTOR) {
		if (t->cn.fd >= 0 && drain(t, &err) < 0)
			stop(t, &err);
		return;
	}
	if (tag != SHIM_LOOP_THREAD)
		return;
	th = find_thread(t, (pid_t)low);
	if (!th)
		return;
	report(t, th);
	/*
	 * Kept until the connector's exit event for it: the forks it made
	 * are queued before that event, and a new thread or child is
	 * followed only while its process or parent still is.  A supervisor
	 * that fell behind would otherwise drop a process whose pidfd it
	 * read before the connector, and every thread that process started.
	 */
	if (t->cn.fd < 0)
		forget(t, th);
}

static int cn_init(struct shim_threads *t, struct shim_watch *w, pid_t init_pid,
		   struct shim_err *err)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = shim_loop_data(SHIM_LOOP_CONNECTOR, 0) };
	char path[64];
	struct stat st;

	t->cn.fd = w->cn_fd;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init_pid);
	if (stat(path, &st) < 0)
		return shim_fail(err, errno, "stat %s", path);
	t->cn.ns_dev = st.st_dev;
	t->cn.ns_ino = st.st_ino;
	raise_nofile();
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, t->cn.fd, &ev) < 0)
		return shim_fail(err, errno, "epoll_ctl the connector");
	/* The init, then whatever it started before the supervisor ran. */
	if (follow(t, init_pid, init_pid, true, err) || drain(t, err) < 0)
		return -1;
	shim_threads_flush(t);
	return 0;
}

static void cn_finish(struct shim_threads *t)
{
	struct shim_err err;
	long taken = 0;
	int more = 1;

	/*
	 * The init's pidfd is readable only once the rest of its PID
	 * namespace is gone, so every fork and exit of the container is
	 * queued by now; a supervisor that fell behind may have many
	 * batches of them still to read.  Reading as many datagrams as the
	 * socket can hold takes all that was queued when the container ended.
	 */
	while (t->cn.fd >= 0 && more == 1 && taken < SHIM_CN_QUEUED_MAX) {
		more = drain(t, &err);
		if (more < 0)
			stop(t, &err);
		taken += SHIM_CN_BATCH;
	}
	if (t->cn.fd >= 0 && more == 1)
		shim_threads_note(t, "thread-events-lost",
				  "the process-events connector still had events after the container "
				  "ended: threads whose start is among them are not reported");
	/* The PID namespace is empty: whatever is still followed has ended. */
	report_all(t, false);
}

static void close_fd(const void *node, VISIT which, void *closure)
{
	struct shim_thread *th = *(struct shim_thread *const *)node;

	(void)closure;
	if ((which == postorder || which == leaf) && th->fd >= 0) {
		close(th->fd);
		th->fd = -1;
	}
}

static void cn_free(struct shim_threads *t)
{
	twalk_r(t->cn.threads, close_fd, NULL);
	tdestroy(t->cn.threads, free);
	tdestroy(t->cn.procs, free);
	t->cn.threads = t->cn.procs = NULL;
}

static void cn_release(struct shim_watch *w)
{
	shim_closep(&w->cn_fd);
}

const struct shim_threads_backend shim_threads_connector_backend = {
	.init = cn_init,
	.readable = cn_readable,
	.finish = cn_finish,
	.free = cn_free,
	.release = cn_release,
};
