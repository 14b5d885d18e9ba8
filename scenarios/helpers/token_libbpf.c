/* An unmodified libbpf application in a container: it opens and loads a
 * BPF object (a map, global data and a socket filter) with the plain
 * bpf_object__open_file() + bpf_object__load() calls of any libbpf app.
 * Linked against the token-aware libbpf, it gets its BPF token
 * implicitly from the delegating BPF FS at /sys/fs/bpf, or from the BPF FS
 * that LIBBPF_BPF_TOKEN_PATH names; LIBBPF_BPF_TOKEN_PATH="" switches the
 * token off and the load is refused.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "token_common.h"

#define TEST_COUNT 8

#define OBJ "/opt/scenarios/bpf/token_obj.bpf.o"
#define KPROBE_OBJ "/opt/scenarios/bpf/token_kprobe.bpf.o"

enum env_mode { ENV_UNSET, ENV_SET };

static int print_warnings(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, args);
}

/* Runs in the container: what any libbpf application does. */
static void load_object(const struct tk_req *req, struct tk_res *res)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	int err, prog_fd, map_fd;

	if (req->a == ENV_SET)
		setenv("LIBBPF_BPF_TOKEN_PATH", req->s2, 1);
	else
		unsetenv("LIBBPF_BPF_TOKEN_PATH");
	libbpf_set_print(print_warnings);

	obj = bpf_object__open_file(req->s1, NULL);
	if (!obj) {
		res->rc = -1;
		res->err = errno;
		snprintf(res->text, sizeof(res->text), "bpf_object__open_file: %s", strerror(errno));
		return;
	}
	err = bpf_object__load(obj);
	if (err) {
		res->rc = -1;
		res->err = -err;
		snprintf(res->text, sizeof(res->text), "bpf_object__load: %s", strerror(-err));
		bpf_object__close(obj);
		return;
	}
	prog = bpf_object__next_program(obj, NULL);
	map = bpf_object__next_map(obj, NULL);
	prog_fd = prog ? bpf_program__fd(prog) : -1;
	map_fd = map ? bpf_map__fd(map) : -1;
	res->rc = prog_fd >= 0 && (map_fd >= 0 || !map) ? 0 : -1;
	res->err = res->rc ? ENOENT : 0;
	snprintf(res->text, sizeof(res->text), "prog fd %d, map fd %d", prog_fd, map_fd);
	bpf_object__close(obj);
}

static struct tk_res load_file(struct tk_ns *ns, const char *file, enum env_mode env,
			       const char *path)
{
	return tk_call(ns, TK_OP_CUSTOM, -1, env, 0, 0, file, path);
}

static struct tk_res load(struct tk_ns *ns, enum env_mode env, const char *path)
{
	return load_file(ns, OBJ, env, path);
}

int main(void)
{
	struct tap t = { 0 };
	struct tk_ns ns;
	struct tk_req req;
	struct tk_res res;
	const struct tk_deleg all = { "any", "any", "any", "any" };

	tk_require_tokens();
	tk_require_unpriv_bpf_off();
	tap_plan(&t, TEST_COUNT);

	/* 1: control: the initial user namespace's root, no BPF FS mounted */
	memset(&req, 0, sizeof(req));
	snprintf(req.s1, sizeof(req.s1), "%s", OBJ);
	req.a = ENV_UNSET;
	load_object(&req, &res);
	tk_ok(&t, &res, "initial-namespace root: loading the object without a token");

	/* 2-4: a container whose manager mounted a delegating BPF FS at /sys/fs/bpf */
	tk_start(&ns, load_object);
	tk_must_mount(&ns, &all, "/sys/fs/bpf");
	res = load(&ns, ENV_UNSET, NULL);
	tk_ok(&t, &res, "container, delegating BPF FS at /sys/fs/bpf: loading the object (implicit token)");
	res = load(&ns, ENV_SET, "");
	tk_fails(&t, &res, EPERM, "container, LIBBPF_BPF_TOKEN_PATH=\"\": the object load");
	res = load(&ns, ENV_SET, "/sys/fs/bpf");
	tk_ok(&t, &res, "container, LIBBPF_BPF_TOKEN_PATH=/sys/fs/bpf: loading the object");
	tk_stop(&ns);

	/* 5-7: delegation mounted elsewhere, a plain BPF FS at /sys/fs/bpf */
	tk_start(&ns, load_object);
	tk_must_mount(&ns, &all, "/tmp/delegated");
	tk_must_mount(&ns, NULL, "/sys/fs/bpf");
	res = load(&ns, ENV_UNSET, NULL);
	tk_fails(&t, &res, EPERM, "container, no delegation at /sys/fs/bpf: the object load");
	res = load(&ns, ENV_SET, "/tmp/delegated");
	tk_ok(&t, &res, "container, LIBBPF_BPF_TOKEN_PATH=/tmp/delegated: loading the object");
	res = load(&ns, ENV_SET, "/tmp/no-such-bpffs");
	tk_fails(&t, &res, ENOENT,
		 "container, LIBBPF_BPF_TOKEN_PATH names a missing path (token mandatory): the object load");
	tk_stop(&ns);

	/* 8: a token that delegates kprobe programs only: libbpf must not
	 * insist on loading a socket filter or tracepoint first
	 */
	tk_start(&ns, load_object);
	tk_must_mount(&ns, &(struct tk_deleg){ "prog_load:btf_load", NULL, "kprobe", "any" },
		      "/sys/fs/bpf");
	res = load_file(&ns, KPROBE_OBJ, ENV_UNSET, NULL);
	tk_ok(&t, &res, "container, token delegating only kprobe programs: loading a kprobe-only object");
	tk_stop(&ns);

	return tap_done(&t);
}
