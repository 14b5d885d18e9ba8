// SPDX-License-Identifier: GPL-2.0-or-later
/* The command's capabilities: podman's default set and the changes asked for. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>

#include "caps.h"

/* By number: include/uapi/linux/capability.h. */
static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

uint64_t shim_caps_default(void)
{
	static const unsigned int set[] = {
		0 /* CHOWN */, 1 /* DAC_OVERRIDE */, 3 /* FOWNER */, 4 /* FSETID */,
		5 /* KILL */, 10 /* NET_BIND_SERVICE */, 31 /* SETFCAP */,
		6 /* SETGID */, 8 /* SETPCAP */, 7 /* SETUID */, 18 /* SYS_CHROOT */,
	};
	uint64_t m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		m |= SHIM_CAP_BIT(set[i]);
	return m;
}

const char *shim_cap_name(unsigned int cap)
{
	return cap < ARRAY_SIZE(cap_names) ? cap_names[cap] : NULL;
}

static int lookup(const char *name, size_t len)
{
	if (len > 4 && strncasecmp(name, "CAP_", 4) == 0) {
		name += 4;
		len -= 4;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cap_names); i++) {
		const char *bare = cap_names[i] + 4;	/* without "CAP_" */

		if (strlen(bare) == len && strncasecmp(bare, name, len) == 0)
			return (int)i;
	}
	return -1;
}

int shim_caps_parse(const char *opt, const char *value, uint64_t *mask,
		    struct shim_err *err)
{
	const char *p = value;

	for (;;) {
		size_t len = strcspn(p, ",");
		int cap;

		if (len == 0)
			return shim_fail(err, 0, "%s=%s: empty capability name", opt, value);
		if (len == 3 && strncasecmp(p, "all", 3) == 0) {
			*mask = SHIM_CAPS_ALL;
		} else {
			cap = lookup(p, len);
			if (cap < 0)
				return shim_fail(err, 0, "%s=%s: unknown capability \"%.*s\" "
						 "(names as in capabilities(7), with or without "
						 "CAP_, or all)", opt, value, (int)len, p);
			*mask |= SHIM_CAP_BIT(cap);
		}
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

int shim_caps_resolve(uint64_t base, uint64_t add, uint64_t drop, uint64_t *caps,
		      struct shim_err *err)
{
	uint64_t both = add & drop;

	/* "all" on one side is a bound, not a name: it never conflicts. */
	if (add != SHIM_CAPS_ALL && drop != SHIM_CAPS_ALL && both) {
		for (unsigned int cap = 0; cap < 64; cap++)
			if (both & SHIM_CAP_BIT(cap))
				return shim_fail(err, 0, "%s is both in --cap-add and in --cap-drop",
						 shim_cap_name(cap) ? shim_cap_name(cap) : "a capability");
	}
	if (drop == SHIM_CAPS_ALL)
		*caps = add;
	else
		*caps = (base | add) & ~drop;
	/* Only capabilities this table names: "all" is every known one. */
	*caps &= SHIM_CAP_BIT(ARRAY_SIZE(cap_names)) - 1;
	return 0;
}

void shim_caps_string(uint64_t caps, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int cap = 0; cap < ARRAY_SIZE(cap_names); cap++) {
		int n;

		if (!(caps & SHIM_CAP_BIT(cap)))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? " " : "", shim_cap_name(cap));
		if (n < 0 || (size_t)n >= len - off)
			return;
		off += (size_t)n;
	}
	if (off == 0)
		snprintf(buf, len, "none");
}

int shim_caps_limit(uint64_t caps, struct shim_err *err)
{
	/* Up to the kernel's last capability: PR_CAPBSET_READ says EINVAL beyond. */
	for (unsigned int cap = 0; cap < 64; cap++) {
		int r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);

		if (r < 0 && errno == EINVAL)
			break;
		if (r < 0)
			return shim_fail(err, errno, "prctl PR_CAPBSET_READ %u", cap);
		if (r == 0 || (caps & SHIM_CAP_BIT(cap)))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return shim_fail(err, errno, "prctl PR_CAPBSET_DROP %s",
					 shim_cap_name(cap) ? shim_cap_name(cap) : "?");
	}
	/* Nothing comes back through the ambient set either. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return shim_fail(err, errno, "prctl PR_CAP_AMBIENT_CLEAR_ALL");
	return 0;
}
