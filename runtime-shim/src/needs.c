// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim bpf-needs: what a BPF token must delegate, and which capabilities
 * the loader needs, for libbpf to load some objects through it.
 *
 * The answer follows the kernel's token checks (kernel/bpf/syscall.c of
 * 6.9 and of this project's series) and what libbpf itself does at load
 * time with a token (its feature probes run through the token too):
 *  - delegate_cmds: only BPF_MAP_CREATE, BPF_PROG_LOAD and BPF_BTF_LOAD
 *    consult the token's commands; naming others changes nothing.
 *  - a program is loaded through the token only when its type and its
 *    expected attach type, after the kernel's default for cgroup_sock and
 *    sk_reuseport, are both delegated: a kprobe's attach type is 0, which
 *    is cgroup_inet_ingress.
 *  - BPF_TOKEN_CREATE takes CAP_BPF; map types, program types and helpers
 *    gated on CAP_NET_ADMIN or CAP_PERFMON take those, in the token's user
 *    namespace (CAP_SYS_ADMIN there stands in for both).
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "caps.h"
#include "needs.h"
#include "opts.h"

/* ---- formats ---------------------------------------------------------- */

struct needs_syntax {
	const char *name;
	const char *key[SHIM_DELEG_NR];	/* printed before the list */
	char sep;			/* between names */
	const char *first;		/* a line before the lists, or NULL */
	bool camel;			/* systemd's names: BPF_MAP_CREATE is BPFMapCreate */
};

static const struct needs_syntax syntaxes[SHIM_NEEDS_FORMAT_NR] = {
	[SHIM_NEEDS_SHIM] = { "shim", {
		"--bpf-delegate-cmds=", "--bpf-delegate-maps=",
		"--bpf-delegate-progs=", "--bpf-delegate-attachs=" }, ':', NULL },
	[SHIM_NEEDS_OCI] = { "oci", {
		"invalid.shim.bpffs.delegate_cmds=", "invalid.shim.bpffs.delegate_maps=",
		"invalid.shim.bpffs.delegate_progs=", "invalid.shim.bpffs.delegate_attachs=" },
		':', NULL },
	[SHIM_NEEDS_POLICY] = { "policy", {
		"delegate_cmds = ", "delegate_maps = ", "delegate_progs = ",
		"delegate_attachs = " }, ':', NULL },
	[SHIM_NEEDS_SYSTEMD] = { "systemd", {
		"BPFDelegateCommands=", "BPFDelegateMaps=", "BPFDelegatePrograms=",
		"BPFDelegateAttachments=" }, ',', "PrivateBPF=yes", true },
	[SHIM_NEEDS_INCUS] = { "incus", {
		"security.bpffs.delegate_cmds=", "security.bpffs.delegate_maps=",
		"security.bpffs.delegate_progs=", "security.bpffs.delegate_attachs=" },
		',', NULL },
	[SHIM_NEEDS_LXD] = { "lxd", {
		"security.delegate_bpf.cmd_types=", "security.delegate_bpf.map_types=",
		"security.delegate_bpf.prog_types=", "security.delegate_bpf.attach_types=" },
		':', "security.delegate_bpf=true" },
};

int shim_needs_format_from_name(const char *name)
{
	for (int f = 0; f < SHIM_NEEDS_FORMAT_NR; f++)
		if (strcmp(name, syntaxes[f].name) == 0)
			return f;
	return -1;
}

const char *shim_needs_format_name(int format)
{
	return syntaxes[format].name;
}

void shim_needs_caps_string(uint64_t caps, char *buf, size_t len)
{
	/* CAP_BPF first: every answer has it, the others are by type. */
	static const int order[] = { SHIM_CAP_BPF, SHIM_CAP_NET_ADMIN, SHIM_CAP_PERFMON, SHIM_CAP_SYS_ADMIN };
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		int n;

		if (!(caps & (1ULL << order[i])))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? " " : "", shim_cap_name((unsigned int)order[i]));
		if (n < 0 || (size_t)n >= len - off)
			return;
		off += (size_t)n;
	}
}

/* ---- what the kernel checks ------------------------------------------- */

