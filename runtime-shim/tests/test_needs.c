// SPDX-License-Identifier: GPL-2.0-or-later
/* shim bpf-needs: bad input is named precisely; answers in each consumer's syntax. */
#include <elf.h>
#include <stdio.h>

#include <linux/bpf.h>

#include "testutil.h"

#include "needs.h"

/* A minimal ELF64 relocatable BPF object: a null section and .shstrtab. */
struct tiny_elf {
	Elf64_Ehdr eh;
	Elf64_Shdr sh[2];
	char strs[16];
};

static void tiny_elf(struct tiny_elf *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->eh.e_ident, ELFMAG, SELFMAG);
	e->eh.e_ident[EI_CLASS] = ELFCLASS64;
	e->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	e->eh.e_ident[EI_VERSION] = EV_CURRENT;
	e->eh.e_type = ET_REL;
	e->eh.e_machine = EM_BPF;
	e->eh.e_version = EV_CURRENT;
	e->eh.e_ehsize = sizeof(Elf64_Ehdr);
	e->eh.e_shoff = offsetof(struct tiny_elf, sh);
	e->eh.e_shentsize = sizeof(Elf64_Shdr);
	e->eh.e_shnum = 2;
	e->eh.e_shstrndx = 1;
	memcpy(e->strs, "\0.shstrtab", 11);
	e->sh[1].sh_name = 1;
	e->sh[1].sh_type = SHT_STRTAB;
	e->sh[1].sh_offset = offsetof(struct tiny_elf, strs);
	e->sh[1].sh_size = sizeof(e->strs);
}

static void expect_bad(const void *data, size_t size, const char *want)
{
	struct shim_err err = { 0 };

	assert_int_equal(shim_needs_check_elf(data, size, &err), -1);
	assert_contains(err.msg, want);
}

static void test_check_elf(void **state)
{
	struct shim_err err = { 0 };
	struct tiny_elf e;

	(void)state;
	tiny_elf(&e);
	assert_int_equal(shim_needs_check_elf(&e, sizeof(e), &err), 0);

	expect_bad("#!/bin/sh\necho hi\n", 18, "not an ELF file");
	expect_bad("\177EL", 3, "not an ELF file");
	expect_bad(&e, 10, "truncated: 10 bytes, shorter than an ELF identification");
	expect_bad(&e, 40, "truncated: 40 bytes, shorter than an ELF header");
	expect_bad(&e, sizeof(e.eh) + 10, "truncated: its section headers end past");
	expect_bad(&e, sizeof(e) - 4, "truncated: section 1 ends past");

	tiny_elf(&e);
	e.eh.e_machine = EM_X86_64;
	expect_bad(&e, sizeof(e), "not a BPF object: ELF machine 62 (BPF is 247)");
	tiny_elf(&e);
	e.eh.e_ident[EI_CLASS] = ELFCLASS32;
	expect_bad(&e, sizeof(e), "not a BPF object: a 32-bit ELF file");
	tiny_elf(&e);
	e.eh.e_ident[EI_DATA] = ELFDATA2MSB;
	expect_bad(&e, sizeof(e), "big-endian");
	tiny_elf(&e);
	e.eh.e_type = ET_EXEC;
	expect_bad(&e, sizeof(e), "ELF type 2, libbpf loads relocatable objects (1)");
	tiny_elf(&e);
	e.eh.e_shnum = 0;
	expect_bad(&e, sizeof(e), "malformed: no section headers");
}

/* A well-formed ELF that is no libbpf object: libbpf's refusal, with the path. */
static void test_libbpf_refuses(void **state)
{
	char path[] = "/tmp/test_needs.XXXXXX";
	struct shim_needs *n = calloc(1, sizeof(*n));
	struct shim_err err = { 0 };
	struct tiny_elf e;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0 && n);
	tiny_elf(&e);
	assert_int_equal(write(fd, &e, sizeof(e)), (ssize_t)sizeof(e));
	close(fd);
	assert_int_equal(shim_needs_add_object(path, n, &err), -1);
	assert_contains(err.msg, path);
	assert_contains(err.msg, "libbpf cannot open it");
	unlink(path);

	assert_int_equal(shim_needs_add_object("/nonexistent.bpf.o", n, &err), -1);
	assert_string_equal(err.msg, "/nonexistent.bpf.o: No such file or directory");
	assert_int_equal(shim_needs_add_object("/", n, &err), -1);
	assert_string_equal(err.msg, "/: not a regular file");
	free(n);
}

static void print(struct shim_needs *n, int format, char *buf, size_t len)
{
	struct shim_deleg_names names = { 0 };
	struct shim_err err = { 0 };
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	shim_deleg_names_builtin(&names);
	assert_int_equal(shim_needs_print(f, n, format, &names, &err), 0);
	fclose(f);
	shim_deleg_names_free(&names);
}

