// SPDX-License-Identifier: GPL-2.0-or-later
/* The BTF enum reader, on synthetic BTF and (if present) the host's vmlinux. */
#include <unistd.h>

#include "testutil.h"

#include "btf.h"
#include "delegate.h"

struct blob {
	uint8_t buf[4096];
	size_t types;		/* bytes of the type section so far */
	char strs[1024];
	size_t str_len;
	uint8_t out[8192];
	size_t out_len;
};

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = (uint32_t)b->str_len;

	if (b->str_len == 0) {
		b->strs[0] = '\0';
		b->str_len = 1;
		off = 1;
	}
	memcpy(b->strs + b->str_len, s, strlen(s) + 1);
	b->str_len += strlen(s) + 1;
	return off;
}

static void put32(struct blob *b, uint32_t v)
{
	memcpy(b->buf + b->types, &v, 4);
	b->types += 4;
}

static void type(struct blob *b, const char *name, uint32_t kind, uint32_t vlen, uint32_t size)
{
	put32(b, name ? str(b, name) : 0);
	put32(b, (kind << 24) | vlen);
	put32(b, size);
}

static void finish(struct blob *b)
{
	struct {
		uint16_t magic;
		uint8_t version, flags;
		uint32_t hdr_len, type_off, type_len, str_off, str_len;
	} h = { 0xeB9F, 1, 0, 24, 0, (uint32_t)b->types, (uint32_t)b->types, (uint32_t)b->str_len };

	memcpy(b->out, &h, 24);
	memcpy(b->out + 24, b->buf, b->types);
	memcpy(b->out + 24 + b->types, b->strs, b->str_len);
	b->out_len = 24 + b->types + b->str_len;
}

static void enum32(struct blob *b, const char *name, const char *const *members, const uint32_t *vals, uint32_t n)
{
	type(b, name, 6, n, 4);
	for (uint32_t i = 0; i < n; i++) {
		put32(b, str(b, members[i]));
		put32(b, vals[i]);
	}
}

static void build(struct blob *b, bool with_attach)
{
	static const char *const cmds[] = { "BPF_MAP_CREATE", "BPF_PROG_LOAD", "BPF_TOKEN_CREATE", "__MAX_BPF_CMD" };
	static const uint32_t cmdv[] = { 0, 5, 36, 37 };
	static const char *const progs[] = { "BPF_PROG_TYPE_UNSPEC", "BPF_PROG_TYPE_SOCKET_FILTER", "BPF_PROG_TYPE_XDP" };
	static const uint32_t progv[] = { 0, 1, 6 };
	static const char *const att[] = { "BPF_CGROUP_INET_INGRESS", "BPF_XDP", "__MAX_BPF_ATTACH_TYPE" };
	static const uint32_t attv[] = { 0, 37, 38 };

	memset(b, 0, sizeof(*b));
	type(b, "int", 1, 0, 4);
	put32(b, 0x20);				/* int encoding */
	type(b, "s", 4, 1, 4);			/* struct s { int x; } */
	put32(b, str(b, "x"));
	put32(b, 1);
	put32(b, 0);
	type(b, NULL, 2, 0, 1);			/* pointer */
	type(b, "f", 13, 2, 1);			/* func proto, 2 params */
	put32(b, 0); put32(b, 1); put32(b, 0); put32(b, 1);
	enum32(b, "bpf_cmd", cmds, cmdv, 4);
	/* bpf_map_type as ENUM64 */
	type(b, "bpf_map_type", 19, 3, 8);
	put32(b, str(b, "BPF_MAP_TYPE_HASH")); put32(b, 1); put32(b, 0);
	put32(b, str(b, "BPF_MAP_TYPE_ARRAY")); put32(b, 2); put32(b, 0);
	put32(b, str(b, "BPF_MAP_TYPE_ARENA")); put32(b, 33); put32(b, 0);
	enum32(b, "bpf_prog_type", progs, progv, 3);
	type(b, "other_enum", 6, 0, 4);
	if (with_attach)
		enum32(b, "bpf_attach_type", att, attv, 3);
	finish(b);
}