/* Map types whose creation takes CAP_NET_ADMIN (map_create()). */
static bool map_needs_net_admin(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_XSKMAP:
		return true;
	default:
		return false;
	}
}

/* is_net_admin_prog_type() */
static bool prog_needs_net_admin(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_LIRC_MODE2:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_SOCK_OPS:
	case BPF_PROG_TYPE_EXT:
		return true;
	default:
		return false;
	}
}

/* is_perfmon_prog_type() */
static bool prog_needs_perfmon(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_LSM:
	case BPF_PROG_TYPE_STRUCT_OPS:
	case BPF_PROG_TYPE_EXT:
		return true;
	default:
		return false;
	}
}

uint64_t shim_needs_caps_of_masks(const uint64_t mask[SHIM_DELEG_NR])
{
	uint64_t caps = 1ULL << SHIM_CAP_BPF;

	for (uint32_t type = 0; type < 64; type++) {
		if (mask[SHIM_DELEG_PROGS] & (1ULL << type)) {
			if (prog_needs_net_admin(type))
				caps |= 1ULL << SHIM_CAP_NET_ADMIN;
			if (prog_needs_perfmon(type))
				caps |= 1ULL << SHIM_CAP_PERFMON;
		}
		if ((mask[SHIM_DELEG_MAPS] & (1ULL << type)) && map_needs_net_admin(type))
			caps |= 1ULL << SHIM_CAP_NET_ADMIN;
	}
	return caps;
}

/*
 * Helpers that bpf_base_func_proto(), bpf_sk_base_func_proto() and the
 * syscall program type offer only with CAP_PERFMON: a program of any type
 * that calls one needs it.
 */
static bool helper_needs_perfmon(int32_t id)
{
	switch (id) {
	case BPF_FUNC_trace_printk:
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_current_task_btf:
	case BPF_FUNC_probe_read_user:
	case BPF_FUNC_probe_read_kernel:
	case BPF_FUNC_probe_read_user_str:
	case BPF_FUNC_probe_read_kernel_str:
	case BPF_FUNC_snprintf_btf:
	case BPF_FUNC_snprintf:
	case BPF_FUNC_task_pt_regs:
	case BPF_FUNC_trace_vprintk:
	case BPF_FUNC_skc_to_tcp6_sock:
	case BPF_FUNC_skc_to_tcp_sock:
	case BPF_FUNC_skc_to_tcp_timewait_sock:
	case BPF_FUNC_skc_to_tcp_request_sock:
	case BPF_FUNC_skc_to_udp6_sock:
	case BPF_FUNC_skc_to_unix_sock:
	case BPF_FUNC_skc_to_mptcp_sock:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_sys_bpf:
		return true;
	default:
		return false;
	}
}

/* bpf_prog_load_fixup_attach_type(): the token sees the filled-in type. */
static uint32_t kernel_attach_type(uint32_t prog_type, uint32_t attach)
{
	if (attach)
		return attach;
	if (prog_type == BPF_PROG_TYPE_CGROUP_SOCK)
		return BPF_CGROUP_INET_SOCK_CREATE;
	if (prog_type == BPF_PROG_TYPE_SK_REUSEPORT)
		return BPF_SK_REUSEPORT_SELECT;
	return 0;
}

/*
 * libbpf's sections whose expected attach type it drops when its probe
 * (a cgroup_sock program expecting cgroup_inet_sock_create, loaded
 * through the token) fails: such a program needs the probe's delegation
 * as well as its own attach type, or it is loaded with attach type 0.
 */
static bool attach_type_is_probed(const char *section)
{
	static const char *const probed[] = {
		"xdp", "sockops", "sk_skb/stream_parser", "sk_skb/stream_verdict",
		"sk_msg", "lirc_mode2", "flow_dissector", "cgroup_skb/ingress",
		"cgroup_skb/egress", "cgroup/sock", "cgroup/dev",
	};

	for (size_t i = 0; i < ARRAY_SIZE(probed); i++)
		if (strcmp(section, probed[i]) == 0)
			return true;
	return false;
}

/* ---- collecting --------------------------------------------------------- */

