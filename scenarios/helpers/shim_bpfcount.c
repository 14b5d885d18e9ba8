// SPDX-License-Identifier: GPL-2.0
/*
 * Runs inside a shim container: loads shim_count.bpf.o with libbpf (which
 * derives a BPF token from the delegated BPF FS on its own: /sys/fs/bpf or
 * LIBBPF_BPF_TOKEN_PATH), attaches the socket filter to a UDP socket on
 * loopback, sends packets and reads the counters back from the map.
 *
 * usage: shim_bpfcount [-q] [-t] OBJ [PACKETS]
 *   -t  also create a token by hand (BPF_TOKEN_CREATE) and show its fdinfo
 *   -q  only the result line
 * exit: 0 counted right, 2 the kernel refused the load (errno in the
 * output), 1 anything else.
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

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	int token = 0, opt, err, rx, tx, prog_fd, map_fd, n = 10;
	__u64 packets = 0, bytes = 0;
	__u32 key;
	char buf[64];

	while ((opt = getopt(argc, argv, "qt")) != -1) {
		if (opt == 'q')
			quiet = 1;
		else if (opt == 't')
			token = 1;
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
	step("loaded socket filter count_packets (fd %d) and array map counts (fd %d)", prog_fd, map_fd);

	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    getsockname(rx, (struct sockaddr *)&addr, &alen) < 0) {
		printf("result: sockets: %s\n", strerror(errno));
		return 1;
	}
	if (setsockopt(rx, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd, sizeof(prog_fd)) < 0) {
		printf("result: SO_ATTACH_BPF: %s\n", strerror(errno));
		return 1;
	}
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
