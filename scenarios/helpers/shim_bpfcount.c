// SPDX-License-Identifier: GPL-2.0
/*
 * Runs inside a shim container: loads shim_count.bpf.o with libbpf (which
 * derives a BPF token from the delegated BPF FS on its own: /sys/fs/bpf or
 * LIBBPF_BPF_TOKEN_PATH), attaches the socket filter to a UDP socket on
 * loopback, sends packets and reads the counters back from the map.
 *
 * usage: shim_bpfcount [-q] [-t] [-c CGROUP [-a TARGET]...] OBJ [PACKETS]
 *        shim_bpfcount -Q CGROUP
 *   -t  also create a token by hand (BPF_TOKEN_CREATE) and show its fdinfo
 *   -q  only the result line
 *   -c  OBJ is a cgroup_skb program (shim_cgcount.bpf.o): attach it to the
 *       cgroup directory CGROUP (BPF_PROG_ATTACH, inet ingress) instead of
 *       the receiving socket
 *   -a  first try to attach it to TARGET, a cgroup path or fd:N, and say
 *       "attach TARGET: ERRNO" (or "attach TARGET: attached", detached again)
 *   -Q  print "attached: N", the programs attached to CGROUP for inet
 *       ingress and egress (BPF_PROG_QUERY, from the host)
 * exit: 0 counted right, 2 the kernel refused the load (errno in the
 * output), 3 the attach to CGROUP failed, 4 a TARGET took the program,
 * 1 anything else.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int quiet;

#define step(...) do { if (!quiet) { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } } while (0)

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* An unprivileged container cannot raise RLIMIT_MEMLOCK; not needed. */
	if (level == LIBBPF_WARN && !quiet && !strstr(fmt, "RLIMIT_MEMLOCK"))
		return vfprintf(stdout, fmt, ap);
	return 0;
}

static int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int r = -1;

	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	/* shim run brings it up; only another runtime may leave it down. */
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		r = 0;
		if (!(ifr.ifr_flags & IFF_UP)) {
			ifr.ifr_flags |= IFF_UP;
			r = ioctl(fd, SIOCSIFFLAGS, &ifr);
		}
	}
	close(fd);
	return r;
}

static void show_token(void)
{
	const char *path = getenv("LIBBPF_BPF_TOKEN_PATH");
	struct {
		__u32 flags;
		__u32 bpffs_fd;
	} attr = { 0, 0 };
	char line[256], fdinfo[64];
	FILE *f;
	int bpffs, tok;

	if (!path || !*path)
		path = "/sys/fs/bpf";
	bpffs = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bpffs < 0) {
		step("open %s: %s", path, strerror(errno));
		return;
	}
	attr.bpffs_fd = (__u32)bpffs;
	tok = (int)syscall(__NR_bpf, 36 /* BPF_TOKEN_CREATE */, &attr, sizeof(attr));
	if (tok < 0) {
		step("BPF_TOKEN_CREATE on %s: %s", path, strerror(errno));
		close(bpffs);
		return;
	}
	step("BPF_TOKEN_CREATE on %s: token fd %d; its fdinfo:", path, tok);
	snprintf(fdinfo, sizeof(fdinfo), "/proc/self/fdinfo/%d", tok);
	f = fopen(fdinfo, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "allowed_", 8) == 0)
			step("    %.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
	close(tok);
	close(bpffs);
}

/*
 * fd:N is looked at before anything is opened, so that a closed N is not
 * taken for a descriptor libbpf opened since (-1, EBADF then).
 */
static int inherited[16];

