// SPDX-License-Identifier: GPL-2.0
/*
 * Runs inside a shim container for shim/47-bpf-needs: loads a BPF object
 * with libbpf, as an unmodified application would (the implicit token from
 * /sys/fs/bpf), and says whether all of it reached the kernel: every
 * program, every map (libbpf skips global data maps when its probe for
 * them fails) and the object's BTF (libbpf leaves it out when the kernel
 * refuses it).
 *
 * usage: shim_objload [--debug] [--drop-cap N]... OBJ
 *   --debug       libbpf's debug messages too (stderr)
 *   --drop-cap N  drop capability N from every set first (repeatable)
 * output, one line:
 *   loaded: P programs, M maps, BTF loaded|no BTF
 *   lost: WHAT                   (loaded, but WHAT did not reach the kernel)
 *   refused: ERRNAME (message)   (bpf_object__load failed)
 * exit: 0 loaded whole, 3 lost, 2 refused, 1 anything else.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static int drop_caps(unsigned long long drop)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	for (int cap = 0; cap < 64; cap++)
		if ((drop & (1ULL << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return -1;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		__u32 keep = ~(__u32)(drop >> (32 * i));

		data[i].effective &= keep;
		data[i].permitted &= keep;
		data[i].inheritable &= keep;
	}
	return (int)syscall(SYS_capset, &hdr, data);
}

static int warnings(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* An unprivileged container cannot raise RLIMIT_MEMLOCK; not needed. */
	if (level == LIBBPF_WARN && !strstr(fmt, "RLIMIT_MEMLOCK"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static int everything(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	unsigned long long drop = 0;
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	struct btf *btf;
	char lost[512] = "";
	int i, err, progs = 0, maps = 0;

	libbpf_set_print(warnings);
	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--debug") == 0)
			libbpf_set_print(everything);
		else if (strcmp(argv[i], "--drop-cap") == 0)
			drop |= 1ULL << atoi(argv[++i]);
		else
			break;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: shim_objload [--debug] [--drop-cap N]... OBJ\n");
		return 1;
	}
	if (drop && drop_caps(drop) < 0) {
		printf("error: dropping capabilities 0x%llx: %s\n", drop, strerror(errno));
		return 1;
	}
	obj = bpf_object__open_file(argv[i], NULL);
	err = (int)libbpf_get_error(obj);
	if (err) {
		printf("error: open %s: %s\n", argv[i], strerror(-err));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		printf("refused: %s (%s)\n", strerrorname_np(-err) ?: "?", strerror(-err));
		bpf_object__close(obj);
		return 2;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (bpf_program__fd(prog) < 0)
			snprintf(lost + strlen(lost), sizeof(lost) - strlen(lost), " program %s",
				 bpf_program__name(prog));
		progs++;
	}
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__fd(map) < 0)
			snprintf(lost + strlen(lost), sizeof(lost) - strlen(lost), " map %s",
				 bpf_map__name(map));
		maps++;
	}
	btf = bpf_object__btf(obj);
	if (btf && btf__fd(btf) < 0)
		snprintf(lost + strlen(lost), sizeof(lost) - strlen(lost), " BTF");
	if (lost[0])
		printf("lost:%s\n", lost);
	else
		printf("loaded: %d programs, %d maps, %s\n", progs, maps, btf ? "BTF loaded" : "no BTF");
	bpf_object__close(obj);
	return lost[0] ? 3 : 0;
}
