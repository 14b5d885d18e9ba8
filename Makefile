# Entry points: `make demo` and `make check`. Each step names the steps
# whose output it reads; demo, bench and check build theirs at once where
# one does not wait on another (BUILD_JOBS at a time, default 6: as many
# as can run side by side), and each script skips work whose inputs have
# not changed.
#
#   make check [KERNELS="patched patched-fred reference stock"] [SCENARIOS="pidfd token/20-token-create"] [KERNEL_DEBUG=1]
#   make demo
#
# The kernels are the rows of scripts/kernels.tsv: each one's image and
# how it is made, its command line (patched-fred is the patched image
# with fred=on), its role in the matrix and its time limits. KERNELS
# defaults to the table's default rows; KERNEL_DEBUG=1 runs each row's
# debug kernel in its place (patched-debug, patched-debug-fred).

SHELL := /bin/bash
BUILD := $(CURDIR)/build
KERNELS ?=
SCENARIOS ?=
KERNEL_DEBUG ?=
KERNEL_VARS := KERNELS="$(KERNELS)" KERNEL_DEBUG="$(KERNEL_DEBUG)"
# The steps that make the images of the kernels to run: kernel,
# kernel-debug, prebuilt (an unknown name gives none: kernel-filter fails).
IMAGE_STEPS := $(shell $(KERNEL_VARS) scripts/kernels.sh steps 2>/dev/null)

.PHONY: check-start scenario-filter kernel-filter help deps kernel-tree kernel kernel-debug prebuilt upstream-selftests bpf-tools deb userspace rootfs-base cri-disk rootfs unit-tests check demo bench series-check fuzz install uninstall install-shim uninstall-shim install-bpf-tools uninstall-bpf-tools clean

# The build steps of demo, bench and check, at once where the graph
# allows. The kernel's tree and compile are the path everything else
# waits on; the steps off that path yield the cores to it (nice) and use
# what it leaves: its single-threaded unpacking and linking, and the
# waits on the mirror. The unit tests keep their priority, as their
# stand-ins have time limits. A script's own make takes its -j from the
# script, not from this make's job slots (STEP).
BUILD_JOBS ?= 6
BUILD_STEPS := $(MAKE) --no-print-directory -j$(BUILD_JOBS)
STEP := env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS
OFF_PATH := nice -n 10 $(STEP)

help:
	@echo "make demo        boot the patched guest and show delegated BPF in a container"
	@echo "make check       host unit tests, then the scenarios on the kernel matrix"
	@echo "  KERNELS=...    kernels to run, rows of scripts/kernels.tsv (default: $$(scripts/kernels.sh names);"
	@echo "                 patched-fred is the patched image booted with fred=on)"
	@echo "  SCENARIOS=...  groups or group/name to run (default: all)"
	@echo "  KERNEL_DEBUG=1 use the KASAN/lockdep/kmemleak build of the patched kernel"
	@echo "                 (patched-debug, patched-debug-fred)"
	@echo "  GUEST_RERUN=1  boot guests whose inputs are unchanged since a clean run"
	@echo "  GUEST_ACCEL=kvm|tcg  skip the KVM probe"
	@echo "  BUILD_JOBS=N   build steps at once (default 6; check, demo and bench)"
	@echo "steps: deps kernel-tree kernel kernel-debug prebuilt upstream-selftests bpf-tools deb userspace rootfs-base cri-disk rootfs unit-tests"
	@echo "make deb         the Debian packages shim and bpf-token-tools, lintian-checked, in build/deb"
	@echo "make bench       benchmarks in one guest boot: build/results/bench/KERNEL/results.md"
	@echo "  KERNEL=...     the kernel to measure (default patched); BENCH_QUICK=1 a smoke run"
	@echo "make series-check  checkpatch every patch (no kernel build); BISECT=1 also builds after each"
	@echo "make fuzz        the shim's libFuzzer targets (runtime-shim/fuzz), two at a time, in build/shim-fuzz"
	@echo "  FUZZ_SECONDS=N each target's time (default 600); make check runs each for a few seconds"
	@echo "make install     install-shim and install-bpf-tools:"
	@echo "  install-shim       the shim, man pages, completion, OCI hook files (PREFIX=/usr/local, DESTDIR=)"
	@echo "  install-bpf-tools  the series' libbpf.so.1 and bpftool under /usr/lib/bpf-token"
	@echo "                     (BPF_TOOLS_PREFIX=, DESTDIR=); patches a kernel tree first if there is none"
	@echo "make uninstall   uninstall-shim and uninstall-bpf-tools: remove what install wrote"
	@echo "make clean       remove build/ (keeps the ccache)"

deps:
	@$(STEP) scripts/install-deps.sh

kernel-tree: deps
	@$(STEP) scripts/kernel-tree.sh

kernel: kernel-tree
	@$(STEP) scripts/kernel-build.sh default

kernel-debug: kernel
	@$(STEP) scripts/kernel-build.sh debug

# Every image of scripts/kernels.tsv that comes from a Debian package.
prebuilt: deps
	@$(OFF_PATH) scripts/fetch-prebuilt-kernel.sh

# Upstream's BPF token selftest from linux-source-6.12, with the reference
# kernel's types (scenarios/token/90-upstream-selftests).
upstream-selftests: deps prebuilt
	@$(OFF_PATH) scripts/upstream-selftests-src.sh

# The patched tree's libbpf (shared) and bpftool, staged as `make install`
# lays them out (build/bpf-tools/stage). The guest gets them under the
# default prefix, whatever a `make install` chose.
bpf-tools: kernel-tree
	@BPF_TOOLS_PREFIX=/usr/lib/bpf-token $(OFF_PATH) scripts/build-bpf-tools.sh

