# Entry points: `make demo` and `make check`. The steps below run in the
# order listed; each script skips work whose inputs have not changed.
#
#   make check [KERNELS="patched patched-fred reference stock"] [SCENARIOS="pidfd token/20-token-create"] [KERNEL_DEBUG=1]
#   make demo
#
# patched-fred boots the patched image with fred=on (scripts/lib.sh);
# KERNEL_DEBUG=1 swaps in the debug image for both: patched-debug and
# patched-debug-fred.

SHELL := /bin/bash
BUILD := $(CURDIR)/build
KERNELS ?= patched patched-fred reference stock
SCENARIOS ?=
KERNEL_DEBUG ?=

ifeq ($(KERNEL_DEBUG),1)
MATRIX_KERNELS := $(patsubst patched%,patched-debug%,$(KERNELS))
else
MATRIX_KERNELS := $(KERNELS)
endif

.PHONY: scenario-filter help deps kernel-tree kernel kernel-debug prebuilt upstream-selftests bpf-tools userspace rootfs unit-tests check demo series-check install uninstall clean

help:
	@echo "make demo        boot the patched guest and show delegated BPF in a container"
	@echo "make check       host unit tests, then the scenarios on the kernel matrix"
	@echo "  KERNELS=...    kernels to run (default: patched patched-fred reference stock;"
	@echo "                 patched-fred is the patched image booted with fred=on)"
	@echo "  SCENARIOS=...  groups or group/name to run (default: all)"
	@echo "  KERNEL_DEBUG=1 use the KASAN/lockdep/kmemleak build of the patched kernel"
	@echo "                 (patched-debug, patched-debug-fred)"
	@echo "  GUEST_RERUN=1  boot guests whose inputs are unchanged since a clean run"
	@echo "  GUEST_ACCEL=kvm|tcg  skip the KVM probe"
	@echo "steps: deps kernel-tree kernel kernel-debug prebuilt upstream-selftests bpf-tools userspace rootfs unit-tests"
	@echo "make bench       benchmarks in one guest boot: build/results/bench/KERNEL/results.md"
	@echo "  KERNEL=...     the kernel to measure (default patched); BENCH_QUICK=1 a smoke run"
	@echo "make series-check  checkpatch every patch (no kernel build); BISECT=1 also builds after each"
	@echo "make install     the series' libbpf.so.1 and bpftool under /opt/bpf-token (BPF_TOOLS_PREFIX=, DESTDIR=)"
	@echo "make uninstall   remove them again"
	@echo "make clean       remove build/ (keeps the ccache)"

deps:
	@scripts/install-deps.sh

kernel-tree: deps
	@scripts/kernel-tree.sh

kernel: kernel-tree
	@scripts/kernel-build.sh default

kernel-debug: kernel
	@scripts/kernel-build.sh debug

prebuilt: deps
	@scripts/fetch-prebuilt-kernel.sh reference
	@scripts/fetch-prebuilt-kernel.sh stock

# Upstream's BPF token selftest from linux-source-6.12, with the reference
# kernel's types (scenarios/token/90-upstream-selftests).
upstream-selftests: deps prebuilt
	@scripts/upstream-selftests-src.sh

# The patched tree's libbpf (shared) and bpftool, staged as `make install`
# lays them out (build/bpf-tools/stage). The guest gets them under the
# default prefix, whatever a `make install` chose.
bpf-tools: kernel-tree
	@BPF_TOOLS_PREFIX=/opt/bpf-token scripts/build-bpf-tools.sh

userspace: kernel upstream-selftests bpf-tools
	@if [ -f runtime-shim/Makefile ]; then \
		$(MAKE) -s -C runtime-shim O=$(BUILD)/shim KHDR=$(BUILD)/kernel-headers/include \
			LIBBPF=$(BUILD)/libbpf; fi
	@$(MAKE) -s -C bench O=$(BUILD)/bench KHDR=$(BUILD)/kernel-headers/include LIBBPF=$(BUILD)/libbpf
	@$(MAKE) -s -C scenarios O=$(BUILD)/scenarios KHDR=$(BUILD)/kernel-headers/include \
		LIBBPF=$(BUILD)/libbpf VMLINUX=$(BUILD)/linux/out-default/vmlinux \
		BPF_TOOLS=$(BUILD)/bpf-tools/stage/opt/bpf-token

rootfs: deps userspace
	@scripts/rootfs-base.sh
	@scripts/rootfs-pack.sh

unit-tests: deps
	@scripts/unit-tests.sh

# The filter is checked first: a word that names no scenario fails before
# anything is built or booted.
scenario-filter:
	@scripts/scenario-filter.sh $(SCENARIOS)

# A full check also runs the quick bench once, so that it cannot rot; it
# asserts only that the bench runs and its numbers are well-formed.
check: scenario-filter unit-tests kernel $(if $(KERNEL_DEBUG),kernel-debug) prebuilt rootfs
	@rm -f $(BUILD)/results/bench/summary
	@$(if $(SCENARIOS)$(KERNEL_DEBUG),,scripts/bench.sh --check)
	@KERNELS="$(MATRIX_KERNELS)" scripts/run-matrix.sh $(SCENARIOS)

# make bench [KERNEL=patched|reference|stock|patched-fred] [BENCH_QUICK=1]
bench: kernel prebuilt rootfs
	@scripts/bench.sh

demo: kernel prebuilt rootfs
	@scripts/demo.sh

# checkpatch needs only the patched tree; BISECT=1 builds in a worktree of
# its own.
series-check: kernel-tree
	@scripts/series-check.sh $(if $(BISECT),--build)

# Under a prefix of its own, so that Debian's libbpf1 and bpftool stay
# what every other program gets (README.md, "Tokens from Debian 12").
# The shim's own install (runtime-shim/Makefile), when it has one.
install: kernel-tree
	@scripts/build-bpf-tools.sh install
	@if grep -q '^install:' runtime-shim/Makefile 2>/dev/null; then \
		$(MAKE) -s -C runtime-shim O=$(BUILD)/shim install; fi

uninstall:
	@scripts/build-bpf-tools.sh uninstall
	@if grep -q '^uninstall:' runtime-shim/Makefile 2>/dev/null; then \
		$(MAKE) -s -C runtime-shim O=$(BUILD)/shim uninstall; fi

clean:
	rm -rf $(BUILD)
