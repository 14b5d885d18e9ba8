// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing and formatting of BPF FS delegate_* values, by the kernel's names. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "delegate.h"

static bool is_sep(char c)
{
	return c == ':' || c == ',';
}

int shim_delegate_syntax_check(int kind, const char *value, const char *what,
			       struct shim_err *err)
{
	const char *p = value;

	if (!what)
		what = shim_deleg_option(kind);
	if (*p == '\0')
		return shim_fail(err, 0, "%s: empty value", what);
	for (;;) {
		const char *e = p;

		while (*e && !is_sep(*e))
			e++;
		if (e == p)
			return shim_fail(err, 0, "%s=%s: empty element", what, value);
		if (*e == '\0')
			return 0;
		p = e + 1;
	}
}

/* kstrtou64(s, 0) semantics: 0x hex, leading 0 octal, else decimal. */
static bool parse_number(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		base = 8;
		s += 1;
	}
	if (*s == '\0')
		return false;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (d >= base)
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static const struct shim_enum_entry *lookup(const struct shim_enum_table *t,
					    const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcasecmp(t->entry[i].name, name) == 0)
			return &t->entry[i];
	return NULL;
}

int shim_delegate_valid_list(const struct shim_deleg_names *names, int kind,
			     char *buf, size_t len)
{
	const struct shim_enum_table *t = &names->table[kind];
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < t->n; i++) {
		int n;

		if (t->entry[i].value >= 64)
			continue;	/* cannot be delegated */
		n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
			     t->entry[i].name);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

int shim_delegate_resolve(const struct shim_deleg_names *names, int kind,
			  const char *value, const char *what, uint64_t *mask,
			  char *normalized, size_t normalized_len, struct shim_err *err)
{
	const struct shim_enum_table *t = &names->table[kind];
	const char *p = value;
	uint64_t m = 0;
	size_t off = 0;

	if (!what)
		what = shim_deleg_option(kind);
	for (;;) {
		const char *e = p;
		char elem[128];
		const struct shim_enum_entry *ent;
		uint64_t num;

		while (*e && !is_sep(*e))
			e++;
		/*
		 * Checked here, before the kernel sees the value: messages name
		 * the option the user typed, not the fsconfig that never ran.
		 */
		if ((size_t)(e - p) >= sizeof(elem))
			return shim_fail(err, 0, "%s=%s: element \"%.*s...\" too long",
					 what, value, 16, p);
		memcpy(elem, p, (size_t)(e - p));
		elem[e - p] = '\0';

		/* Only lower case: the kernel compares "any" with strcmp(). */
		if (strcmp(elem, "any") == 0) {
			m |= ~0ULL;
		} else if ((ent = lookup(t, elem)) != NULL) {
			if (ent->value >= 64)
				return shim_fail(err, 0, "%s=%s: %s \"%s\" has value %u, beyond the 64 bits a BPF FS can delegate",
						 what, value, shim_deleg_what(kind), elem, ent->value);
			m |= 1ULL << ent->value;
		} else if (parse_number(elem, &num)) {
			m = num;	/* the kernel's rule: a number replaces the mask */
		} else {
			char valid[3072];

			shim_delegate_valid_list(names, kind, valid, sizeof(valid));
			shim_fail(err, 0, "%s=%s: unknown %s \"%s\"", what,
				  value, shim_deleg_what(kind), elem);
			if (names->builtin)
				return shim_fail_note(err, "valid: %s; names from %s",
						      valid, names->source);
			return shim_fail_note(err, "valid: %s", valid);
		}
		if (normalized) {
			int n = snprintf(normalized + off, normalized_len - off, "%s%s",
					 off ? ":" : "", elem);

			if (n < 0 || (size_t)n >= normalized_len - off)
				return shim_fail(err, E2BIG, "%s=%s", what, value);
			off += (size_t)n;
		}
		if (*e == '\0')
			break;
		p = e + 1;
	}
	*mask = m;
	return 0;
}

int shim_delegate_format(const struct shim_deleg_names *names, int kind,
			 uint64_t mask, char *buf, size_t len)
{
	const struct shim_enum_table *t = &names->table[kind];
	uint64_t known = 0, rest;
	size_t off = 0;
	int n;

	for (size_t i = 0; i < t->n; i++)
		if (t->entry[i].value < 64)
			known |= 1ULL << t->entry[i].value;
	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (mask == 0)
		return 0;
	if (mask == ~0ULL || (known && (mask & known) == known && !(mask & ~known))) {
		n = snprintf(buf, len, "any");
		return n < 0 || (size_t)n >= len ? -1 : 0;
	}
	rest = mask;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t bit;

		if (t->entry[i].value >= 64)
			continue;
		bit = 1ULL << t->entry[i].value;
		if (!(rest & bit))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? ":" : "", t->entry[i].name);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
		rest &= ~bit;
	}
	if (rest) {
		n = snprintf(buf + off, len - off, "%s0x%llx", off ? ":" : "",
			     (unsigned long long)rest);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
	}
	return 0;
}
