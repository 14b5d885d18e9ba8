// SPDX-License-Identifier: GPL-2.0
/*
 * The user-mode events that FRED delivers in place of the IDT, on every
 * CPU this process may run on: SYSCALL, page faults (a fresh mmap's first
 * touch; a PROT_NONE page, whose fault address FRED passes as event data
 * where the IDT has CR2), int3 (#BP), divide by zero (#DE), ud2 (#UD) and
 * hlt (#GP). Each must reach the process as Linux has always delivered it,
 * with the faulting instruction's address where the signal carries one.
 * Prints TAP, exits 1 on a failure.
 * usage: fred_events
 */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap.h"

#define EVENTS_PER_CPU 7
#define FRESH_PAGES 8

/* The faulting instructions, each in a function of its own with a label
 * on it: the compiler can neither move nor duplicate them. */
void fe_int3(void);
void fe_divide_by_zero(void);
void fe_ud2(void);
void fe_hlt(void);
extern const char fe_div_insn[], fe_ud2_insn[];
asm(".pushsection .text\n"
    ".type fe_int3, @function\n"
    "fe_int3:\n\tint3\n\tret\n"
    ".type fe_divide_by_zero, @function\n"
    "fe_divide_by_zero:\n\tmov $1, %eax\n\txor %edx, %edx\n\txor %ecx, %ecx\n"
    "fe_div_insn:\n\tdiv %ecx\n\tret\n"
    ".type fe_ud2, @function\n"
    "fe_ud2:\n"
    "fe_ud2_insn:\n\tud2\n\tret\n"
    ".type fe_hlt, @function\n"
    "fe_hlt:\n\thlt\n\tret\n"
    ".popsection\n");

static long raw_syscall0(long nr)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

static sigjmp_buf back;
static volatile sig_atomic_t got_sig, got_code;
static void *volatile got_addr;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = si->si_addr;
	siglongjmp(back, 1);
}

/* Run fn; true if a signal ended it (what arrived is in got_*). */
static bool raises(void (*fn)(void))
{
	got_sig = got_code = 0;
	got_addr = NULL;
	if (sigsetjmp(back, 1) == 0) {
		fn();
		return false;
	}
	return true;
}

static char *volatile protnone_target;

static void touch_protnone(void)
{
	(void)*(volatile char *)protnone_target;
}

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_minflt;
}

static void events_on(struct tap *t, int cpu)
{
	long page = sysconf(_SC_PAGESIZE), faults;
	bool ok, fresh_ok = true;
	cpu_set_t one;
	char *p;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ok = !sched_setaffinity(0, sizeof(one), &one) && sched_getcpu() == cpu;
	ok = ok && raw_syscall0(SYS_getpid) == getpid() && raw_syscall0(SYS_gettid) == gettid();
	tap_ok(t, ok, "CPU%d: SYSCALL: getpid and gettid through the syscall instruction", cpu);

	p = mmap(NULL, FRESH_PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	faults = minor_faults();
	for (int i = 0; p != MAP_FAILED && i < FRESH_PAGES; i++)
		((volatile char *)p)[i * page] = (char)(i + 1);
	faults = minor_faults() - faults;
	for (int i = 0; p != MAP_FAILED && i < FRESH_PAGES; i++)
		fresh_ok &= ((volatile char *)p)[i * page] == (char)(i + 1);
	ok = p != MAP_FAILED && fresh_ok && faults >= 1;
	tap_ok(t, ok, "CPU%d: #PF: the first touch of %d fresh pages faults them in (%ld minor faults)", cpu,
	       FRESH_PAGES, faults);
	if (p != MAP_FAILED)
		munmap(p, FRESH_PAGES * page);

	/* Each check runs before tap_ok(), whose other arguments report
	 * what it saw: argument order is unspecified. */
	p = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	protnone_target = p + 0x123;
	ok = p != MAP_FAILED && raises(touch_protnone) && got_sig == SIGSEGV && got_code == SEGV_ACCERR &&
	     got_addr == protnone_target;
	tap_ok(t, ok, "CPU%d: #PF on a PROT_NONE page: SIGSEGV, SEGV_ACCERR at the address read (got %d/%d at %p)",
	       cpu, got_sig, got_code, got_addr);
	if (p != MAP_FAILED)
		munmap(p, page);

	ok = raises(fe_int3) && got_sig == SIGTRAP && got_code == SI_KERNEL;
	tap_ok(t, ok, "CPU%d: #BP: int3 raises SIGTRAP, SI_KERNEL (got %d/%d)", cpu, got_sig, got_code);
	ok = raises(fe_divide_by_zero) && got_sig == SIGFPE && got_code == FPE_INTDIV && got_addr == fe_div_insn;
	tap_ok(t, ok, "CPU%d: #DE: divide by zero raises SIGFPE, FPE_INTDIV at the div (got %d/%d at %p)", cpu,
	       got_sig, got_code, got_addr);
	ok = raises(fe_ud2) && got_sig == SIGILL && got_code == ILL_ILLOPN && got_addr == fe_ud2_insn;
	tap_ok(t, ok, "CPU%d: #UD: ud2 raises SIGILL, ILL_ILLOPN at the ud2 (got %d/%d at %p)", cpu, got_sig,
	       got_code, got_addr);
	ok = raises(fe_hlt) && got_sig == SIGSEGV && got_code == SI_KERNEL;
	tap_ok(t, ok, "CPU%d: #GP: hlt in user mode raises SIGSEGV, SI_KERNEL (got %d/%d)", cpu, got_sig, got_code);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	const int signals[] = { SIGSEGV, SIGTRAP, SIGFPE, SIGILL };
	struct tap t = { 0 };
	cpu_set_t allowed;

	/* Handled signals: no "traps:" line on the console, which the host
	 * would take for a kernel problem. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (sigaction(signals[i], &sa, NULL)) {
			perror("sigaction");
			return 1;
		}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("sched_getaffinity");
		return 1;
	}
	tap_plan(&t, CPU_COUNT(&allowed) * EVENTS_PER_CPU);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			events_on(&t, cpu);
	return tap_done(&t);
}
