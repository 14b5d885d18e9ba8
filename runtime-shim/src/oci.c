// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OCI state and config.json parsing with json-c.  Types are checked
 * field by field: a hook that guesses at a malformed document could act
 * on the wrong container.
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "oci.h"

static void json_putp(struct json_object **o)
{
	if (*o)
		json_object_put(*o);
	*o = NULL;
}

#define cleanup_json __attribute__((cleanup(json_putp)))

/*
 * json-c keeps a member's name as a C string, so an escaped NUL cuts it:
 * "k\u0000x" would be read as "k", an annotation the runtime does not
 * show, and two names could be one.  Values would need the same care at
 * every use.  No document a hook reads has a reason to hold one, so none
 * may.  json is a document json-c took: in a string, an escape is a
 * backslash after an even run of them; a comment (json-c allows them)
 * can only be refused for one it does not hold.
 */
static bool has_escaped_nul(const char *json, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		size_t run = 0;

		if (memcmp(json + i, "\\u0000", 6) != 0)
			continue;
		while (run < i && json[i - 1 - run] == '\\')
			run++;
		if (run % 2 == 0)
			return true;
	}
	return false;
}

static int parse_document(const char *json, size_t len, const char *what,
			  struct json_object **out, struct shim_err *err)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error jerr;
	const char *nul;
	size_t used;

	if (len > INT32_MAX)
		return shim_fail(err, E2BIG, "%s", what);
	/*
	 * Never JSON, but json-c takes one in a comment, and the check after
	 * the document took one for white space (fuzz_oci_state).
	 */
	nul = memchr(json, '\0', len);
	if (nul)
		return shim_fail(err, 0, "%s: not valid JSON (a NUL byte at offset %zu)", what,
				 (size_t)(nul - json));
	tok = json_tokener_new();
	if (!tok)
		return shim_fail(err, ENOMEM, "%s", what);
	o = json_tokener_parse_ex(tok, json, (int)len);
	jerr = json_tokener_get_error(tok);
	used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		json_putp(&o);
		return shim_fail(err, 0, "%s: not valid JSON (%s)", what,
				 jerr == json_tokener_continue ? "truncated" :
				 json_tokener_error_desc(jerr));
	}
	if (has_escaped_nul(json, used)) {
		json_putp(&o);
		return shim_fail(err, 0, "%s: a string contains a NUL byte (\\u0000)", what);
	}
	/* Anything but white space after the document is a broken input. */
	for (; used < len; used++)
		if (!memchr(" \t\r\n", json[used], 4)) {
			json_putp(&o);
			return shim_fail(err, 0, "%s: not valid JSON (data after the document)", what);
		}
	if (!json_object_is_type(o, json_type_object)) {
		json_putp(&o);
		return shim_fail(err, 0, "%s: not a JSON object", what);
	}
	*out = o;
	return 0;
}

/* A member of type t, or NULL when absent (or JSON null).  -1 on a wrong type. */
static int member(struct json_object *o, const char *key, enum json_type t,
		  struct json_object **out, const char *what, struct shim_err *err)
{
	struct json_object *m = NULL;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &m) || !m)
		return 0;
	if (!json_object_is_type(m, t))
		return shim_fail(err, 0, "%s: \"%s\" is %s, not %s", what, key,
				 json_type_to_name(json_object_get_type(m)),
				 json_type_to_name(t));
	*out = m;
	return 0;
}

static int copy_string(struct json_object *s, char *buf, size_t len,
		       const char *what, const char *key, struct shim_err *err)
{
	const char *v = json_object_get_string(s);
	size_t n = (size_t)json_object_get_string_len(s);

	if (strlen(v) != n)
		return shim_fail(err, 0, "%s: \"%s\" contains a NUL byte", what, key);
	if (n >= len)
		return shim_fail(err, ENAMETOOLONG, "%s: \"%s\"", what, key);
	memcpy(buf, v, n + 1);
	return 0;
}

static void annotations_free(struct shim_oci_annotations *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->a[i].key);
		free(a->a[i].value);
	}
	a->n = 0;
}

