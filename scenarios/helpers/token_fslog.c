/* A bad delegate_* element is refused with EINVAL and nothing in the
 * fs_context log, as upstream (which hands the element to kstrtou64()
 * and returns its error). The log is what read() on the fsopen() fd
 * returns; ENODATA when it is empty. The control: a bad mode= value makes
 * the VFS parser log "Bad value for 'mode'", so the check can see one.
 */
#include "token_common.h"

#define TEST_COUNT 9

/* Read one fs_context log message; "" when there is none (ENODATA). */
static int fs_log(int fd, char *buf, size_t len)
{
	ssize_t n;

	buf[0] = '\0';
	n = read(fd, buf, len - 1);
	if (n < 0)
		return errno == ENODATA ? 0 : -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int main(void)
{
	const char *keys[4] = { "delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs" };
	struct tap t = { 0 };
	char msg[512], what[128];
	int i, rc;

	tk_require_tokens();
	tap_plan(&t, TEST_COUNT);

	/* 1-8 */
	for (i = 0; i < 4; i++) {
		int fd AUTOCLOSE = tk_fsopen("bpf");

		if (fd < 0) {
			tap_diag("setup: fsopen(\"bpf\"): %s", strerror(errno));
			return 1;
		}
		rc = tk_fsconfig_str(fd, keys[i], "no_such_name");
		snprintf(what, sizeof(what), "fsconfig %s=no_such_name", keys[i]);
		tap_errno(&t, rc, EINVAL, what);
		if (fs_log(fd, msg, sizeof(msg)))
			tap_diag("reading the fs_context log: %s", strerror(errno));
		tap_ok(&t, msg[0] == '\0', "%s: the fs_context log stays empty (got '%s')", keys[i], msg);
	}

	/* 9: the control: a bad mode= value is logged by the VFS parser */
	{
		int fd AUTOCLOSE = tk_fsopen("bpf");

		tk_fsconfig_str(fd, "mode", "not_octal");
		fs_log(fd, msg, sizeof(msg));
		tap_ok(&t, strstr(msg, "mode") != NULL,
		       "control: fsconfig mode=not_octal is logged (got '%s')", msg);
	}
	return tap_done(&t);
}
