// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_bpf [-t BPFFS] [-n RUNS] [-w WARMUP] OBJECT
 *
 * Times the BPF syscalls a delegated container pays for: BPF_PROG_LOAD of
 * the demo's socket filter (OBJECT's first program, as libbpf finalised it:
 * map fds resolved), BPF_PROG_LOAD of a generated straight-line socket
 * filter of about 1,000 instructions, and BPF_MAP_CREATE of an array.
 * With -t the calls carry a token made from the delegated BPF FS at
 * BPFFS; without it they rely on the caller's own privileges. Prints
 * "prog_load_demo|prog_load_1k|map_create SECONDS" per measured run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define BIG_INSNS 1000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* r0 = 0; r0 += 1 (BIG_INSNS - 2 times); exit: verified in one pass. */
static void make_big(struct bpf_insn *insns)
{
	memset(insns, 0, BIG_INSNS * sizeof(*insns));
	insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	for (int i = 1; i < BIG_INSNS - 1; i++)
		insns[i] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
					      .dst_reg = BPF_REG_0, .imm = 1 };
	insns[BIG_INSNS - 1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
}

struct target {
	const char *name;
	const struct bpf_insn *insns;
	size_t cnt;
};

static int time_prog(const struct target *t, int token, double *elapsed)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	double start;
	int fd;

	if (token >= 0) {
		opts.token_fd = (__u32)token;
		opts.prog_flags = BPF_F_TOKEN_FD;
	}
	start = now();
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bench", "GPL", t->insns, t->cnt, &opts);
	*elapsed = now() - start;
	if (fd < 0) {
		fprintf(stderr, "bench_bpf: BPF_PROG_LOAD %s: %s\n", t->name, strerror(-fd));
		return -1;
	}
	close(fd);
	return 0;
}

static int time_map(int token, double *elapsed)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	double start;
	int fd;

	if (token >= 0) {
		opts.token_fd = (__u32)token;
		opts.map_flags = BPF_F_TOKEN_FD;
	}
	start = now();
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bench", 4, 8, 16, &opts);
	*elapsed = now() - start;
	if (fd < 0) {
		fprintf(stderr, "bench_bpf: BPF_MAP_CREATE: %s\n", strerror(-fd));
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static struct bpf_insn big[BIG_INSNS];
	const char *bpffs = NULL;
	struct target demo, large;
	struct bpf_object *obj;
	struct bpf_program *prog;
	long runs = 30, warmup = 3;
	int opt, token = -1, err;
	double t;

	while ((opt = getopt(argc, argv, "t:n:w:")) != -1) {
		switch (opt) {
		case 't':
			bpffs = optarg;
			break;
		case 'n':
			runs = strtol(optarg, NULL, 10);
			break;
		case 'w':
			warmup = strtol(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || runs < 1 || warmup < 0)
		goto usage;

	if (bpffs) {
		int fs = open(bpffs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fs < 0) {
			fprintf(stderr, "bench_bpf: open %s: %s\n", bpffs, strerror(errno));
			return 1;
		}
		token = bpf_token_create(fs, NULL);
		close(fs);
		if (token < 0) {
			fprintf(stderr, "bench_bpf: BPF_TOKEN_CREATE from %s: %s\n", bpffs,
				strerror(-token));
			return 1;
		}
	}
	/* libbpf makes its own token from the same BPF FS for the object. */
	obj = bpf_object__open_file(argv[optind], NULL);
	err = libbpf_get_error(obj);
	if (err) {
		fprintf(stderr, "bench_bpf: open %s: %s\n", argv[optind], strerror(-err));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "bench_bpf: load %s: %s\n", argv[optind], strerror(-err));
		return 1;
	}
	prog = bpf_object__next_program(obj, NULL);
	if (!prog) {
		fprintf(stderr, "bench_bpf: %s has no program\n", argv[optind]);
		return 1;
	}
	demo = (struct target){ "demo", bpf_program__insns(prog), bpf_program__insn_cnt(prog) };
	make_big(big);
	large = (struct target){ "1k", big, BIG_INSNS };

	for (long i = 0; i < warmup + runs; i++) {
		if (time_prog(&demo, token, &t))
			return 1;
		if (i >= warmup)
			printf("prog_load_demo %.9f\n", t);
		if (time_prog(&large, token, &t))
			return 1;
		if (i >= warmup)
			printf("prog_load_1k %.9f\n", t);
		if (time_map(token, &t))
			return 1;
		if (i >= warmup)
			printf("map_create %.9f\n", t);
	}
	bpf_object__close(obj);
	return 0;
usage:
	fprintf(stderr, "usage: bench_bpf [-t BPFFS] [-n RUNS] [-w WARMUP] OBJECT\n");
	return 2;
}