static void test_parse(void **state)
{
	struct blob *b = calloc(1, sizeof(*b));
	struct shim_deleg_names n;
	struct shim_err err = { 0 };
	char list[512];
	uint64_t m;

	(void)state;
	build(b, true);
	assert_int_equal(shim_btf_parse_enums(b->out, b->out_len, &n, &err), 0);
	assert_false(n.builtin);
	assert_int_equal(n.table[SHIM_DELEG_CMDS].n, 3);	/* not __MAX_BPF_CMD */
	assert_int_equal(shim_delegate_valid_list(&n, SHIM_DELEG_CMDS, list, sizeof(list)), 0);
	assert_string_equal(list, "map_create, prog_load, token_create");
	assert_int_equal(shim_delegate_valid_list(&n, SHIM_DELEG_MAPS, list, sizeof(list)), 0);
	assert_string_equal(list, "hash, array, arena");
	assert_int_equal(shim_delegate_resolve(&n, SHIM_DELEG_MAPS, "ARENA:hash", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, (1ULL << 33) | 2);
	assert_int_equal(shim_delegate_resolve(&n, SHIM_DELEG_ATTACHS, "xdp", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 1ULL << 37);
	assert_int_equal(shim_delegate_resolve(&n, SHIM_DELEG_MAPS, "queue", shim_deleg_flag(SHIM_DELEG_MAPS), &m, NULL, 0, &err), -1);
	assert_contains(err.msg, "--bpf-delegate-maps=queue: unknown map type \"queue\" (valid: hash, array, arena)");
	shim_deleg_names_free(&n);
	free(b);
}

static void test_bad_blobs(void **state)
{
	struct blob *b = calloc(1, sizeof(*b));
	struct shim_deleg_names n;
	struct shim_err err = { 0 };

	(void)state;
	build(b, false);
	assert_int_equal(shim_btf_parse_enums(b->out, b->out_len, &n, &err), -1);
	assert_contains(err.msg, "no enum bpf_attach_type");

	build(b, true);
	b->out[0] ^= 0xff;
	assert_int_equal(shim_btf_parse_enums(b->out, b->out_len, &n, &err), -1);
	assert_contains(err.msg, "bad magic");

	build(b, true);
	assert_int_equal(shim_btf_parse_enums(b->out, 10, &n, &err), -1);
	assert_contains(err.msg, "too short");
	assert_int_equal(shim_btf_parse_enums(b->out, b->out_len - 20, &n, &err), -1);
	assert_contains(err.msg, "out of bounds");

	/* type_len cutting a record in half */
	build(b, true);
	{
		uint32_t tl;

		memcpy(&tl, b->out + 12, 4);
		tl -= 6;
		memcpy(b->out + 12, &tl, 4);
	}
	assert_int_equal(shim_btf_parse_enums(b->out, b->out_len, &n, &err), -1);
	free(b);
}

static void test_fallback(void **state)
{
	struct shim_deleg_names n = { 0 };

	(void)state;
	shim_deleg_names_load("/nonexistent/vmlinux", &n);
	assert_true(n.builtin);
	assert_contains(n.source, "built-in table");
	assert_contains(n.source, "/nonexistent/vmlinux: No such file or directory");
	assert_true(n.table[SHIM_DELEG_CMDS].n > 30);
	shim_deleg_names_free(&n);
}

static void test_host_vmlinux(void **state)
{
	struct shim_deleg_names n = { 0 };
	struct shim_err err = { 0 };
	uint64_t m;

	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		skip();
	shim_deleg_names_load("/sys/kernel/btf/vmlinux", &n);
	assert_false(n.builtin);
	assert_int_equal(shim_delegate_resolve(&n, SHIM_DELEG_CMDS, "map_create:prog_load:btf_load", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, (1ULL << 0) | (1ULL << 5) | (1ULL << 18));
	assert_int_equal(shim_delegate_resolve(&n, SHIM_DELEG_PROGS, "socket_filter:kprobe", NULL, &m, NULL, 0, &err), 0);
	assert_int_equal(m, 0x6);
	shim_deleg_names_free(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bad_blobs),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_host_vmlinux),
	};

	return cmocka_run_group_tests_name("btf", tests, NULL, NULL);
}
