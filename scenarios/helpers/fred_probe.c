// SPDX-License-Identifier: GPL-2.0
/*
 * What the CPU and the kernel say about FRED, for scenarios/guest/10-fred.
 * usage: fred_probe cpuid     print "fred=B lkgs=B wrmsrns=B": the bits of
 *                             CPUID.(EAX=7,ECX=1):EAX, 17-19 (FRED needs all three)
 *        fred_probe pt-regs   exit 0 if the kernel's BTF gives struct pt_regs
 *                             FRED's fields (fred_cs, fred_ss), as every kernel
 *                             since 6.9 does, with or without CONFIG_X86_FRED
 */
#include <cpuid.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

static int print_cpuid(void)
{
	unsigned int eax = 0, ebx, ecx, edx, subleaves = 0;

	/* Leaf 7's subleaf 0 says how many subleaves follow. */
	if (__get_cpuid_count(7, 0, &subleaves, &ebx, &ecx, &edx) && subleaves >= 1)
		__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx);
	printf("fred=%u lkgs=%u wrmsrns=%u\n", eax >> 17 & 1, eax >> 18 & 1, eax >> 19 & 1);
	return 0;
}

/* pt_regs keeps cs and ss next to FRED's views of them in anonymous unions. */
static bool has_member(const struct btf *btf, const struct btf_type *t, const char *name)
{
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = btf__type_by_id(btf, m->type);

		if (m->name_off && !strcmp(btf__name_by_offset(btf, m->name_off), name))
			return true;
		if (!m->name_off && mt && btf_is_composite(mt) && has_member(btf, mt, name))
			return true;
	}
	return false;
}

static int check_pt_regs(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *regs;
	bool cs, ss;
	int id;

	if (!btf) {
		fprintf(stderr, "fred_probe: no kernel BTF\n");
		return 2;
	}
	id = btf__find_by_name_kind(btf, "pt_regs", BTF_KIND_STRUCT);
	if (id < 0) {
		fprintf(stderr, "fred_probe: no struct pt_regs in the kernel's BTF\n");
		btf__free(btf);
		return 2;
	}
	regs = btf__type_by_id(btf, id);
	cs = has_member(btf, regs, "fred_cs");
	ss = has_member(btf, regs, "fred_ss");
	btf__free(btf);
	printf("struct pt_regs: %s fred_cs, %s fred_ss\n", cs ? "has" : "no", ss ? "has" : "no");
	return cs && ss ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "cpuid"))
		return print_cpuid();
	if (argc == 2 && !strcmp(argv[1], "pt-regs"))
		return check_pt_regs();
	fprintf(stderr, "usage: fred_probe cpuid | pt-regs\n");
	return 2;
}