# The Debian packages, shim and bpf-token-tools, into build/deb: the
# guests install them (rootfs), as a Debian 12 user would.
deb: deps bpf-tools
	@$(OFF_PATH) scripts/deb.sh

userspace: kernel upstream-selftests bpf-tools
	@$(MAKE) -s -C bench O=$(BUILD)/bench KHDR=$(BUILD)/kernel-headers/include LIBBPF=$(BUILD)/libbpf
	@$(MAKE) -s -C scenarios O=$(BUILD)/scenarios KHDR=$(BUILD)/kernel-headers/include \
		LIBBPF=$(BUILD)/libbpf VMLINUX=$(BUILD)/linux/out-default/vmlinux \
		BPF_TOOLS=$(BUILD)/bpf-tools/stage/usr/lib/bpf-token

# The guest's Debian base (debootstrap) and the containerd scenario's
# disk need nothing built here: they run while the kernel compiles.
rootfs-base: deps
	@$(OFF_PATH) scripts/rootfs-base.sh

cri-disk: deps
	@$(OFF_PATH) scripts/cri-disk.sh

rootfs: deps userspace deb rootfs-base cri-disk
	@$(STEP) scripts/rootfs-pack.sh

# kernel-tree first: the libbpf ABI test builds the patched tree's
# tools/lib/bpf, and the tree's commit is one of the inputs by which a
# passing run is reused (unit-tests.sh).
unit-tests: kernel-tree
	@$(STEP) scripts/unit-tests.sh

# The filter is checked first: a word that names no scenario fails before
# anything is built or booted.
scenario-filter:
	@scripts/scenario-filter.sh $(SCENARIOS)

# Likewise a kernel name without a row in scripts/kernels.tsv.
kernel-filter:
	@names=$$($(KERNEL_VARS) scripts/kernels.sh names) && echo "==> kernels: $$names"

# This check's step times start afresh (build/steps.tsv, which tally.sh
# prints before its count).
check-start:
	@mkdir -p $(BUILD) && : > $(BUILD)/steps.tsv && date +%s > $(BUILD)/.check-start

# A full check also runs the quick bench once, so that it cannot rot; it
# asserts only that the bench runs and its numbers are well-formed, so it
# boots beside the matrix's guests.
BENCH_CHECK := $(if $(SCENARIOS)$(KERNEL_DEBUG),,1)
# Where unit-tests.sh and the guests put their results (lib.sh: a second
# matrix may have a RESULTS_DIR of its own); the bench's are always in
# build/results/bench.
RESULTS := $(or $(RESULTS_DIR),$(BUILD)/results)
# Last, the one count: the host unit tests' TAP, each kernel's, the
# quick bench's (tally.sh), ending with "N passed, N failed".
check: check-start scenario-filter kernel-filter
	@$(BUILD_STEPS) unit-tests $(IMAGE_STEPS) rootfs
	@$(if $(BENCH_CHECK),scripts/bench.sh --check & bench=$$!;) rc=0; \
		$(KERNEL_VARS) scripts/run-matrix.sh $(SCENARIOS) || rc=$$?; \
		$(if $(BENCH_CHECK),wait $$bench || rc=$$?;) exit $$rc
	@$(KERNEL_VARS) scripts/tally.sh $(RESULTS)/unit/tap $(if $(BENCH_CHECK),$(BUILD)/results/bench/check.tap)

# make bench [KERNEL=a row of scripts/kernels.tsv, default patched] [BENCH_QUICK=1]
bench:
	@$(BUILD_STEPS) kernel prebuilt rootfs
	@scripts/bench.sh

demo:
	@$(BUILD_STEPS) kernel prebuilt rootfs
	@scripts/demo.sh

# checkpatch needs only the patched tree; BISECT=1 builds in a worktree of
# its own.
series-check: kernel-tree
	@scripts/series-check.sh $(if $(BISECT),--build)

# The shim's fuzz targets, one for each parser of untrusted input, each for
# FUZZ_SECONDS on a copy of its seeds (runtime-shim/README.md, Fuzzing);
# the system's headers, as the host unit tests use.
FUZZ_SECONDS ?= 600
fuzz: deps
	@$(MAKE) -s -C runtime-shim fuzz O=$(BUILD)/shim-fuzz KHDR= FUZZ_SECONDS=$(FUZZ_SECONDS)

# Two installs, each of one thing, each printing every path it writes:
#   install-shim       the shim, its man pages, bash completion and the OCI
#                      hook's files (runtime-shim/Makefile; PREFIX=/usr/local);
#                      needs no kernel tree
#   install-bpf-tools  the series' libbpf.so.1 and bpftool under a prefix of
#                      their own (/usr/lib/bpf-token, BPF_TOOLS_PREFIX=), so that
#                      Debian's libbpf1 and bpftool stay what every other
#                      program gets (docs/bpf-token-tools.md); they
#                      are built from the patched kernel tree, which this
#                      unpacks and patches first when it is not there
# make install runs both; make deb packages both.  uninstall-* remove what
# install-* wrote, and the folders they made once empty.
install: install-shim install-bpf-tools
uninstall: uninstall-shim uninstall-bpf-tools

install-shim:
	@$(MAKE) -s -C runtime-shim O=$(BUILD)/shim-install install

uninstall-shim:
	@$(MAKE) -s -C runtime-shim O=$(BUILD)/shim-install uninstall

install-bpf-tools:
	@[ -d $(BUILD)/linux/tools/lib/bpf ] || \
		echo "install-bpf-tools: libbpf and bpftool come from the patched kernel tree: unpacking and patching it first"
	@$(MAKE) -s kernel-tree
	@scripts/build-bpf-tools.sh install

uninstall-bpf-tools:
	@scripts/build-bpf-tools.sh uninstall

clean:
	rm -rf $(BUILD)
