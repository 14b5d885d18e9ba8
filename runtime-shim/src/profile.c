// SPDX-License-Identifier: GPL-2.0-or-later
/* The start profile (profile.h); built only with PROFILE=1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"

static unsigned long long clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/*
 * One write(2) per line: the init's lines and the shim's go to the same
 * stderr, and must not interleave.  No stdio: its buffer would be copied
 * into every child the shim forks.
 */
static void profile_line(const char *step, unsigned long long mono, unsigned long long cpu)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "shim-profile %s %d %llu %llu\n", step, (int)getpid(),
			 mono, cpu);

	if (n > 0 && (size_t)n < sizeof(line) && write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}

void shim_profile(const char *step)
{
	profile_line(step, clock_ns(CLOCK_MONOTONIC), clock_ns(CLOCK_PROCESS_CPUTIME_ID));
}

void shim_profile_launch(void)
{
	const char *launch = getenv("SHIM_PROFILE_LAUNCH_NS");

	if (!launch)
		return;
	profile_line("launch", strtoull(launch, NULL, 10), 0);
	shim_profile("exec");
}