/* What a socket filter with a map and BTF needs, in every syntax. */
static void test_formats(void **state)
{
	static const char *const want[SHIM_NEEDS_FORMAT_NR] = {
		[SHIM_NEEDS_SHIM] =
			"--bpf-delegate-cmds=map_create:prog_load:btf_load\n"
			"--bpf-delegate-maps=hash:array\n"
			"--bpf-delegate-progs=socket_filter\n"
			"--bpf-delegate-attachs=cgroup_inet_ingress\n",
		[SHIM_NEEDS_OCI] =
			"invalid.shim.bpffs.delegate_cmds=map_create:prog_load:btf_load\n"
			"invalid.shim.bpffs.delegate_maps=hash:array\n"
			"invalid.shim.bpffs.delegate_progs=socket_filter\n"
			"invalid.shim.bpffs.delegate_attachs=cgroup_inet_ingress\n",
		[SHIM_NEEDS_POLICY] =
			"delegate_cmds = map_create:prog_load:btf_load\n"
			"delegate_maps = hash:array\n"
			"delegate_progs = socket_filter\n"
			"delegate_attachs = cgroup_inet_ingress\n",
		[SHIM_NEEDS_SYSTEMD] =
			"PrivateBPF=yes\n"
			"BPFDelegateCommands=BPFMapCreate,BPFProgLoad,BPFBtfLoad\n"
			"BPFDelegateMaps=BPFMapTypeHash,BPFMapTypeArray\n"
			"BPFDelegatePrograms=BPFProgTypeSocketFilter\n"
			"BPFDelegateAttachments=BPFCgroupInetIngress\n",
		[SHIM_NEEDS_INCUS] =
			"security.bpffs.delegate_cmds=map_create,prog_load,btf_load\n"
			"security.bpffs.delegate_maps=hash,array\n"
			"security.bpffs.delegate_progs=socket_filter\n"
			"security.bpffs.delegate_attachs=cgroup_inet_ingress\n",
		[SHIM_NEEDS_LXD] =
			"security.delegate_bpf=true\n"
			"security.delegate_bpf.cmd_types=map_create:prog_load:btf_load\n"
			"security.delegate_bpf.map_types=hash:array\n"
			"security.delegate_bpf.prog_types=socket_filter\n"
			"security.delegate_bpf.attach_types=cgroup_inet_ingress\n",
	};
	struct shim_needs *n = calloc(1, sizeof(*n));
	char buf[1024];

	(void)state;
	assert_non_null(n);
	n->mask[SHIM_DELEG_CMDS] = 1ULL << BPF_MAP_CREATE | 1ULL << BPF_PROG_LOAD | 1ULL << BPF_BTF_LOAD;
	n->mask[SHIM_DELEG_MAPS] = 1ULL << BPF_MAP_TYPE_ARRAY | 1ULL << BPF_MAP_TYPE_HASH;
	n->mask[SHIM_DELEG_PROGS] = 1ULL << BPF_PROG_TYPE_SOCKET_FILTER;
	n->mask[SHIM_DELEG_ATTACHS] = 1ULL << BPF_CGROUP_INET_INGRESS;
	for (int f = 0; f < SHIM_NEEDS_FORMAT_NR; f++) {
		memset(buf, 0, sizeof(buf));
		print(n, f, buf, sizeof(buf));
		assert_string_equal(buf, want[f]);
		assert_int_equal(shim_needs_format_from_name(shim_needs_format_name(f)), f);
	}
	assert_false(n->incomplete);
	assert_int_equal(shim_needs_format_from_name("docker"), -1);

	/* Nothing to delegate: nothing printed, not even PrivateBPF=yes. */
	memset(n->mask, 0, sizeof(n->mask));
	memset(buf, 0, sizeof(buf));
	print(n, SHIM_NEEDS_SYSTEMD, buf, sizeof(buf));
	assert_string_equal(buf, "");
	free(n);
}

/* A type the name table does not know is never printed as a guess. */
static void test_unnamed_type(void **state)
{
	struct shim_needs *n = calloc(1, sizeof(*n));
	char buf[256] = "";

	(void)state;
	assert_non_null(n);
	n->mask[SHIM_DELEG_PROGS] = 1ULL << BPF_PROG_TYPE_SOCKET_FILTER | 1ULL << 62;
	print(n, SHIM_NEEDS_SHIM, buf, sizeof(buf));
	assert_string_equal(buf, "--bpf-delegate-progs=socket_filter\n");
	assert_true(n->incomplete);
	assert_contains(n->unknown, "program type 62 has no name in the built-in table");
	free(n);
}

static void test_caps_string(void **state)
{
	char buf[128];

	(void)state;
	shim_needs_caps_string(1ULL << SHIM_CAP_PERFMON | 1ULL << SHIM_CAP_BPF | 1ULL << SHIM_CAP_NET_ADMIN,
			       buf, sizeof(buf));
	assert_string_equal(buf, "CAP_BPF CAP_NET_ADMIN CAP_PERFMON");
	shim_needs_caps_string(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_elf),
		cmocka_unit_test(test_libbpf_refuses),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_unnamed_type),
		cmocka_unit_test(test_caps_string),
	};

	return cmocka_run_group_tests_name("needs", tests, NULL, NULL);
}
