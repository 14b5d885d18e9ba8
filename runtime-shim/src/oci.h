/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two OCI documents a hook reads: the container state on stdin
 * (runtime-spec "State") and the bundle's config.json.  Only the fields
 * the BPF FS hook needs are kept; everything else is ignored, as the
 * spec asks of consumers.
 */
#ifndef SHIM_OCI_H
#define SHIM_OCI_H

#include <limits.h>
#include <sys/types.h>

#include "shim.h"

#define SHIM_OCI_MAX_ANNOTATIONS 256
/* A hook's input is small; these bound what a broken caller can make us read. */
#define SHIM_OCI_MAX_STATE (1U << 20)
#define SHIM_OCI_MAX_CONFIG (16U << 20)

struct shim_oci_annotation {
	char *key;
	char *value;
};

struct shim_oci_annotations {
	struct shim_oci_annotation a[SHIM_OCI_MAX_ANNOTATIONS];
	size_t n;
};

struct shim_oci_state {
	char id[256];
	pid_t pid;
	char bundle[PATH_MAX];
	struct shim_oci_annotations annotations;
};

struct shim_oci_config {
	char root[PATH_MAX];	/* root.path, as written (may be relative to the bundle) */
	bool userns;		/* linux.namespaces has a "user" entry */
	struct shim_oci_annotations annotations;
};

/* Parse the state JSON (len bytes, need not be NUL terminated). */
int shim_oci_state_parse(const char *json, size_t len, struct shim_oci_state *st,
			 struct shim_err *err);
int shim_oci_config_parse(const char *json, size_t len, struct shim_oci_config *cfg,
			  struct shim_err *err);
void shim_oci_state_free(struct shim_oci_state *st);
void shim_oci_config_free(struct shim_oci_config *cfg);

/* The value of annotation key, or NULL. */
const char *shim_oci_annotation(const struct shim_oci_annotations *a, const char *key);

#endif
