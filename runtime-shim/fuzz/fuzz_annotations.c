// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook's request: the container's annotations, chosen by whoever
 * starts it.  The input is one annotation a line, KEY=VALUE (split at the
 * first '='; a line without one is KEY with an empty value), at most
 * SHIM_OCI_MAX_ANNOTATIONS of them, so that the fuzzer works on the
 * request itself rather than on the JSON around it, which fuzz_oci_state
 * covers.  A key cannot hold '=' nor a value '\n' here; the request
 * parser gives neither a meaning.
 *
 * An accepted request then goes where the hook takes it before anything
 * is created (hook.c: decide): each option resolved against the built-in
 * names, one at a time, and checked against the shipped example policy.
 */
#include "fuzz.h"
#include "hook.h"

/* oci/bpffs-policy.conf.example, without its comments. */
static const char policy_text[] =
	"delegate_cmds = map_create:map_lookup_elem:map_update_elem:map_delete_elem:"
	"map_get_next_key:prog_load:btf_load:obj_get:obj_pin:obj_get_info_by_fd:link_create\n"
	"delegate_maps = array:hash:percpu_array:percpu_hash:ringbuf\n"
	"delegate_progs = socket_filter:xdp:sched_cls\n"
	"delegate_attachs = any\n";

static void split(char *text, struct shim_oci_annotations *a)
{
	char *line, *next;

	a->n = 0;
	for (line = text; line && a->n < SHIM_OCI_MAX_ANNOTATIONS; line = next) {
		char *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		eq = strchr(line, '=');
		if (eq)
			*eq++ = '\0';
		a->a[a->n].key = line;
		a->a[a->n].value = eq ? eq : line + strlen(line);
		a->n++;
	}
}

/* No "." or ".." component, and one at least: a directory below the root. */
static bool path_below_root(const char *path)
{
	bool some = false;

	for (const char *p = path; *p;) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		some |= n > 0;
		p += n;
	}
	return some;
}

/* The request within the policy, as the hook decides it. */
static void decide(const struct shim_hook_request *req)
{
	struct shim_deleg_names names = { 0 };
	struct shim_delegation all = { 0 };
	struct shim_bpffs_policy policy;
	struct shim_err err = { 0 };
	int r;

	shim_deleg_names_builtin(&names);
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!req->delegate[k])
			continue;
		r = shim_delegation_set(&all, &names, k, req->delegate[k], shim_hook_annotation(k),
					&err);
		fuzz_assert_recorded(r, &err);
		if (r)
			goto out;
		fuzz_assert(all.set[k]);
	}
	r = shim_policy_parse(policy_text, "example", &names, &policy, &err);
	fuzz_assert(r == 0);
	r = shim_policy_check(&policy, &names, &all, shim_hook_annotation, &err);
	fuzz_assert_recorded(r, &err);
out:
	shim_deleg_names_free(&names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_oci_annotations a;
	struct shim_hook_request req;
	struct shim_err err = { 0 };
	char *text = fuzz_cstr(data, size);
	int r;

	if (!text)
		return 0;
	split(text, &a);
	r = shim_hook_request_parse(&a, &req, &err);
	fuzz_assert_recorded(r, &err);
	if (r == 0 && req.any) {
		bool some = false;

		/* Where the BPF FS goes, looked up below the container's root. */
		fuzz_assert(req.path && req.path[0] == '/');
		fuzz_assert(path_below_root(req.path));
		for (int k = 0; k < SHIM_DELEG_NR; k++)
			some |= req.delegate[k] != NULL;
		fuzz_assert(some);
		decide(&req);
	}
	free(text);
	return 0;
}