static int open_target(const char *target, int i)
{
	if (strncmp(target, "fd:", 3) == 0) {
		errno = EBADF;
		return inherited[i];
	}
	return open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Try each target; 1 when one took the program. */
static int attach_targets(int prog_fd, char **targets, int n)
{
	int escaped = 0;

	for (int i = 0; i < n; i++) {
		int fd = open_target(targets[i], i);

		if (fd < 0) {
			printf("attach %s: %s\n", targets[i], strerrorname_np(errno));
			continue;
		}
		if (bpf_prog_attach(prog_fd, fd, BPF_CGROUP_INET_INGRESS, 0) < 0) {
			printf("attach %s: %s\n", targets[i], strerrorname_np(errno));
		} else {
			printf("attach %s: attached\n", targets[i]);
			bpf_prog_detach2(prog_fd, fd, BPF_CGROUP_INET_INGRESS);
			escaped = 1;
		}
		if (strncmp(targets[i], "fd:", 3) != 0)
			close(fd);
	}
	return escaped;
}

static int query(const char *path)
{
	static const enum bpf_attach_type types[] = { BPF_CGROUP_INET_INGRESS, BPF_CGROUP_INET_EGRESS };
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	__u32 total = 0;

	if (fd < 0) {
		printf("result: open %s: %s\n", path, strerrorname_np(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		__u32 ids[64], n = 64;

		if (bpf_prog_query(fd, types[i], 0, NULL, ids, &n) < 0) {
			printf("result: BPF_PROG_QUERY %s: %s\n", path, strerrorname_np(errno));
			return 1;
		}
		total += n;
	}
	printf("attached: %u\n", total);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	char *targets[16];
	int n_targets = 0;
	const char *cgroup = NULL;
	int cg_fd = -1;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	int token = 0, opt, err, rx, tx, prog_fd, map_fd, n = 10;
	__u64 packets = 0, bytes = 0;
	__u32 key;
	char buf[64];

	while ((opt = getopt(argc, argv, "qtc:a:Q:")) != -1) {
		if (opt == 'q')
			quiet = 1;
		else if (opt == 't')
			token = 1;
		else if (opt == 'c')
			cgroup = optarg;
		else if (opt == 'a' && n_targets < 16) {
			int fd = strncmp(optarg, "fd:", 3) == 0 ? atoi(optarg + 3) : -1;

			inherited[n_targets] = fd >= 0 && fcntl(fd, F_GETFD) >= 0 ? fd : -1;
			targets[n_targets++] = optarg;
		}
		else if (opt == 'Q')
			return query(optarg);
		else
			return 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: shim_bpfcount [-q] [-t] OBJ [PACKETS]\n");
		return 1;
	}
	if (optind + 1 < argc)
		n = atoi(argv[optind + 1]);
	libbpf_set_print(silent);

	if (loopback_up() < 0) {
		printf("result: cannot bring lo up: %s\n", strerror(errno));
		return 1;
	}
	step("loopback is up in the container's network namespace");
	if (token)
		show_token();

	obj = bpf_object__open_file(argv[optind], NULL);
	if (!obj) {
		printf("result: open %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		printf("result: refused: loading the BPF object: %s (%s)\n",
		       strerror(-err), strerrorname_np(-err));
		bpf_object__close(obj);
		return 2;
	}
	prog = bpf_object__find_program_by_name(obj, "count_packets");
	map = bpf_object__find_map_by_name(obj, "counts");
	if (!prog || !map) {
		printf("result: program or map missing in %s\n", argv[optind]);
		return 1;
	}
	prog_fd = bpf_program__fd(prog);
	map_fd = bpf_map__fd(map);
	step("loaded %s count_packets (fd %d) and array map counts (fd %d)",
	     cgroup ? "cgroup_skb program" : "socket filter", prog_fd, map_fd);
	if (cgroup) {
		if (attach_targets(prog_fd, targets, n_targets)) {
			printf("result: a target outside the container's cgroup took the program\n");
			return 4;
		}
		cg_fd = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cg_fd < 0 || bpf_prog_attach(prog_fd, cg_fd, BPF_CGROUP_INET_INGRESS, 0) < 0) {
			printf("result: refused: attach to %s: %s\n", cgroup, strerrorname_np(errno));
			return 3;
		}
		step("attached it to the cgroup %s (inet ingress)", cgroup);
	}

	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    getsockname(rx, (struct sockaddr *)&addr, &alen) < 0) {
		printf("result: sockets: %s\n", strerror(errno));
		return 1;
	}
	if (!cgroup && setsockopt(rx, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd, sizeof(prog_fd)) < 0) {
		printf("result: SO_ATTACH_BPF: %s\n", strerror(errno));
		return 1;
	}
	if (!cgroup)
		step("attached it to a UDP socket on 127.0.0.1:%d", ntohs(addr.sin_port));
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < n; i++) {
		if (sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
		    recv(rx, buf, sizeof(buf), 0) < 0) {
			printf("result: send/recv: %s\n", strerror(errno));
			return 1;
		}
	}
	step("sent and received %d packets of %zu bytes over loopback", n, sizeof(buf));
	key = 0;
	bpf_map_lookup_elem(map_fd, &key, &packets);
	key = 1;
	bpf_map_lookup_elem(map_fd, &key, &bytes);
	printf("result: the BPF program counted %llu packets, %llu bytes\n",
	       (unsigned long long)packets, (unsigned long long)bytes);
	close(rx);
	close(tx);
	bpf_object__close(obj);
	return packets == (__u64)n ? 0 : 1;
}
