// SPDX-License-Identifier: GPL-2.0-or-later
/* The system call filter of the container's command, built with libseccomp. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "errname.h"
#include "profile.h"

/*
 * Denied with EPERM by default: calls that reach the whole host (kernel
 * modules, kexec, reboot, swap, clock, accounting, quotas, syslog, I/O
 * ports), the classic open_by_handle_at escape, key rings that are not
 * namespaced, and userfaultfd.  Most already need capabilities the
 * container lacks in the initial user namespace; the filter is a second
 * wall.  bpf and perf_event_open are allowed only with BPF delegation.
 */
static const char *const default_deny[] = {
	"kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module", "reboot", "swapon", "swapoff", "acct",
	"settimeofday", "clock_settime", "clock_adjtime", "iopl", "ioperm",
	"open_by_handle_at", "lookup_dcookie", "nfsservctl", "uselib",
	"quotactl", "syslog", "userfaultfd", "keyctl", "add_key",
	"request_key", "_sysctl", "create_module", "get_kernel_syms",
	"query_module", "vm86", "vm86old",
};
static const char *const bpf_calls[] = { "bpf", "perf_event_open" };

static int add_rule(scmp_filter_ctx ctx, const char *name, uint32_t action,
		    bool must_exist, const char *where, struct shim_err *err)
{
	int nr = seccomp_syscall_resolve_name(name);
	int r;

	if (nr == __NR_SCMP_ERROR) {
		if (must_exist)
			return shim_fail(err, 0, "%sunknown system call \"%s\"", where, name);
		return 0;	/* not on this architecture */
	}
	r = seccomp_rule_add(ctx, action, nr, 0);
	if (r == -EACCES)
		return 0;	/* same as the default action: nothing to do */
	if (r < 0)
		return shim_fail(err, -r, "%sseccomp rule for %s", where, name);
	return 0;
}

int shim_seccomp_default(bool allow_bpf, scmp_filter_ctx *out,
			 struct shim_err *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx)
		return shim_fail(err, ENOMEM, "seccomp_init");
	for (size_t i = 0; i < ARRAY_SIZE(default_deny); i++)
		if (add_rule(ctx, default_deny[i], SCMP_ACT_ERRNO(EPERM), false, "", err))
			return -1;
	if (!allow_bpf)
		for (size_t i = 0; i < ARRAY_SIZE(bpf_calls); i++)
			if (add_rule(ctx, bpf_calls[i], SCMP_ACT_ERRNO(EPERM), false, "", err))
				return -1;
	*out = ctx;
	ctx = NULL;
	return 0;
}

int shim_seccomp_parse_action(const char *word, uint32_t *action)
{
	if (strcmp(word, "allow") == 0) {
		*action = SCMP_ACT_ALLOW;
	} else if (strcmp(word, "kill") == 0) {
		*action = SCMP_ACT_KILL_PROCESS;
	} else if (strcmp(word, "trap") == 0) {
		*action = SCMP_ACT_TRAP;
	} else if (strcmp(word, "log") == 0) {
		*action = SCMP_ACT_LOG;
	} else if (strcmp(word, "errno") == 0) {
		*action = SCMP_ACT_ERRNO(EPERM);
	} else if (strncmp(word, "errno:", 6) == 0) {
		const char *v = word + 6;
		char *end;
		long n;

		/* Any name the C library knows (errname.c), not a few. */
		if (shim_errno_from_name(v) > 0) {
			*action = SCMP_ACT_ERRNO((uint32_t)shim_errno_from_name(v));
			return 0;
		}
		if (*v < '0' || *v > '9')
			return -1;
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || *end || n < 0 || n > 4095)
			return -1;
		*action = SCMP_ACT_ERRNO((uint32_t)n);
	} else {
		return -1;
	}
	return 0;
}

int shim_seccomp_from_text(const char *text, const char *name,
			   scmp_filter_ctx *out, struct shim_err *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = NULL;
	uint32_t def = SCMP_ACT_ALLOW;
	char *line;
	int lineno = 0;

	/* Two passes: the first checks every line and finds the default. */
	for (int pass = 0; pass < 2; pass++) {
		char *buf = strdup(text);

		if (!buf)
			return shim_fail(err, ENOMEM, "seccomp profile %s", name);
		lineno = 0;
		if (pass == 1) {
			ctx = seccomp_init(def);
			if (!ctx) {
				shim_fail(err, ENOMEM, "seccomp_init");
				free(buf);
				return -1;
			}
		}
		for (char *next = buf; next;) {
			char where[512], *hash, *w1, *w2, *w3, *lsave = NULL;
			uint32_t action = SCMP_ACT_ERRNO(EPERM);

			line = next;
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';

			lineno++;
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			w1 = strtok_r(line, " \t\r", &lsave);
			if (!w1)
				continue;
			w2 = strtok_r(NULL, " \t\r", &lsave);
			w3 = strtok_r(NULL, " \t\r", &lsave);
			snprintf(where, sizeof(where), "seccomp profile %s:%d: ", name, lineno);
			if (w3) {
				shim_fail(err, 0, "%sline \"%s %s %s\": too many words", where, w1, w2, w3);
				free(buf);
				return -1;
			}
			if (w2 && shim_seccomp_parse_action(w2, &action)) {
				shim_fail(err, 0,
						 "%sunknown action \"%s\" (valid: allow, errno, errno:N, errno:ENAME, kill, trap, log)",
						 where, w2);
				free(buf);
				return -1;
			}
			if (strcmp(w1, "default") == 0) {
				if (!w2) {
					shim_fail(err, 0, "%s\"default\" needs an action", where);
					free(buf);
					return -1;
				}
				if (pass == 0)
					def = action;
				continue;
			}
			if (pass == 0) {
				if (seccomp_syscall_resolve_name(w1) == __NR_SCMP_ERROR) {
					shim_fail(err, 0, "%sunknown system call \"%s\"", where, w1);
					free(buf);
					return -1;
				}
				continue;
			}
			if (add_rule(ctx, w1, action, true, where, err)) {
				free(buf);
				return -1;
			}
		}
		free(buf);
	}
	*out = ctx;
	ctx = NULL;
	return 0;
}

static int read_file(const char *path, char **out, struct shim_err *err)
{
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC);
	cleanup_free char *buf = NULL;
	struct stat st;
	size_t off = 0;

	if (fd < 0)
		return shim_fail(err, errno, "--seccomp: open %s", path);
	if (fstat(fd, &st) < 0)
		return shim_fail(err, errno, "--seccomp: stat %s", path);
	if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20))
		return shim_fail(err, 0, "--seccomp: %s is not a regular file of at most 1 MiB", path);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return shim_fail(err, errno, "--seccomp: read %s", path);
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return shim_fail(err, errno, "--seccomp: read %s", path);
		if (n == 0)
			break;
		off += (size_t)n;
	}
	buf[off] = '\0';
	*out = buf;
	buf = NULL;
	return 0;
}

int shim_seccomp_build(const struct shim_config *cfg, scmp_filter_ctx *out,
		       struct shim_err *err)
{
	cleanup_free char *text = NULL;

	*out = NULL;
	switch (cfg->seccomp) {
	case SHIM_SECCOMP_NONE:
		return 0;
	case SHIM_SECCOMP_DEFAULT:
		return shim_seccomp_default(shim_config_delegates(cfg), out, err);
	case SHIM_SECCOMP_FILE:
		if (read_file(cfg->seccomp_file, &text, err))
			return -1;
		return shim_seccomp_from_text(text, cfg->seccomp_file, out, err);
	}
	return shim_fail(err, EINVAL, "seccomp mode");
}
