/*
 * The privileged side's BPF LSM policies of the token_lsm scenarios: an
 * object whose "config" map (one element, key 0) says what to deny.
 */
#ifndef SCENARIO_TOKEN_LSM_H
#define SCENARIO_TOKEN_LSM_H

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "token_common.h"

struct tk_lsm {
	struct bpf_object *obj;
	int config;
};

static inline void tk_lsm_close(struct tk_lsm *l)
{
	bpf_object__close(l->obj);
}

#define AUTOCLOSE_LSM __attribute__((cleanup(tk_lsm_close)))

/*
 * Load the policy object PATH (one test point: WHAT) and attach each of
 * the programs named in PROGS, NULL-terminated (a test point each).
 * Returns false when the object did not load: the caller ends its plan
 * there. A setup failure (no object file, no config map) exits 1.
 */
static inline bool tk_lsm_start(struct tap *t, struct tk_lsm *l, const char *path, const char *what,
				const char *const *progs)
{
	struct bpf_map *map;
	int err;

	l->obj = bpf_object__open_file(path, NULL);
	if (!l->obj) {
		tap_diag("setup: opening %s: %s", path, strerror(errno));
		exit(1);
	}
	err = bpf_object__load(l->obj);
	if (!tap_ok(t, err == 0, "%s", what)) {
		tap_diag("loading %s: %s", path, strerror(-err));
		return false;
	}
	map = bpf_object__find_map_by_name(l->obj, "config");
	l->config = map ? bpf_map__fd(map) : -1;
	if (l->config < 0) {
		tap_diag("setup: no config map in %s", path);
		exit(1);
	}
	for (; *progs; progs++) {
		struct bpf_program *prog = bpf_object__find_program_by_name(l->obj, *progs);
		struct bpf_link *link = prog ? bpf_program__attach_lsm(prog) : NULL;

		if (!link)
			tap_diag("attaching %s: %s", *progs, strerror(errno));
		tap_ok(t, link != NULL, "LSM program %s attaches", *progs);
	}
	return true;
}

/* Install CFG, the object's config value; a failure exits 1. */
static inline void tk_lsm_set(const struct tk_lsm *l, const void *cfg)
{
	__u32 key = 0;

	if (bpf_map_update_elem(l->config, &key, cfg, BPF_ANY)) {
		tap_diag("setup: updating the LSM config map: %s", strerror(errno));
		exit(1);
	}
}

#endif
