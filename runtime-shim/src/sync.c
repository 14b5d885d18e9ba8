// SPDX-License-Identifier: GPL-2.0-or-later
/* The setup conversation between the shim and the container's init. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "sync.h"

int shim_msg_send(int sock, uint32_t type, int errnum, const char *text,
		  int fd, struct shim_err *err)
{
	struct shim_msg msg;
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctrl;
	struct iovec iov;
	struct msghdr mh;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	memset(&ctrl, 0, sizeof(ctrl));
	memset(&mh, 0, sizeof(mh));
	msg.type = type;
	msg.errnum = errnum;
	if (text)
		snprintf(msg.text, sizeof(msg.text), "%s", text);
	iov.iov_base = &msg;
	iov.iov_len = sizeof(msg);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (fd >= 0) {
		struct cmsghdr *c;

		mh.msg_control = ctrl.buf;
		mh.msg_controllen = sizeof(ctrl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do {
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return shim_fail(err, errno, "send setup message %u", type);
	return 0;
}

int shim_msg_recv(int sock, struct shim_msg *msg, int *fd,
		  struct shim_err *err)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctrl;
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(*msg) };
	struct msghdr mh;
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	memset(&mh, 0, sizeof(mh));
	memset(msg, 0, sizeof(*msg));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctrl.buf;
	mh.msg_controllen = sizeof(ctrl.buf);
	do {
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return shim_fail(err, errno, "receive setup message");
	if (n == 0)
		return 0;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	}
	if ((size_t)n != sizeof(*msg) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return shim_fail(err, EPROTO, "receive setup message: bad size %zd", n);
	}
	msg->text[sizeof(msg->text) - 1] = '\0';
	return 1;
}
