/* The part of the BPF selftests' test_progs interface that an unmodified
 * tools/testing/selftests/bpf/prog_tests/<name>.c of upstream needs
 * (written here for token.c): test__start_subtest() and the ASSERT_*
 * checks, each true when the check holds. runner.c prints one TAP test
 * point per subtest.
 *
 * A failed check is counted in memory shared with forked children: token.c
 * runs half of each subtest in a child whose own checks would otherwise be
 * lost (it exits 0 after a failed ASSERT_EQ that does not end it).
 */
#ifndef SELFTESTS_BPF_TEST_PROGS_H
#define SELFTESTS_BPF_TEST_PROGS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Start the subtest name; false when it is not to run. */
bool test__start_subtest(const char *name);

/* Record a failed check and say why (printf format). */
void test__fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error pointer in the kernel's sense: the last 4095 addresses. */
static inline bool test__is_err_ptr(const void *p)
{
	return (unsigned long)p >= (unsigned long)-4095;
}

#define TEST__CMP(op, actual, expected, name) ({				\
	typeof(actual) ___a = (actual);						\
	typeof(actual) ___e = (expected);					\
	bool ___ok = ___a op ___e;						\
	if (!___ok)								\
		test__fail(__FILE__, __LINE__, "%s: got %lld, want %s %lld",	\
			   (name), (long long)___a, #op, (long long)___e);	\
	___ok;									\
})

#define ASSERT_EQ(actual, expected, name) TEST__CMP(==, actual, expected, name)
#define ASSERT_NEQ(actual, expected, name) TEST__CMP(!=, actual, expected, name)
#define ASSERT_LT(actual, expected, name) TEST__CMP(<, actual, expected, name)
#define ASSERT_LE(actual, expected, name) TEST__CMP(<=, actual, expected, name)
#define ASSERT_GT(actual, expected, name) TEST__CMP(>, actual, expected, name)
#define ASSERT_GE(actual, expected, name) TEST__CMP(>=, actual, expected, name)

/* 0 is success; errno is shown as it was right after the call. */
#define ASSERT_OK(res, name) ({							\
	long long ___r = (res);							\
	int ___errno = errno;							\
	bool ___ok = ___r == 0;							\
	if (!___ok)								\
		test__fail(__FILE__, __LINE__, "%s: got %lld (errno %s), want 0",	\
			   (name), ___r, strerrorname_np(___errno) ?: "0");	\
	___ok;									\
})

#define ASSERT_ERR(res, name) ({						\
	long long ___r = (res);							\
	bool ___ok = ___r < 0;							\
	if (!___ok)								\
		test__fail(__FILE__, __LINE__, "%s: got %lld, want an error",	\
			   (name), ___r);					\
	___ok;									\
})

/* libbpf 1.x returns NULL and sets errno; older code an error pointer. */
#define ASSERT_OK_PTR(ptr, name) ({						\
	const void *___p = (ptr);						\
	int ___errno = errno;							\
	bool ___ok = ___p && !test__is_err_ptr(___p);				\
	if (!___ok)								\
		test__fail(__FILE__, __LINE__, "%s: got %s (errno %s), want an object",	\
			   (name), ___p ? "an error pointer" : "NULL",	\
			   strerrorname_np(___p ? -(long)___p : ___errno) ?: "0");	\
	___ok;									\
})

#define ASSERT_ERR_PTR(ptr, name) ({						\
	const void *___p = (ptr);						\
	bool ___ok = !___p || test__is_err_ptr(___p);				\
	if (!___ok)								\
		test__fail(__FILE__, __LINE__, "%s: got an object, want an error",	\
			   (name));						\
	___ok;									\
})

#endif