static void unknown(struct shim_needs *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void unknown(struct shim_needs *n, const char *fmt, ...)
{
	size_t len = strlen(n->unknown);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->unknown + len, sizeof(n->unknown) - len, fmt, ap);
	va_end(ap);
	len = strlen(n->unknown);
	if (len + 1 < sizeof(n->unknown))
		strcat(n->unknown, "\n");
	n->incomplete = true;
}

static void need(struct shim_needs *n, int kind, uint32_t value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void need(struct shim_needs *n, int kind, uint32_t value, const char *fmt, ...)
{
	va_list ap;

	if (value >= 64) {
		unknown(n, "%s %u is beyond the 64 bits of %s", shim_deleg_what(kind),
			value, shim_deleg_option(kind));
		return;
	}
	if (n->mask[kind] & (1ULL << value))
		return;
	n->mask[kind] |= 1ULL << value;
	va_start(ap, fmt);
	vsnprintf(n->why[kind][value], SHIM_NEEDS_WHY_LEN, fmt, ap);
	va_end(ap);
}

static void need_cap(struct shim_needs *n, int cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void need_cap(struct shim_needs *n, int cap, const char *fmt, ...)
{
	va_list ap;

	if (n->caps & (1ULL << cap))
		return;
	n->caps |= 1ULL << cap;
	va_start(ap, fmt);
	vsnprintf(n->cap_why[cap], SHIM_NEEDS_WHY_LEN, fmt, ap);
	va_end(ap);
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int shim_needs_check_elf(const void *data, size_t size, struct shim_err *err)
{
	const unsigned char *ident = data;
	Elf64_Ehdr eh;

	if (size < SELFMAG || memcmp(ident, ELFMAG, SELFMAG) != 0)
		return shim_fail(err, 0, "not an ELF file (no \\177ELF at its start)");
	if (size < EI_NIDENT)
		return shim_fail(err, 0, "truncated: %zu bytes, shorter than an ELF identification", size);
	if (ident[EI_CLASS] != ELFCLASS64)
		return shim_fail(err, 0, "not a BPF object: a %s ELF file, BPF objects are 64-bit",
				 ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "malformed");
	if (ident[EI_DATA] != ELFDATA2LSB)
		return shim_fail(err, 0, "not a BPF object for this host: big-endian ELF");
	if (size < sizeof(eh))
		return shim_fail(err, 0, "truncated: %zu bytes, shorter than an ELF header (%zu)",
				 size, sizeof(eh));
	memcpy(&eh, data, sizeof(eh));
	if (eh.e_machine != EM_BPF)
		return shim_fail(err, 0, "not a BPF object: ELF machine %u (BPF is %u)",
				 eh.e_machine, EM_BPF);
	if (eh.e_type != ET_REL)
		return shim_fail(err, 0, "not a BPF object file: ELF type %u, libbpf loads relocatable objects (%u)",
				 eh.e_type, ET_REL);
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0)
		return shim_fail(err, 0, "malformed: no section headers of the ELF64 size");
	if (eh.e_shoff > size || (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)
		return shim_fail(err, 0, "truncated: its section headers end past its %zu bytes", size);
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, (const char *)data + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
			return shim_fail(err, 0, "truncated: section %u ends past its %zu bytes", i, size);
	}
	return 0;
}

/* The helper calls of some instructions (calls to subprograms and kfuncs aside). */
/* insns may lie at any offset of a file: each one is copied out, never read in place. */
static void scan_helpers(struct shim_needs *n, const void *insns, size_t cnt, const char *who)
{
	for (size_t i = 0; i < cnt; i++) {
		struct bpf_insn insn;

		memcpy(&insn, (const char *)insns + i * sizeof(insn), sizeof(insn));
		if (insn.code != (BPF_JMP | BPF_CALL) || insn.src_reg != 0)
			continue;
		if (helper_needs_perfmon(insn.imm))
			need_cap(n, SHIM_CAP_PERFMON, "%s calls helper %d, offered with CAP_PERFMON only",
				 who, insn.imm);
	}
}

/*
 * Subprograms live in .text, which libbpf appends to programs only at load.
 * data passed shim_needs_check_elf(): every section lies inside it.
 */
static void scan_text_section(struct shim_needs *n, const void *data, const char *obj)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strtab;

	memcpy(&eh, data, sizeof(eh));
	if (eh.e_shstrndx >= eh.e_shnum)
		return;
	memcpy(&strtab, (const char *)data + eh.e_shoff + eh.e_shstrndx * sizeof(strtab),
	       sizeof(strtab));
	/* Only a section with bytes in the file was checked to lie inside it. */
	if (strtab.sh_type == SHT_NOBITS)
		return;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		const char *name;
		char who[SHIM_NEEDS_WHY_LEN];

		memcpy(&sh, (const char *)data + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= strtab.sh_size)
			continue;
		name = (const char *)data + strtab.sh_offset + sh.sh_name;
		if (strnlen(name, strtab.sh_size - sh.sh_name) == strtab.sh_size - sh.sh_name ||
		    strcmp(name, ".text") != 0 || sh.sh_type != SHT_PROGBITS)
			continue;
		snprintf(who, sizeof(who), "%s: a subprogram in .text", obj);
		scan_helpers(n, (const char *)data + sh.sh_offset,
			     sh.sh_size / sizeof(struct bpf_insn), who);
	}
}

