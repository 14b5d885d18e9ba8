/* Run one upstream BPF selftest (prog_tests/<name>.c, built with
 * -DSELFTEST=<name>) and print one TAP test point per subtest, "ok N -
 * <name>/<subtest>", in the order the test starts them. No plan: the
 * scenario knows the subtests and prints it.
 *
 *   runner [-x SUBTEST]...   -x: do not run SUBTEST (the scenario says why)
 *
 * A failed check prints "# FAIL <subtest>: <file>:<line>: <what>", libbpf's
 * warnings and infos print as "# libbpf: ...". Exit status 0 when every
 * subtest that ran passed.
 */
#include <stdarg.h>
#include <sys/mman.h>

#include "test_progs.h"

#define TEST__FN2(name) test_##name
#define TEST__FN(name) TEST__FN2(name)
#define TEST__STR2(name) #name
#define TEST__STR(name) TEST__STR2(name)

void TEST__FN(SELFTEST)(void);

#define MAX_NOT_RUN 32

/* Counted across fork(): checks fail in the test's children too. */
struct shared {
	int failed;
};

struct runner {
	pid_t pid;
	struct shared *shared;
	const char *not_run[MAX_NOT_RUN];
	int n_not_run;
	const char *subtest;	/* running now, or NULL */
	int outside;		/* failed checks outside any subtest */
	int run;
	int bad;
};

/* The test calls back with no context: the one runner of this process. */
static struct runner *the_runner;

void test__fail(const char *file, int line, const char *fmt, ...)
{
	struct runner *r = the_runner;
	const char *base = strrchr(file, '/');
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# FAIL %s: %s:%d: %s\n", r->subtest ?: "(outside subtests)", base ? base + 1 : file,
	       line, msg);
	__atomic_fetch_add(&r->shared->failed, 1, __ATOMIC_SEQ_CST);
}

/* A child of the test must end in the test, never return into the runner. */
static void check_not_child(struct runner *r)
{
	if (getpid() == r->pid)
		return;
	test__fail(__FILE__, __LINE__, "a child of the test (pid %d) returned into the runner",
		   (int)getpid());
	_exit(1);
}

static void end_subtest(struct runner *r)
{
	int failed = __atomic_load_n(&r->shared->failed, __ATOMIC_SEQ_CST);

	if (!r->subtest) {
		r->outside += failed;
	} else {
		r->run++;
		if (failed)
			r->bad++;
		printf("%sok %d - %s/%s\n", failed ? "not " : "", r->run, TEST__STR(SELFTEST),
		       r->subtest);
	}
	r->subtest = NULL;
	__atomic_store_n(&r->shared->failed, 0, __ATOMIC_SEQ_CST);
}

bool test__start_subtest(const char *name)
{
	struct runner *r = the_runner;
	int i;

	check_not_child(r);
	end_subtest(r);
	for (i = 0; i < r->n_not_run; i++)
		if (strcmp(r->not_run[i], name) == 0)
			return false;
	r->subtest = name;
	return true;
}

/* libbpf's messages, as its default printer shows them (no debug), one
 * diagnostic line each.
 */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[2048], *line, *save = NULL;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# libbpf: %s\n", line);
	return 0;
}

int main(int argc, char **argv)
{
	struct runner r = { .pid = getpid() };
	int opt;

	/* Whole lines reach the pipe before the test forks: no line is
	 * printed twice by a child's exit().
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "x:")) != -1) {
		if (opt != 'x' || r.n_not_run == MAX_NOT_RUN) {
			fprintf(stderr, "usage: %s [-x SUBTEST]... (at most %d)\n", argv[0],
				MAX_NOT_RUN);
			return 2;
		}
		r.not_run[r.n_not_run++] = optarg;
	}
	r.shared = mmap(NULL, sizeof(*r.shared), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r.shared == MAP_FAILED) {
		perror("mmap shared failure counter");
		return 1;
	}
	the_runner = &r;
	libbpf_set_print(print_libbpf);

	TEST__FN(SELFTEST)();
	check_not_child(&r);
	end_subtest(&r);

	if (r.outside)
		printf("# %d failed checks outside any subtest\n", r.outside);
	if (r.run == 0)
		printf("# no subtest ran\n");
	return r.bad || r.outside || r.run == 0 ? 1 : 0;
}
