// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Run the shim from a sealed in-memory copy of itself, as runc does with
 * its memfd-cloned binary: the container's init is a fork of the shim, so
 * its /proc/PID/exe is the shim's executable.  Were that the host's file,
 * a container root that got hold of it could rewrite the host's shim
 * (CVE-2019-5736).  A sealed memfd cannot be written by anyone.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>

#include "selfclone.h"

/* Set while the copy starts, so a copy that is not recognised never loops. */
#define SHIM_CLONED_ENV "_SHIM_SEALED_COPY"

#define SHIM_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

extern char **environ;

bool shim_running_sealed(void)
{
	cleanup_fd int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int seals;

	if (fd < 0)
		return false;
	seals = fcntl(fd, F_GET_SEALS);
	return seals >= 0 && (seals & SHIM_SEALS) == SHIM_SEALS;
}

static int sealed_copy(struct shim_err *err)
{
	cleanup_fd int src = -1;
	cleanup_fd int mfd = -1;
	struct stat st;
	off_t off = 0;

	src = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return shim_fail(err, errno, "open /proc/self/exe");
	if (fstat(src, &st) < 0)
		return shim_fail(err, errno, "stat /proc/self/exe");
	mfd = memfd_create("shim", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0)
		return shim_fail(err, errno, "memfd_create");
	while (off < st.st_size) {
		ssize_t n = sendfile(mfd, src, &off, (size_t)(st.st_size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return shim_fail(err, errno, "copy /proc/self/exe to a memfd");
		if (n == 0)
			return shim_fail(err, EIO, "copy /proc/self/exe: short file");
	}
	if (fcntl(mfd, F_ADD_SEALS, SHIM_SEALS) < 0)
		return shim_fail(err, errno, "seal the shim's memfd");
	return shim_steal_fd(&mfd);
}

int shim_reexec_sealed(char *const argv[], struct shim_err *err)
{
	cleanup_fd int mfd = -1;

	/*
	 * Only the seals say that this is the copy: the variable comes from
	 * whoever started the shim.  It only stops a loop: set, with the
	 * seals missing, the copy made here was not what runs, so fail.
	 */
	if (shim_running_sealed()) {
		unsetenv(SHIM_CLONED_ENV);
		return 0;
	}
	if (getenv(SHIM_CLONED_ENV))
		return shim_fail(err, EPERM, "%s is set but the shim does not run from a sealed "
				 "copy of itself: it is set only by the shim for its copy",
				 SHIM_CLONED_ENV),
		       shim_fail_note(err, "unset %s", SHIM_CLONED_ENV);
	mfd = sealed_copy(err);
	if (mfd < 0)
		return -1;
	if (setenv(SHIM_CLONED_ENV, "1", 1) < 0)
		return shim_fail(err, errno, "setenv");
	fexecve(mfd, argv, environ);
	/*
	 * Valgrind cannot execute an fd.  Init is not dumpable either way,
	 * so the container still cannot open /proc/1/exe: go on, and say so.
	 */
	shim_warn(&(struct shim_voice){ .who = "shim" },
		  "note: running without a sealed copy of the shim (fexecve: %s)", strerror(errno));
	unsetenv(SHIM_CLONED_ENV);
	return 0;
}
