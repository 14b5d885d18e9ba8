// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of the four delegation options and of the kernel enums whose
 * members they take (names.h), and the built-in table used when the
 * kernel's BTF cannot be read.
 */
#include <string.h>

#include "names.h"

static const char *const option_names[SHIM_DELEG_NR] = {
	"delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs",
};
static const char *const flag_names[SHIM_DELEG_NR] = {
	"--bpf-delegate-cmds", "--bpf-delegate-maps", "--bpf-delegate-progs",
	"--bpf-delegate-attachs",
};
static const char *const what_names[SHIM_DELEG_NR] = {
	"command", "map type", "program type", "attach type",
};
static const char *const enum_names[SHIM_DELEG_NR] = {
	"bpf_cmd", "bpf_map_type", "bpf_prog_type", "bpf_attach_type",
};
static const char *const prefixes[SHIM_DELEG_NR] = {
	"BPF_", "BPF_MAP_TYPE_", "BPF_PROG_TYPE_", "BPF_",
};

const char *shim_deleg_option(int kind) { return option_names[kind]; }
const char *shim_deleg_flag(int kind) { return flag_names[kind]; }
const char *shim_deleg_what(int kind) { return what_names[kind]; }
const char *shim_deleg_enum(int kind) { return enum_names[kind]; }
const char *shim_deleg_prefix(int kind) { return prefixes[kind]; }

/*
 * Fallback names, used only when the kernel's BTF cannot be read; the
 * shim says so.  Values are the position in the list unless noted.
 */
static const char *const builtin_cmds[] = {
	"map_create", "map_lookup_elem", "map_update_elem", "map_delete_elem",
	"map_get_next_key", "prog_load", "obj_pin", "obj_get", "prog_attach",
	"prog_detach", "prog_test_run", "prog_get_next_id",
	"map_get_next_id", "prog_get_fd_by_id", "map_get_fd_by_id",
	"obj_get_info_by_fd", "prog_query", "raw_tracepoint_open", "btf_load",
	"btf_get_fd_by_id", "task_fd_query", "map_lookup_and_delete_elem",
	"map_freeze", "btf_get_next_id", "map_lookup_batch",
	"map_lookup_and_delete_batch", "map_update_batch", "map_delete_batch",
	"link_create", "link_update", "link_get_fd_by_id", "link_get_next_id",
	"enable_stats", "iter_create", "link_detach", "prog_bind_map",
	"token_create",
};
static const char *const builtin_maps[] = {
	"unspec", "hash", "array", "prog_array", "perf_event_array",
	"percpu_hash", "percpu_array", "stack_trace", "cgroup_array",
	"lru_hash", "lru_percpu_hash", "lpm_trie", "array_of_maps",
	"hash_of_maps", "devmap", "sockmap", "cpumap", "xskmap", "sockhash",
	"cgroup_storage", "reuseport_sockarray", "percpu_cgroup_storage",
	"queue", "stack", "sk_storage", "devmap_hash", "struct_ops", "ringbuf",
	"inode_storage", "task_storage", "bloom_filter", "user_ringbuf",
};
static const char *const builtin_progs[] = {
	"unspec", "socket_filter", "kprobe", "sched_cls", "sched_act",
	"tracepoint", "xdp", "perf_event", "cgroup_skb", "cgroup_sock",
	"lwt_in", "lwt_out", "lwt_xmit", "sock_ops", "sk_skb",
	"cgroup_device", "sk_msg", "raw_tracepoint", "cgroup_sock_addr",
	"lwt_seg6local", "lirc_mode2", "sk_reuseport", "flow_dissector",
	"cgroup_sysctl", "raw_tracepoint_writable", "cgroup_sockopt",
	"tracing", "struct_ops", "ext", "lsm", "sk_lookup", "syscall",
};
static const char *const builtin_attachs[] = {
	"cgroup_inet_ingress", "cgroup_inet_egress", "cgroup_inet_sock_create",
	"cgroup_sock_ops", "sk_skb_stream_parser", "sk_skb_stream_verdict",
	"cgroup_device", "sk_msg_verdict", "cgroup_inet4_bind",
	"cgroup_inet6_bind", "cgroup_inet4_connect", "cgroup_inet6_connect",
	"cgroup_inet4_post_bind", "cgroup_inet6_post_bind",
	"cgroup_udp4_sendmsg", "cgroup_udp6_sendmsg", "lirc_mode2",
	"flow_dissector", "cgroup_sysctl", "cgroup_udp4_recvmsg",
	"cgroup_udp6_recvmsg", "cgroup_getsockopt", "cgroup_setsockopt",
	"trace_raw_tp", "trace_fentry", "trace_fexit", "modify_return",
	"lsm_mac", "trace_iter", "cgroup_inet4_getpeername",
	"cgroup_inet6_getpeername", "cgroup_inet4_getsockname",
	"cgroup_inet6_getsockname", "xdp_devmap", "cgroup_inet_sock_release",
	"xdp_cpumap", "sk_lookup", "xdp", "sk_skb_verdict",
	"sk_reuseport_select", "sk_reuseport_select_or_migrate", "perf_event",
	"trace_kprobe_multi", "lsm_cgroup",
};

static void fill_builtin(struct shim_enum_table *t, const char *const *list,
			 size_t n, int kind)
{
	size_t extra = kind == SHIM_DELEG_CMDS ? 1 : 0;	/* prog_run alias */

	t->entry = calloc(n + extra, sizeof(*t->entry));
	t->n = 0;
	if (!t->entry)
		return;
	for (size_t i = 0; i < n; i++) {
		snprintf(t->entry[t->n].name, sizeof(t->entry[0].name), "%s", list[i]);
		t->entry[t->n].value = (uint32_t)i;
		t->n++;
		if (kind == SHIM_DELEG_CMDS && strcmp(list[i], "prog_test_run") == 0) {
			snprintf(t->entry[t->n].name, sizeof(t->entry[0].name), "prog_run");
			t->entry[t->n].value = (uint32_t)i;
			t->n++;
		}
	}
}

void shim_deleg_names_builtin(struct shim_deleg_names *names)
{
	shim_deleg_names_free(names);
	fill_builtin(&names->table[SHIM_DELEG_CMDS], builtin_cmds, ARRAY_SIZE(builtin_cmds), SHIM_DELEG_CMDS);
	fill_builtin(&names->table[SHIM_DELEG_MAPS], builtin_maps, ARRAY_SIZE(builtin_maps), SHIM_DELEG_MAPS);
	fill_builtin(&names->table[SHIM_DELEG_PROGS], builtin_progs, ARRAY_SIZE(builtin_progs), SHIM_DELEG_PROGS);
	fill_builtin(&names->table[SHIM_DELEG_ATTACHS], builtin_attachs, ARRAY_SIZE(builtin_attachs), SHIM_DELEG_ATTACHS);
	names->builtin = true;
	snprintf(names->source, sizeof(names->source), "the built-in table");
}

void shim_deleg_names_free(struct shim_deleg_names *names)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		free(names->table[k].entry);
		names->table[k].entry = NULL;
		names->table[k].n = 0;
	}
}
