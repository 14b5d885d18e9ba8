// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shim's side of taskwatch.bpf.c: the object is built with clang at
 * build time and embedded here, so the shim stays one file; loading it
 * needs root (CAP_BPF and CAP_PERFMON for raw tracepoints).  It reads no
 * kernel structure, so it needs no kernel BTF either.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "taskwatch.h"

/* The object file, as the build made it (Makefile: SHIM_TASKWATCH_OBJ). */
__asm__(".section .rodata\n"
	".balign 8\n"
	"shim_taskwatch_obj:\n"
	".incbin \"" SHIM_TASKWATCH_OBJ "\"\n"
	"shim_taskwatch_obj_end:\n"
	".previous\n");
extern const char shim_taskwatch_obj[], shim_taskwatch_obj_end[];

/* An mmapable array's values from offset 0, 8 bytes each: one page. */
#define LOST_MAP_BYTES 4096

static const char *const progs[] = { "taskwatch_fork", "taskwatch_exit" };

/* libbpf's own messages would go to stderr: the error says what failed. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int map_fd(struct shim_taskwatch *w, const char *name, struct shim_err *err)
{
	struct bpf_map *m = bpf_object__find_map_by_name(w->obj, name);
	int fd = m ? bpf_map__fd(m) : -1;

	if (fd < 0)
		return shim_fail(err, ENOENT, "taskwatch: map %s", name);
	return fd;
}

struct bpf_object *shim_taskwatch_open(struct shim_err *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "shim_taskwatch");
	struct bpf_object *obj;
	int r;

	libbpf_set_print(quiet);
	obj = bpf_object__open_mem(shim_taskwatch_obj,
				   (size_t)(shim_taskwatch_obj_end - shim_taskwatch_obj), &opts);
	r = (int)libbpf_get_error(obj);
	if (r) {
		shim_fail(err, -r, "taskwatch: open the embedded BPF object");
		return NULL;
	}
	return obj;
}

int shim_taskwatch_load(struct shim_taskwatch *w, struct shim_err *err)
{
	__u32 self = (__u32)gettid(), zero = 0;
	int seed, r;
	void *map;

	memset(w, 0, sizeof(*w));
	w->exits_fd = w->lost_fd = -1;
	w->obj = shim_taskwatch_open(err);
	if (!w->obj)
		return -1;
	r = bpf_object__load(w->obj);
	if (r)
		return shim_fail(err, -r, "taskwatch: load the BPF program (root needed)");
	seed = map_fd(w, "seed", err);
	w->exits_fd = map_fd(w, "exits", err);
	w->lost_fd = map_fd(w, "lost", err);
	if (seed < 0 || w->exits_fd < 0 || w->lost_fd < 0)
		return -1;
	/* Read after every batch of exits: a load, not a bpf(2) call each. */
	map = mmap(NULL, LOST_MAP_BYTES, PROT_READ, MAP_SHARED, w->lost_fd, 0);
	if (map == MAP_FAILED)
		return shim_fail(err, errno, "taskwatch: mmap the loss counts");
	w->lost_map = map;
	/* Seeded before it runs: the first fork it sees may be ours. */
	if (bpf_map_update_elem(seed, &zero, &self, BPF_ANY))
		return shim_fail(err, errno, "taskwatch: seed the table with the shim's TID %u", self);
	for (size_t i = 0; i < ARRAY_SIZE(progs); i++) {
		struct bpf_program *p = bpf_object__find_program_by_name(w->obj, progs[i]);

		if (!p)
			return shim_fail(err, ENOENT, "taskwatch: program %s", progs[i]);
		w->links[i] = bpf_program__attach(p);
		r = (int)libbpf_get_error(w->links[i]);
		if (r) {
			w->links[i] = NULL;
			return shim_fail(err, -r, "taskwatch: attach %s", bpf_program__section_name(p));
		}
	}
	return 0;
}

int shim_taskwatch_lost(struct shim_taskwatch *w, const char **what)
{
	static const char *const why[SHIM_TW_LOST_NR] = {
		[SHIM_TW_LOST_TABLE] = "the BPF table of followed tasks was full: new tasks of the container are not followed",
		[SHIM_TW_LOST_RING] = "the BPF ring buffer was full: exits of the container are not reported",
	};
	int grew = 0;

	for (__u32 k = 0; k < SHIM_TW_LOST_NR; k++) {
		__u64 n = w->lost_map[k];

		if (n != w->lost[k]) {
			w->lost[k] = n;
			*what = why[k];
			grew = 1;
		}
	}
	return grew;
}

void shim_taskwatch_free(struct shim_taskwatch *w)
{
	if (w->lost_map)
		munmap((void *)w->lost_map, LOST_MAP_BYTES);
	for (size_t i = 0; i < ARRAY_SIZE(w->links); i++)
		bpf_link__destroy(w->links[i]);
	bpf_object__close(w->obj);
	memset(w, 0, sizeof(*w));
	w->exits_fd = w->lost_fd = -1;
}
