/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_PROFILE_H
#define SHIM_PROFILE_H

/*
 * The start profile of make bench (bench/guest/run, "profile"): a build
 * with PROFILE=1 (-DSHIM_PROFILE) writes a line to stderr where each step
 * of a start ends,
 *
 *	shim-profile STEP PID MONOTONIC_NS CPU_NS
 *
 * CPU_NS is the calling process's CPU time so far (it survives execve and
 * starts at zero in a child), so the bench can tell each step's wall time
 * and the CPU of the process that did it.  The shipped binary is built
 * without it: the calls below compile to nothing.
 */
#ifdef SHIM_PROFILE
void shim_profile(const char *step);
/*
 * At the top of main(): the launch time, which the bench's launcher
 * passes in SHIM_PROFILE_LAUNCH_NS, and the end of the step from there,
 * the exec and the dynamic loading.
 */
void shim_profile_launch(void);
#else
static inline void shim_profile(const char *step)
{
	(void)step;
}

static inline void shim_profile_launch(void)
{
}
#endif

#endif
