// SPDX-License-Identifier: GPL-2.0-or-later
/* --tty: a pty for the container, relayed by the shim (tty.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>

#include "tty.h"

int shim_tty_open_pty(int *slave, struct shim_err *err)
{
	cleanup_fd int master = -1;
	int unlock = 0;

	/* The container's own devpts instance (mounts.c), so its tty(1) names it. */
	master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0)
		return shim_fail(err, errno, "--tty: open /dev/ptmx");
	if (ioctl(master, TIOCSPTLCK, &unlock) < 0)
		return shim_fail(err, errno, "--tty: unlock the pty");
	/* TIOCGPTPEER: the peer of this master, whatever /dev/pts shows. */
	*slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		return shim_fail(err, errno, "--tty: open the pty's peer");
	return shim_steal_fd(&master);
}

void shim_tty_init(struct shim_tty *t)
{
	memset(t, 0, sizeof(*t));
	t->master = -1;
	t->in = STDIN_FILENO;
	t->out = STDOUT_FILENO;
	t->epfd = -1;
}

static void watch(struct shim_tty *t, int fd, enum shim_loop_tag tag, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.u64 = shim_loop_data(tag, 0) };

	if (epoll_ctl(t->epfd, EPOLL_CTL_MOD, fd, &ev) < 0 && errno == ENOENT)
		epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static void unwatch(struct shim_tty *t, int fd)
{
	epoll_ctl(t->epfd, EPOLL_CTL_DEL, fd, NULL);
}

void shim_tty_resize_to_caller(int master)
{
	struct winsize ws;

	/* The kernel sends SIGWINCH to the pty's foreground process group. */
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0 ||
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(master, TIOCSWINSZ, &ws);
}

void shim_tty_resize(void *arg)
{
	struct shim_tty *t = arg;

	if (t->master >= 0)
		shim_tty_resize_to_caller(t->master);
}

int shim_tty_start(struct shim_tty *t, int master, int epfd, struct shim_err *err)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = shim_loop_data(SHIM_LOOP_TTY_IN, 0) };
	int fl;

	t->master = master;
	t->epfd = epfd;
	fl = fcntl(master, F_GETFL);
	if (fl < 0 || fcntl(master, F_SETFL, fl | O_NONBLOCK) < 0)
		return shim_fail(err, errno, "--tty: make the pty non-blocking");
	shim_tty_resize(t);
	if (isatty(t->in) && tcgetattr(t->in, &t->saved) == 0) {
		struct termios raw = t->saved;

		/* Keys, ^C included, go to the container's terminal as they are. */
		cfmakeraw(&raw);
		if (tcsetattr(t->in, TCSADRAIN, &raw) < 0)
			return shim_fail(err, errno, "--tty: raw mode of the shim's terminal");
		t->raw = true;
	}
	watch(t, master, SHIM_LOOP_TTY_PTY, EPOLLIN);
	/* A regular file or /dev/null cannot be polled: no input then. */
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, t->in, &ev) < 0) {
		if (errno != EPERM)
			return shim_fail(err, errno, "--tty: watch stdin");
		t->in = -1;
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Hand pending input to the pty; while it is full, wait for it, not for stdin. */
static void flush_input(struct shim_tty *t)
{
	while (t->off < t->len) {
		ssize_t n = write(t->master, t->buf + t->off, t->len - t->off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (t->in >= 0)
				unwatch(t, t->in);
			watch(t, t->master, SHIM_LOOP_TTY_PTY, EPOLLIN | EPOLLOUT);
			return;
		}
		if (n < 0) {
			t->off = t->len;	/* the pty is gone: drop it */
			break;
		}
		t->off += (size_t)n;
	}
	t->off = t->len = 0;
	watch(t, t->master, SHIM_LOOP_TTY_PTY, EPOLLIN);
	if (t->in >= 0)
		watch(t, t->in, SHIM_LOOP_TTY_IN, EPOLLIN);
}

static void read_input(struct shim_tty *t)
{
	ssize_t n;

	if (t->in < 0 || t->len)
		return;
	n = read(t->in, t->buf, sizeof(t->buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* End of input: the terminal's end-of-file character, once. */
		unwatch(t, t->in);
		t->in = -1;
		t->buf[0] = 4;	/* ^D, VEOF of a new pty */
		n = 1;
	}
	t->len = (size_t)n;
	t->off = 0;
	flush_input(t);
}

static bool copy_output(struct shim_tty *t)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(t->master, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return true;
		if (n <= 0)
			return false;	/* EIO: no one has the pty open any more */
		if (write_all(t->out, buf, (size_t)n) < 0)
			return true;	/* stdout is gone; keep draining the pty */
	}
}

void shim_tty_event(struct shim_tty *t, enum shim_loop_tag tag, uint32_t events)
{
	if (tag == SHIM_LOOP_TTY_IN) {
		read_input(t);
		return;
	}
	if (events & EPOLLOUT)
		flush_input(t);
	if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
		if (!copy_output(t))
			unwatch(t, t->master);
	}
}

void shim_tty_drain(struct shim_tty *t)
{
	if (t->master >= 0)
		copy_output(t);
}

void shim_tty_release(struct shim_tty *t)
{
	if (t->raw)
		tcsetattr(t->in >= 0 ? t->in : STDIN_FILENO, TCSADRAIN, &t->saved);
	t->raw = false;
	shim_closep(&t->master);
}