int shim_needs_scan_elf(const void *data, size_t size, struct shim_needs *n, const char *obj,
			struct shim_err *err)
{
	if (shim_needs_check_elf(data, size, err))
		return -1;
	scan_text_section(n, data, obj);
	return 0;
}

static void add_map(struct shim_needs *n, const struct bpf_map *map, const char *obj,
		    const char *role)
{
	uint32_t type = (uint32_t)bpf_map__type(map);

	need(n, SHIM_DELEG_CMDS, BPF_MAP_CREATE, "%s: map %s%s", obj, bpf_map__name(map), role);
	need(n, SHIM_DELEG_MAPS, type, "%s: map %s%s", obj, bpf_map__name(map), role);
	if (map_needs_net_admin(type))
		need_cap(n, SHIM_CAP_NET_ADMIN, "%s: map %s is of a type that takes CAP_NET_ADMIN",
			 obj, bpf_map__name(map));
}

/* libbpf's probe for global data: an array map used by a socket filter. */
static void add_global_data_probe(struct shim_needs *n, const char *obj, const char *map)
{
	need(n, SHIM_DELEG_CMDS, BPF_MAP_CREATE, "%s: global data (%s), libbpf's probe for it", obj, map);
	need(n, SHIM_DELEG_CMDS, BPF_PROG_LOAD, "%s: global data (%s), libbpf's probe for it", obj, map);
	need(n, SHIM_DELEG_MAPS, BPF_MAP_TYPE_ARRAY, "%s: global data (%s), libbpf's probe for it", obj, map);
	need(n, SHIM_DELEG_PROGS, BPF_PROG_TYPE_SOCKET_FILTER,
	     "%s: global data (%s): libbpf probes for it with a socket filter", obj, map);
	need(n, SHIM_DELEG_ATTACHS, 0, "%s: global data (%s): libbpf's probe program has attach type 0",
	     obj, map);
}

static void add_programs(struct shim_needs *n, struct bpf_object *o, const char *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, o) {
		uint32_t type = (uint32_t)bpf_program__type(prog);
		uint32_t attach = (uint32_t)bpf_program__expected_attach_type(prog);
		const char *name = bpf_program__name(prog), *sec = bpf_program__section_name(prog);
		char who[SHIM_NEEDS_WHY_LEN];

		if (!bpf_program__autoload(prog))
			continue;
		snprintf(who, sizeof(who), "%s: program %s (section %s)", obj, name, sec);
		if (type == BPF_PROG_TYPE_UNSPEC) {
			unknown(n, "%s: libbpf infers no program type from the section name; "
				"the loader must set it (bpf_program__set_type), so its program "
				"and attach types are unknown here", who);
			continue;
		}
		need(n, SHIM_DELEG_CMDS, BPF_PROG_LOAD, "%s", who);
		need(n, SHIM_DELEG_PROGS, type, "%s", who);
		need(n, SHIM_DELEG_ATTACHS, kernel_attach_type(type, attach),
		     "%s, as the kernel sees its expected attach type", who);
		if (attach && attach_type_is_probed(sec)) {
			need(n, SHIM_DELEG_PROGS, BPF_PROG_TYPE_CGROUP_SOCK,
			     "%s: libbpf keeps its attach type only if its cgroup_sock probe loads", who);
			need(n, SHIM_DELEG_ATTACHS, BPF_CGROUP_INET_SOCK_CREATE,
			     "%s: libbpf keeps its attach type only if its cgroup_sock probe loads", who);
			need_cap(n, SHIM_CAP_NET_ADMIN, "%s: libbpf's cgroup_sock probe", who);
		}
		if (prog_needs_net_admin(type))
			need_cap(n, SHIM_CAP_NET_ADMIN, "%s: its program type takes CAP_NET_ADMIN", who);
		if (prog_needs_perfmon(type))
			need_cap(n, SHIM_CAP_PERFMON, "%s: its program type takes CAP_PERFMON", who);
		scan_helpers(n, bpf_program__insns(prog), bpf_program__insn_cnt(prog), who);
	}
}

