/* For scenarios that are no C helper of their own: exit 0 and print
 * nothing where the kernel has BPF tokens; where it has not (stock 6.1),
 * print the TAP plan that skips the whole scenario as unsupported, with
 * the reason, and exit 0.
 */
#include "token_common.h"

int main(void)
{
	tk_require_tokens();
	return 0;
}