static int parse_annotations(struct json_object *root, struct shim_oci_annotations *a,
			     const char *what, struct shim_err *err)
{
	struct json_object *ann;

	if (member(root, "annotations", json_type_object, &ann, what, err))
		return -1;
	if (!ann)
		return 0;
	json_object_object_foreach(ann, key, val) {
		const char *v;

		if (!val || !json_object_is_type(val, json_type_string))
			return shim_fail(err, 0, "%s: annotation \"%s\" is not a string", what, key);
		v = json_object_get_string(val);
		if (strlen(v) != (size_t)json_object_get_string_len(val))
			return shim_fail(err, 0, "%s: annotation \"%s\" contains a NUL byte", what, key);
		if (a->n == SHIM_OCI_MAX_ANNOTATIONS)
			return shim_fail(err, E2BIG, "%s: more than %d annotations", what,
					 SHIM_OCI_MAX_ANNOTATIONS);
		a->a[a->n].key = strdup(key);
		a->a[a->n].value = strdup(v);
		if (!a->a[a->n].key || !a->a[a->n].value) {
			a->n++;
			return shim_fail(err, ENOMEM, "%s: annotations", what);
		}
		a->n++;
	}
	return 0;
}

const char *shim_oci_annotation(const struct shim_oci_annotations *a, const char *key)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->a[i].key, key) == 0)
			return a->a[i].value;
	return NULL;
}

int shim_oci_state_parse(const char *json, size_t len, struct shim_oci_state *st,
			 struct shim_err *err)
{
	static const char what[] = "OCI state on stdin";
	cleanup_json struct json_object *root = NULL;
	struct json_object *m;
	int64_t pid;

	memset(st, 0, sizeof(*st));
	if (parse_document(json, len, what, &root, err))
		return -1;
	if (member(root, "id", json_type_string, &m, what, err))
		return -1;
	if (m && copy_string(m, st->id, sizeof(st->id), what, "id", err))
		return -1;
	if (member(root, "pid", json_type_int, &m, what, err))
		return -1;
	if (!m)
		return shim_fail(err, 0, "%s: no \"pid\" (is this a createRuntime hook?)", what);
	errno = 0;
	pid = json_object_get_int64(m);
	if (errno || pid <= 0 || pid > INT32_MAX)
		return shim_fail(err, 0, "%s: \"pid\" %s is not a process id", what,
				 json_object_get_string(m));
	st->pid = (pid_t)pid;
	if (member(root, "bundle", json_type_string, &m, what, err))
		return -1;
	if (!m)
		return shim_fail(err, 0, "%s: no \"bundle\"", what);
	if (copy_string(m, st->bundle, sizeof(st->bundle), what, "bundle", err))
		return -1;
	if (st->bundle[0] != '/')
		return shim_fail(err, 0, "%s: \"bundle\" %s is not an absolute path", what, st->bundle);
	if (parse_annotations(root, &st->annotations, what, err)) {
		annotations_free(&st->annotations);
		return -1;
	}
	return 0;
}

int shim_oci_config_parse(const char *json, size_t len, struct shim_oci_config *cfg,
			  struct shim_err *err)
{
	static const char what[] = "config.json";
	cleanup_json struct json_object *root = NULL;
	struct json_object *r, *p, *linux_, *nss;

	memset(cfg, 0, sizeof(*cfg));
	if (parse_document(json, len, what, &root, err))
		return -1;
	if (member(root, "root", json_type_object, &r, what, err))
		return -1;
	if (!r)
		return shim_fail(err, 0, "%s: no \"root\"", what);
	if (member(r, "path", json_type_string, &p, what, err))
		return -1;
	if (!p)
		return shim_fail(err, 0, "%s: no \"root\".\"path\"", what);
	if (copy_string(p, cfg->root, sizeof(cfg->root), what, "root.path", err))
		return -1;
	if (!cfg->root[0])
		return shim_fail(err, 0, "%s: \"root\".\"path\" is empty", what);

	if (member(root, "linux", json_type_object, &linux_, what, err))
		return -1;
	if (linux_) {
		if (member(linux_, "namespaces", json_type_array, &nss, what, err))
			return -1;
		for (size_t i = 0; nss && i < json_object_array_length(nss); i++) {
			struct json_object *ns = json_object_array_get_idx(nss, i), *t;

			if (!ns || !json_object_is_type(ns, json_type_object))
				return shim_fail(err, 0, "%s: linux.namespaces[%zu] is not an object", what, i);
			if (member(ns, "type", json_type_string, &t, what, err))
				return -1;
			if (t && strcmp(json_object_get_string(t), "user") == 0)
				cfg->userns = true;
		}
	}
	if (parse_annotations(root, &cfg->annotations, what, err)) {
		annotations_free(&cfg->annotations);
		return -1;
	}
	return 0;
}

void shim_oci_state_free(struct shim_oci_state *st)
{
	annotations_free(&st->annotations);
}

void shim_oci_config_free(struct shim_oci_config *cfg)
{
	annotations_free(&cfg->annotations);
}