static void add_maps(struct shim_needs *n, struct bpf_object *o, const char *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, o) {
		struct bpf_map *inner;

		if (!bpf_map__autocreate(map))
			continue;
		add_map(n, map, obj, "");
		if (bpf_map__is_internal(map))
			add_global_data_probe(n, obj, bpf_map__name(map));
		/* libbpf creates the inner map's template first, through the token too */
		inner = bpf_map__inner_map(map);
		if (inner)
			add_map(n, inner, obj, ", its inner map");
	}
}

static int libbpf_warnings(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	fputs("shim bpf-needs: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static void unmap(void *p)
{
	struct { void *addr; size_t len; } *m = p;

	if (m->addr && m->addr != MAP_FAILED)
		munmap(m->addr, m->len);
}

int shim_needs_add_object(const char *path, struct shim_needs *n, struct shim_err *err)
{
	__attribute__((cleanup(unmap))) struct { void *addr; size_t len; } file = { NULL, 0 };
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *obj = base(path);
	struct bpf_object *o;
	struct stat st;
	long rc;

	if (fd < 0)
		return shim_fail(err, errno, "%s", path);
	if (fstat(fd, &st) < 0)
		return shim_fail(err, errno, "%s: fstat", path);
	if (!S_ISREG(st.st_mode))
		return shim_fail(err, 0, "%s: not a regular file", path);
	if (st.st_size == 0)
		return shim_fail(err, 0, "%s: empty file, not an ELF file", path);
	file.len = (size_t)st.st_size;
	file.addr = mmap(NULL, file.len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (file.addr == MAP_FAILED)
		return shim_fail(err, errno, "%s: mmap", path);
	if (shim_needs_scan_elf(file.addr, file.len, n, obj, err))
		return shim_fail_wrap(err, "%s", path);

	libbpf_set_print(libbpf_warnings);
	o = bpf_object__open_file(path, NULL);
	rc = libbpf_get_error(o);
	if (rc)
		return shim_fail(err, (int)-rc, "%s: libbpf cannot open it", path);

	add_programs(n, o, obj);
	add_maps(n, o, obj);
	if (bpf_object__btf(o))
		need(n, SHIM_DELEG_CMDS, BPF_BTF_LOAD,
		     "%s: its BTF (.BTF), which libbpf leaves out when it cannot load it", obj);
	bpf_object__close(o);
	if (n->mask[SHIM_DELEG_CMDS])
		need_cap(n, SHIM_CAP_BPF, "BPF_TOKEN_CREATE and every load through the token");
	return 0;
}

/* ---- printing ------------------------------------------------------------ */

static const char *name_of(const struct shim_deleg_names *names, int kind, uint32_t value)
{
	const struct shim_enum_table *t = &names->table[kind];

	/* The first name the table gives a value: the enum's own, not an alias. */
	for (size_t i = 0; i < t->n; i++)
		if (t->entry[i].value == value)
			return t->entry[i].name;
	return NULL;
}

/*
 * systemd names the enum members in its own spelling: the whole member
 * name (prefix included), "BPF" and then each word capitalized.
 */
static void print_camel(FILE *out, int kind, const char *name)
{
	char full[128];
	bool word_start = true;

	snprintf(full, sizeof(full), "%s%s", shim_deleg_prefix(kind), name);
	fputs("BPF", out);
	for (const char *p = full + 4; *p; p++) {
		if (*p == '_') {
			word_start = true;
			continue;
		}
		fputc(word_start ? toupper((unsigned char)*p) : tolower((unsigned char)*p), out);
		word_start = false;
	}
}

int shim_needs_print(FILE *out, struct shim_needs *n, int format,
		     const struct shim_deleg_names *names, struct shim_err *err)
{
	const struct needs_syntax *s = &syntaxes[format];

	if (s->first && (n->mask[0] | n->mask[1] | n->mask[2] | n->mask[3]))
		fprintf(out, "%s\n", s->first);
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		bool first = true;

		if (!n->mask[k])
			continue;
		fputs(s->key[k], out);
		for (uint32_t v = 0; v < 64; v++) {
			const char *name;

			if (!(n->mask[k] & (1ULL << v)))
				continue;
			name = name_of(names, k, v);
			if (!name) {
				unknown(n, "%s %u has no name in %s: a newer kernel's type?",
					shim_deleg_what(k), v, names->source);
				continue;
			}
			if (!first)
				fputc(s->sep, out);
			if (s->camel)
				print_camel(out, k, name);
			else
				fputs(name, out);
			first = false;
		}
		fputc('\n', out);
	}
	if (fflush(out) || ferror(out))
		return shim_fail(err, errno, "write the answer");
	return 0;
}

/* ---- the subcommand ------------------------------------------------------ */

static void usage(FILE *out)
{
	fputs(
"Usage: shim bpf-needs [--format FORMAT] [--verbose] OBJ...\n"
"\n"
"Print the least BPF FS delegation under which libbpf loads the BPF ELF\n"
"objects OBJ... through a BPF token, and the capabilities the loading\n"
"process needs in the container's user namespace.  The objects are opened\n"
"with libbpf, never loaded; the answer is the union for all of them.\n"
"\n"
"Options:\n"
"  --format FORMAT  the consumer's syntax: shim (the default), oci, policy,\n"
"                   systemd, incus or lxd (below)\n"
"  --verbose        say on stderr why each item is needed\n"
"  --help           show this text\n"
"\n"
"Formats:\n"
"  shim     shim run options (--bpf-delegate-cmds=...), one a line\n"
"  oci      annotations for shim hook bpffs, KEY=VALUE (podman --annotation,\n"
"           config.json)\n"
"  policy   lines of the hook's host policy (/etc/shim/bpffs-policy.conf)\n"
"  systemd  unit settings: PrivateBPF=yes, BPFDelegateCommands= and the\n"
"           others, in systemd's names (BPFMapCreate)\n"
"  incus    incus config set keys, security.bpffs.delegate_*\n"
"  lxd      lxc config set keys, security.delegate_bpf.*\n"
"\n"
"Capabilities:\n"
"  They go to stderr, one line: \"shim bpf-needs: capabilities: CAP_BPF\"\n"
"  and CAP_NET_ADMIN or CAP_PERFMON where needed.  shim run and LXD or\n"
"  Incus containers have every capability of their user namespace; podman\n"
"  needs --cap-add, runc and crun process.capabilities.\n"
"\n"
"What is derived:\n"
"  commands     map_create for maps (libbpf's .data/.rodata/.bss/.kconfig\n"
"               arrays too), prog_load for programs, btf_load for an object\n"
"               with BTF.  No other command is named: the kernel consults\n"
"               delegate_cmds only for these three (BPF_LINK_CREATE,\n"
"               BPF_PROG_ATTACH and BPF_OBJ_PIN take no token).\n"
"  maps         of every map libbpf creates, inner maps included\n"
"  progs        as libbpf infers them from section names\n"
"  attachs      the expected attach type each program is loaded with, as\n"
"               the kernel sees it: 0 (cgroup_inet_ingress) for program\n"
"               types without one, such as kprobe and socket_filter\n"
"  probes       an object with global data needs libbpf's probe for it\n"
"               (an array map and a socket filter through the token), or\n"
"               libbpf does not create the global data maps\n"
"\n"
"Not derived:\n"
"  Program and map names (libbpf probes for them with a socket filter and\n"
"  leaves them out when that fails), and what the verifier allows with\n"
"  CAP_PERFMON beyond its helpers (pointer leaks, Spectre mitigations).\n"
"\n"
"Exit status:\n"
"  0 the answer is complete; 1 the answer is printed, but part of an object\n"
"  could not be derived (said on stderr as \"unknown: ...\", for example a\n"
"  program whose type the loader sets at run time); 125 an error (not an\n"
"  ELF file, not BPF, truncated, libbpf cannot open it, bad usage).\n",
	      out);
}

static void explain(const struct shim_voice *v, const struct shim_needs *n,
		    const struct shim_deleg_names *names)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++)
		for (uint32_t b = 0; b < 64; b++) {
			const char *name = name_of(names, k, b);

			if (n->mask[k] & (1ULL << b))
				shim_note(v, "%s %s: %s", shim_deleg_option(k), name ? name : "?",
					  n->why[k][b]);
		}
	for (int c = 0; c < 64; c++)
		if (n->caps & (1ULL << c))
			shim_note(v, "%s: %s", shim_cap_name((unsigned int)c), n->cap_why[c]);
}

