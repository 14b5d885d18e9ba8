/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages between the shim and the container's init over a socketpair. */
#ifndef SHIM_SYNC_H
#define SHIM_SYNC_H

#include "shim.h"

enum shim_msg_type {
	SHIM_MSG_ROOTFS = 1,	/* shim -> init: the rootfs directory, opened
				 * by the shim in the init's mount namespace */
	SHIM_MSG_GO,		/* shim -> init: id maps written, go on; with
				 * the rootfs mounted idmapped attached, when
				 * init is to use it (rootfs.c) */
	SHIM_MSG_BPF_FD,	/* container -> privileged side: fsopen("bpf")
				 * fd attached (bpffs.c, shim run and the hook) */
	SHIM_MSG_BPF_ACK,	/* privileged side -> container: the mount
				 * attached (errnum 0), or refused (errnum 1) */
	SHIM_MSG_ERROR,		/* init -> shim: setup failed; text says why,
				 * errnum is the exit status to use */
	SHIM_MSG_STARTED,	/* init -> shim: the command was executed */
	SHIM_MSG_TTY,		/* init -> shim: --tty, the pty master attached */
	SHIM_MSG_TTY_ACK,	/* shim -> init: the pty has the caller's size */
};

struct shim_msg {
	uint32_t type;
	int32_t errnum;
	char text[3584];
};

/* Send a message, with fd attached by SCM_RIGHTS when fd >= 0. */
int shim_msg_send(int sock, uint32_t type, int errnum, const char *text,
		  int fd, struct shim_err *err);
/* Receive a message; *fd gets an attached fd or -1.  Returns 1 on a
 * message, 0 on EOF, -1 on error. */
int shim_msg_recv(int sock, struct shim_msg *msg, int *fd,
		  struct shim_err *err);

#endif
