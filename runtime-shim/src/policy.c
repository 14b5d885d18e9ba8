// SPDX-License-Identifier: GPL-2.0-or-later
/* The host policy that bounds what the OCI hook may delegate. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "file.h"
#include "policy.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int option_kind(const char *key)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++)
		if (strcmp(key, shim_deleg_option(k)) == 0)
			return k;
	return -1;
}

int shim_policy_parse(const char *text, const char *source,
		      const struct shim_deleg_names *names,
		      struct shim_bpffs_policy *p, struct shim_err *err)
{
	cleanup_free char *copy = strdup(text);
	char *line, *next;
	unsigned int lineno = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->source, sizeof(p->source), "%s", source);
	if (!copy)
		return shim_fail(err, ENOMEM, "policy %s", source);
	for (line = copy; line; line = next) {
		char *eq, *key, *value, *hash;
		int k;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		line = trim(line);
		if (!*line)
			continue;
		eq = strchr(line, '=');
		if (!eq)
			return shim_fail(err, 0, "policy %s:%u: \"%s\" is not \"option = value\"",
					 source, lineno, line);
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
		k = option_kind(key);
		if (k < 0)
			return shim_fail(err, 0, "policy %s:%u: unknown option \"%s\" (valid: "
					 "delegate_cmds, delegate_maps, delegate_progs, delegate_attachs)",
					 source, lineno, key);
		if (p->allow.set[k])
			return shim_fail(err, 0, "policy %s:%u: %s given twice", source, lineno, key);
		if (shim_delegate_syntax_check(k, value, NULL, err) ||
		    shim_delegation_set(&p->allow, names, k, value, NULL, err))
			return shim_fail_wrap(err, "policy %s:%u", source, lineno);
	}
	return 0;
}

int shim_policy_load(const char *path, const struct shim_deleg_names *names,
		     struct shim_bpffs_policy *p, struct shim_err *err)
{
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	cleanup_free char *text = NULL;
	size_t len;

	if (fd < 0) {
		shim_fail(err, errno, "host policy %s", path);
		if (errno == ENOENT)
			return shim_fail_note(err, "without a policy nothing may be delegated; "
					      "install one, e.g. the shipped bpffs-policy.conf.example");
		return -1;
	}
	if (shim_read_all(fd, 1U << 20, &text, &len, path, err))
		return -1;
	if (strlen(text) != len)
		return shim_fail(err, 0, "host policy %s: contains a NUL byte", path);
	return shim_policy_parse(text, path, names, p, err);
}

int shim_policy_check(const struct shim_bpffs_policy *p,
		      const struct shim_deleg_names *names,
		      const struct shim_delegation *req,
		      const char *(*what)(int kind), struct shim_err *err)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		uint64_t allowed = p->allow.set[k] ? p->allow.mask[k] : 0, beyond;
		char shown[2048];

		if (!req->set[k])
			continue;
		beyond = req->mask[k] & ~allowed;
		if (!beyond)
			continue;
		if (shim_delegate_format(names, k, beyond, shown, sizeof(shown)) < 0 || !shown[0])
			snprintf(shown, sizeof(shown), "0x%llx", (unsigned long long)beyond);
		/* "any" asks for every bit, which a named list never covers. */
		if (req->mask[k] == ~0ULL && allowed != ~0ULL)
			snprintf(shown, sizeof(shown), "any");
		if (p->allow.set[k])
			return shim_fail(err, 0, "%s=%s goes beyond the host policy (%s allows %s = %s): %s refused",
					 what(k), req->value[k], p->source, shim_deleg_option(k),
					 p->allow.value[k], shown);
		return shim_fail(err, 0, "%s=%s goes beyond the host policy (%s allows no %s): refused",
				 what(k), req->value[k], p->source, shim_deleg_option(k));
	}
	return 0;
}