enum { NEEDS_OPT_FORMAT, NEEDS_OPT_VERBOSE, NEEDS_OPT_HELP };

int shim_bpf_needs_main(int argc, char *const argv[])
{
	static const struct shim_opt needs_opts[] = {
		{ "--format", "-f", true, NEEDS_OPT_FORMAT },
		{ "--verbose", "-v", false, NEEDS_OPT_VERBOSE },
		{ "--help", "-h", false, NEEDS_OPT_HELP },
	};
	cleanup_free struct shim_needs *n = calloc(1, sizeof(*n));
	struct shim_deleg_names names = { 0 };
	struct shim_err err = { 0 };
	int format = SHIM_NEEDS_SHIM, i, rc = SHIM_EXIT_ERROR;
	struct shim_voice voice = { .who = "shim bpf-needs" };
	char caps[128] = "";

	if (!n) {
		shim_fail(&err, ENOMEM, "bpf-needs");
		shim_err_print_as(voice.who, &err);
		return SHIM_EXIT_ERROR;
	}
	for (i = 1; i < argc; i++) {
		const char *v;
		int id, r;

		r = shim_opt_next("shim bpf-needs", needs_opts, ARRAY_SIZE(needs_opts), argc, argv,
				  &i, &id, &v, &err);
		if (r < 0)
			goto out;
		if (r == 0)
			break;
		switch (id) {
		case NEEDS_OPT_FORMAT:
			format = shim_needs_format_from_name(v);
			if (format < 0) {
				shim_fail(&err, 0, "--format %s: unknown (valid: shim, oci, policy, systemd, incus, lxd)",
					  v);
				goto out;
			}
			break;
		case NEEDS_OPT_VERBOSE:
			voice.verbose = true;
			break;
		default:
			usage(stdout);
			return 0;
		}
	}
	if (i >= argc) {
		shim_fail(&err, 0, "no BPF object given (shim bpf-needs --help)");
		goto out;
	}
	for (; i < argc; i++)
		if (shim_needs_add_object(argv[i], n, &err))
			goto out;

	shim_deleg_names_load("/sys/kernel/btf/vmlinux", &names);
	if (shim_needs_print(stdout, n, format, &names, &err))
		goto out;
	shim_needs_caps_string(n->caps, caps, sizeof(caps));
	if (caps[0])
		shim_warn(&voice, "capabilities: %s", caps);
	else
		shim_warn(&voice, "nothing to delegate: the objects have no maps or programs");
	explain(&voice, n, &names);
	for (char *line = n->unknown, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		shim_warn(&voice, "unknown: %.*s", (int)(nl - line), line);
	}
	rc = n->incomplete ? 1 : 0;
out:
	if (err.msg[0])
		shim_err_print_as(voice.who, &err);
	shim_deleg_names_free(&names);
	return rc;
}
