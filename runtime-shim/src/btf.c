// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal reader of raw BTF: walks the type section and picks out the
 * four BPF enums whose member names the kernel accepts as delegate_*
 * values.  Only the layout facts of the BTF format are used: a header,
 * a type section of variable size records, a string section.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "btf.h"
#include "file.h"

#define BTF_MAGIC 0xeB9F

enum {
	BTF_KIND_INT = 1,
	BTF_KIND_PTR = 2,
	BTF_KIND_ARRAY = 3,
	BTF_KIND_STRUCT = 4,
	BTF_KIND_UNION = 5,
	BTF_KIND_ENUM = 6,
	BTF_KIND_FWD = 7,
	BTF_KIND_TYPEDEF = 8,
	BTF_KIND_VOLATILE = 9,
	BTF_KIND_CONST = 10,
	BTF_KIND_RESTRICT = 11,
	BTF_KIND_FUNC = 12,
	BTF_KIND_FUNC_PROTO = 13,
	BTF_KIND_VAR = 14,
	BTF_KIND_DATASEC = 15,
	BTF_KIND_FLOAT = 16,
	BTF_KIND_DECL_TAG = 17,
	BTF_KIND_TYPE_TAG = 18,
	BTF_KIND_ENUM64 = 19,
};

struct btf_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

struct btf_type_hdr {
	uint32_t name_off;
	uint32_t info;
	uint32_t size_or_type;
};

static const char *btf_str(const char *strs, uint32_t str_len, uint32_t off)
{
	if (off >= str_len)
		return NULL;
	if (!memchr(strs + off, '\0', str_len - off))
		return NULL;
	return strs + off;
}

static int member_extra(uint32_t kind, uint32_t vlen, size_t *extra)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		*extra = 4;
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		*extra = 0;
		return 0;
	case BTF_KIND_ARRAY:
		*extra = 12;
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		*extra = (size_t)vlen * 12;
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		*extra = (size_t)vlen * 8;
		return 0;
	default:
		return -1;
	}
}

static int add_members(struct shim_enum_table *t, int kind, const uint8_t *m,
		       uint32_t vlen, bool is64, const char *strs,
		       uint32_t str_len, struct shim_err *err)
{
	const char *prefix = shim_deleg_prefix(kind);
	size_t plen = strlen(prefix);
	size_t stride = is64 ? 12 : 8;

	t->entry = calloc(vlen ? vlen : 1, sizeof(*t->entry));
	if (!t->entry)
		return shim_fail(err, errno, "allocate enum %s", shim_deleg_enum(kind));
	t->n = 0;
	for (uint32_t i = 0; i < vlen; i++) {
		uint32_t name_off, lo;
		const char *name;
		size_t len;

		memcpy(&name_off, m + i * stride, 4);
		memcpy(&lo, m + i * stride + 4, 4);
		name = btf_str(strs, str_len, name_off);
		if (!name)
			return shim_fail(err, EINVAL, "BTF enum %s: bad name offset", shim_deleg_enum(kind));
		if (strncasecmp(name, prefix, plen) != 0)
			continue;	/* e.g. __MAX_BPF_CMD */
		len = strlen(name + plen);
		if (len == 0 || len >= sizeof(t->entry[0].name))
			continue;
		for (size_t c = 0; c <= len; c++)
			t->entry[t->n].name[c] = (char)tolower((unsigned char)name[plen + c]);
		t->entry[t->n].value = lo;
		t->n++;
	}
	return 0;
}

int shim_btf_parse_enums(const void *data, size_t size,
			 struct shim_deleg_names *names, struct shim_err *err)
{
	const uint8_t *base = data;
	struct btf_hdr h;
	const uint8_t *types, *end;
	const char *strs;
	bool found[SHIM_DELEG_NR] = { false };

	memset(names->table, 0, sizeof(names->table));
	names->builtin = false;
	if (size < sizeof(h))
		return shim_fail(err, EINVAL, "BTF: too short");
	memcpy(&h, base, sizeof(h));
	if (h.magic != BTF_MAGIC)
		return shim_fail(err, EINVAL, "BTF: bad magic 0x%x", h.magic);
	if (h.hdr_len < sizeof(h) || h.hdr_len > size ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > size)
		return shim_fail(err, EINVAL, "BTF: sections out of bounds");
	types = base + h.hdr_len + h.type_off;
	end = types + h.type_len;
	strs = (const char *)base + h.hdr_len + h.str_off;

	while (types < end) {
		struct btf_type_hdr t;
		uint32_t kind, vlen;
		size_t extra;
		const char *name;

		if ((size_t)(end - types) < sizeof(t))
			goto truncated;
		memcpy(&t, types, sizeof(t));
		kind = (t.info >> 24) & 0x1f;
		vlen = t.info & 0xffff;
		if (member_extra(kind, vlen, &extra)) {
			shim_deleg_names_free(names);
			return shim_fail(err, EINVAL, "BTF: unknown type kind %u", kind);
		}
		if ((size_t)(end - types) < sizeof(t) + extra)
			goto truncated;
		if (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64) {
			name = btf_str(strs, h.str_len, t.name_off);
			for (int k = 0; name && k < SHIM_DELEG_NR; k++) {
				if (found[k] || strcmp(name, shim_deleg_enum(k)) != 0)
					continue;
				if (add_members(&names->table[k], k, types + sizeof(t), vlen,
						kind == BTF_KIND_ENUM64, strs, h.str_len, err)) {
					shim_deleg_names_free(names);
					return -1;
				}
				found[k] = true;
			}
		}
		types += sizeof(t) + extra;
	}
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!found[k]) {
			shim_deleg_names_free(names);
			return shim_fail(err, ENOENT, "BTF: no enum %s", shim_deleg_enum(k));
		}
	}
	return 0;

truncated:
	shim_deleg_names_free(names);
	return shim_fail(err, EINVAL, "BTF: truncated type section");
}

void shim_deleg_names_load(const char *path, struct shim_deleg_names *names)
{
	struct shim_err err = { 0 };
	cleanup_free char *buf = NULL;
	cleanup_fd int fd = -1;
	size_t len = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		shim_fail(&err, errno, "open %s", path);
		goto fallback;
	}
	/* vmlinux BTF is a few MiB; allow for far more. */
	if (shim_read_all(fd, 64U << 20, &buf, &len, path, &err))
		goto fallback;
	if (shim_btf_parse_enums(buf, len, names, &err)) {
		shim_fail_wrap(&err, "%s", path);
		goto fallback;
	}
	snprintf(names->source, sizeof(names->source), "%s", path);
	return;

fallback:
	shim_deleg_names_builtin(names);
	snprintf(names->source, sizeof(names->source),
		 "the built-in table (Linux 6.1 names plus token_create), because %s", err.msg);
}
