// SPDX-License-Identifier: GPL-2.0-or-later
/* The process-events connector parser, fed crafted netlink datagrams. */
#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdio.h>

#include "testutil.h"

#include "threads_connector.h"

/* A datagram under construction: netlink messages one after the other. */
struct dgram {
	union {
		struct nlmsghdr align;
		unsigned char b[4096];
	} u;
	size_t len;
};

/* Append one netlink message carrying a cn_msg with payload (plen bytes). */
static struct nlmsghdr *put(struct dgram *d, uint16_t type, uint32_t idx,
			    const void *payload, size_t plen)
{
	struct nlmsghdr *nl = (struct nlmsghdr *)(d->u.b + d->len);
	struct cn_msg *cn = NLMSG_DATA(nl);

	assert_true(d->len + NLMSG_SPACE(sizeof(*cn) + plen) <= sizeof(d->u.b));
	memset(nl, 0, NLMSG_SPACE(sizeof(*cn) + plen));
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + plen);
	nl->nlmsg_type = type;
	cn->id.idx = idx;
	cn->id.val = CN_VAL_PROC;
	cn->len = (uint16_t)plen;
	memcpy(cn->data, payload, plen);
	d->len += NLMSG_SPACE(sizeof(*cn) + plen);
	return nl;
}

static void put_fork(struct dgram *d, pid_t ptid, pid_t ptgid, pid_t tid, pid_t tgid)
{
	struct proc_event ev = { .what = PROC_EVENT_FORK, .cpu = 1 };

	ev.event_data.fork.parent_pid = ptid;
	ev.event_data.fork.parent_tgid = ptgid;
	ev.event_data.fork.child_pid = tid;
	ev.event_data.fork.child_tgid = tgid;
	put(d, NLMSG_DONE, CN_IDX_PROC, &ev, sizeof(ev));
}

static void put_exit(struct dgram *d, pid_t tid, pid_t tgid)
{
	struct proc_event ev = { .what = PROC_EVENT_EXIT };

	ev.event_data.exit.process_pid = tid;
	ev.event_data.exit.process_tgid = tgid;
	ev.event_data.exit.exit_code = 9;
	put(d, NLMSG_DONE, CN_IDX_PROC, &ev, sizeof(ev));
}

static void test_fork(void **state)
{
	struct dgram d = { .len = 0 };
	struct shim_cn_event ev[4];
	struct shim_err err = { 0 };

	(void)state;
	put_fork(&d, 100, 99, 4242, 4200);
	assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), 1);
	assert_int_equal(ev[0].kind, SHIM_CN_FORK);
	assert_int_equal(ev[0].tid, 4242);
	assert_int_equal(ev[0].tgid, 4200);
	assert_int_equal(ev[0].parent_tid, 100);
	assert_int_equal(ev[0].parent_tgid, 99);
}

static void test_exit(void **state)
{
	struct dgram d = { .len = 0 };
	struct shim_cn_event ev[4];
	struct shim_err err = { 0 };

	(void)state;
	put_exit(&d, 4243, 4200);
	assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), 1);
	assert_int_equal(ev[0].kind, SHIM_CN_EXIT);
	assert_int_equal(ev[0].tid, 4243);
	assert_int_equal(ev[0].tgid, 4200);
}

/* Several messages in one datagram, in order; others skipped. */
static void test_several_and_skipped(void **state)
{
	struct dgram d = { .len = 0 };
	struct shim_cn_event ev[8];
	struct shim_err err = { 0 };
	struct proc_event exec = { .what = PROC_EVENT_EXEC };
	struct proc_event ack = { .what = PROC_EVENT_NONE };
	uint32_t other = 7;

	(void)state;
	put_fork(&d, 1, 1, 10, 10);
	put(&d, NLMSG_NOOP, CN_IDX_PROC, &other, sizeof(other));
	put(&d, NLMSG_DONE, CN_IDX_PROC, &exec, sizeof(exec));
	put(&d, NLMSG_DONE, CN_IDX_PROC, &ack, sizeof(ack));
	put(&d, NLMSG_DONE, CN_IDX_PROC + 1, &other, sizeof(other));	/* another connector user */
	put_fork(&d, 10, 10, 11, 10);
	put_exit(&d, 11, 10);
	put_exit(&d, 10, 10);
	assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), 4);
	assert_int_equal(ev[0].kind, SHIM_CN_FORK);
	assert_int_equal(ev[0].tid, 10);
	assert_int_equal(ev[1].kind, SHIM_CN_FORK);
	assert_int_equal(ev[1].tid, 11);
	assert_int_equal(ev[1].tgid, 10);
	assert_int_equal(ev[2].kind, SHIM_CN_EXIT);
	assert_int_equal(ev[2].tid, 11);
	assert_int_equal(ev[3].kind, SHIM_CN_EXIT);
	assert_int_equal(ev[3].tid, 10);

	/* An empty datagram has no events. */
	assert_int_equal(shim_cn_parse(&d.u, 0, ev, ARRAY_SIZE(ev), &err), 0);
}

static void test_malformed(void **state)
{
	struct shim_cn_event ev[2];
	struct proc_event pe = { .what = PROC_EVENT_FORK };
	struct dgram d;
	struct nlmsghdr *nl;

	(void)state;
	/* cn_msg claims more than the netlink message holds. */
	{
		struct shim_err err = { 0 };

		d.len = 0;
		nl = put(&d, NLMSG_DONE, CN_IDX_PROC, &pe, sizeof(pe));
		((struct cn_msg *)NLMSG_DATA(nl))->len = sizeof(pe) + 64;
		assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), -1);
		assert_int_equal(err.errnum, EPROTO);
		assert_contains(err.msg, "cn_msg says");
	}
	/* A process event too short for its fork data. */
	{
		struct shim_err err = { 0 };

		d.len = 0;
		put(&d, NLMSG_DONE, CN_IDX_PROC, &pe, 20);
		assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), -1);
		assert_contains(err.msg, "process event of 20 bytes");
	}
	/* The netlink header says more than was received. */
	{
		struct shim_err err = { 0 };

		d.len = 0;
		put_fork(&d, 1, 1, 2, 2);
		assert_int_equal(shim_cn_parse(&d.u, d.len - 8, ev, ARRAY_SIZE(ev), &err), -1);
		assert_contains(err.msg, "truncated");
	}
	/* A netlink error. */
	{
		struct shim_err err = { 0 };

		d.len = 0;
		put(&d, NLMSG_ERROR, CN_IDX_PROC, &pe, sizeof(pe));
		assert_int_equal(shim_cn_parse(&d.u, d.len, ev, ARRAY_SIZE(ev), &err), -1);
		assert_contains(err.msg, "netlink message type 2");
	}
	/* More events than room. */
	{
		struct shim_err err = { 0 };

		d.len = 0;
		put_exit(&d, 1, 1);
		put_exit(&d, 2, 2);
		put_exit(&d, 3, 3);
		assert_int_equal(shim_cn_parse(&d.u, d.len, ev, 2, &err), -1);
		assert_int_equal(err.errnum, ENOBUFS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_several_and_skipped),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests_name("connector", tests, NULL, NULL);
}
