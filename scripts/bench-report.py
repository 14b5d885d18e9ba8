#!/usr/bin/env python3
"""Turn the guest's raw bench output into results.json, results.md and plots.

Usage: bench-report.py OUTDIR KERNEL TAP [--reference TAP] [--steps TSV]
                       [--matrix-tap TAP] [--check]

TAP is what bench/guest/run printed in the guest (sample/count/note/info
lines). --reference adds the reference kernel's token BPF numbers, measured
the same way in a boot of its own. --steps and --matrix-tap add the
pipeline's own costs from the logs `make check` writes. --check only
validates: every benchmark has samples and every figure is a finite
number; exit 1 otherwise (it asserts no value).
"""
import argparse
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import time

# What each benchmark measures and its unit (docs/performance.md's wording).
META = {
    "start": ("container start, /bin/true", "s"),
    "start-cpu": ("runtime's own CPU per start", "s"),
    "start-profile": ("the shim's start, a step's wall time", "s"),
    "start-profile-cpu": ("the shim's start, a step's CPU", "s"),
    "bpf-prog_load_demo": ("BPF_PROG_LOAD, the demo's socket filter", "s"),
    "bpf-prog_load_1k": ("BPF_PROG_LOAD, 1,000 instructions", "s"),
    "bpf-map_create": ("BPF_MAP_CREATE, array", "s"),
    "threads-latency": ("exit to event (thread-exit / waitpid)", "s"),
    "threads-cpu-per-thread": ("supervisor CPU per task (the shim's less its setup)", "s"),
    "threads-memory-peak": ("the shim's peak resident memory (sampled Rss; growth with N is per task)", "B"),
}

# The supervision goals (issue 21; docs/performance.md, "Against the
# goals"): each ratio's name pattern, the bound it must stay within, and
# the wording.
GOALS = [
    ("threads-latency", " p99/waitpid p99", 2.0, "p99 exit to event within 2x the waitpid baseline"),
    ("threads-cpu-per-thread", "/waitpid", 2.0, "CPU per task within 2x the waitpid baseline"),
    ("threads-cpu-per-thread", "/idle host", 1.10, "busy host CPU per task within 10% of the idle host"),
    ("start", "shim/unshare", 1.5, "shim run's start within 1.5x the unshare -Urmpf floor"),
]

# The start profile's steps (runtime-shim/src/profile.h: the marks where
# each ends), in the words of docs/performance.md.
PROFILE_STEPS = {
    "exec": "exec of the shim and its dynamic loading",
    "options": "options parsed",
    "policy": "BPF token probe, delegation and capability checks",
    "seccomp-build": "the seccomp program made ready (the default's is built in)",
    "signals-events": "events file, signal handling, the setup socket",
    "idblock": "ID block taken under its lock (idblock.c)",
    "cgroup": "the container's cgroup made (cgroup.c)",
    "holder": "the namespace holder cloned: user, UTS, IPC, network, cgroup namespaces",
    "idmaps": "ID maps written",
    "rootfs-tree": "namespace files opened, the rootfs tree cloned, the holder reaped",
    "init-clone": "the init cloned into its mount and PID namespaces",
    "init-mounts": "init: namespaces joined, rootfs, masks and read-only binds, pivot, container root",
    "init-bpffs": "init: the delegated BPF FS",
    "init-signals": "init: signal handling for the command, the exec stub's sealed memfd",
    "command-prep": "command: session, descriptors, working directory, environment",
    "command-caps": "command: capabilities bounded, no_new_privs",
    "seccomp-load": "command: the seccomp filter loaded",
    "started": "exec of the stub and of the command, until the shim hears that it started",
    "command-exit": "the command runs and exits, until the shim sees the init's pidfd",
    "teardown": "the cgroup removed, the exit event, resources freed",
}


def stats(values):
    v = sorted(values)
    n = len(v)
    mean = sum(v) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0

    def pct(p):
        # Nearest rank: the smallest value with at least p% at or below it.
        return v[max(0, math.ceil(p / 100 * n) - 1)]

    return {"n": n, "mean": mean, "sd": sd, "p50": pct(50), "p99": pct(99)}


def parse(path, tag=None):
    samples, counts, notes, info = {}, {}, [], {}
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) >= 4 and w[0] == "sample":
                variant = w[2] if tag is None else f"{w[2]}@{tag}"
                samples.setdefault(w[1], {}).setdefault(variant, []).extend(float(x) for x in w[3:])
            elif len(w) == 5 and w[0] == "count":
                c = counts.setdefault(w[1], {}).setdefault(w[2], [0, 0])
                c[0] += int(w[3])
                c[1] += int(w[4])
            elif w and w[0] == "note":
                notes.append(" ".join(w[1:]))
            elif w and w[0] == "info":
                info[" ".join(w[1:-1])] = w[-1]
    return samples, counts, notes, info


def ratios(bench, variants):
    """Each variant against the reference points the goals use (docs/performance.md)."""
    base = {"start": ["unshare", "runc"], "start-cpu": ["runc"],
            "bpf-prog_load_demo": ["privileged"], "bpf-prog_load_1k": ["privileged"],
            "bpf-map_create": ["privileged"]}.get(bench, [])
    out = {}
    for b in base:
        if b not in variants:
            continue
        for v, s in variants.items():
            # The floor and the other kernel's figures are no candidates.
            if v in (b, "unshare") or "@" in v or variants[b]["mean"] <= 0:
                continue
            out[f"{v}/{b}"] = s["mean"] / variants[b]["mean"]
            # A BPF command's mean moves with one slow run; its median does not.
            if bench.startswith("bpf-") and variants[b]["p50"] > 0:
                out[f"{v}/{b} p50"] = s["p50"] / variants[b]["p50"]
    # What the container's cgroup adds to a start.
    if bench in ("start", "start-cpu") and "shim-nocgroup" in variants and "shim" in variants \
            and variants["shim-nocgroup"]["mean"] > 0:
        out["shim/shim-nocgroup"] = variants["shim"]["mean"] / variants["shim-nocgroup"]["mean"]
    # The same path on the reference kernel (a boot of its own).
    for v, s in variants.items():
        if "@" in v:
            ours = v.split("@")[0]
            if ours in variants and s["mean"] > 0:
                out[f"{ours}/{v}"] = variants[ours]["mean"] / s["mean"]
    if bench == "threads-latency":
        for v, s in variants.items():
            if v.startswith("shim/"):
                w = "waitpid/" + v[len("shim/"):]
                if w in variants and variants[w]["p99"] > 0:
                    out[f"{v} p99/waitpid p99"] = s["p99"] / variants[w]["p99"]
    if bench == "threads-cpu-per-thread":
        for v, s in variants.items():
            if not v.startswith("shim/"):
                continue
            w = "waitpid/" + v[len("shim/"):]
            if w in variants and variants[w]["mean"] > 0:
                out[f"{v}/waitpid"] = s["mean"] / variants[w]["mean"]
            # The busy host against the idle one, same N and shape.
            idle = v.rsplit("-", 1)[0] + "-noise0"
            if v.endswith("-busy1000") and idle in variants and variants[idle]["mean"] > 0:
                out[f"{v}/idle host"] = s["mean"] / variants[idle]["mean"]
    return out


def goals(result):
    """Each goal's ratio per variant, and every variant's share of events."""
    rows = []
    for bench, suffix, bound, what in GOALS:
        for k, x in result["benchmarks"].get(bench, {}).get("ratios", {}).items():
            if k.endswith(suffix):
                rows.append((what, k, f"{x:.2f}", "met" if x <= bound else "missed"))
    for bench, vs in result["events"].items():
        for v, c in vs.items():
            if v.startswith("shim/"):
                share = c["received"] / c["expected"] if c["expected"] else 0
                rows.append(("100% of tasks, no loss event", v, f"{share:.1%}",
                             "met" if c["received"] == c["expected"] else "missed"))
    return rows


def profile_table(benchmarks):
    """The shim's start, step by step: mean wall and CPU, and each step's share."""
    wall = benchmarks.get("start-profile", {}).get("variants", {})
    cpu = benchmarks.get("start-profile-cpu", {}).get("variants", {})
    if not wall:
        return []
    total = sum(s["mean"] for s in wall.values())
    md = ["## The shim's start, step by step (`start-profile`)", "",
          "The profile build of the shim (`PROFILE=1`, runtime-shim/src/profile.h), started as "
          "the `shim` variant is. A step's wall time runs from the end of the step before; its "
          "CPU is that of the process that took it.", "",
          "| step | what | wall | CPU | share of the start |", "|---|---|---|---|---|"]
    for step, s in wall.items():
        c = cpu.get(step, {}).get("mean", 0.0)
        md.append(f"| {step} | {PROFILE_STEPS.get(step, '')} | {fmt(s['mean'], 's')} | {fmt(c, 's')} | "
                  f"{s['mean'] / total:.1%} |" if total > 0 else f"| {step} | | | | |")
    start = benchmarks.get("start", {}).get("variants", {})
    md += [f"| total | the steps' sum | {fmt(total, 's')} | {fmt(sum(s['mean'] for s in cpu.values()), 's')} | |"]
    for v in ("shim-profile", "shim"):
        if v in start:
            md += [f"| `{v}` start | measured whole (`start` below) | {fmt(start[v]['mean'], 's')} | | |"]
    return md + [""]


def fmt(x, unit):
    if unit == "B":
        for scale, name in ((1 << 20, "MiB"), (1 << 10, "KiB")):
            if abs(x) >= scale:
                return f"{x / scale:.3g} {name}"
        return f"{x:.3g} B"
    if unit != "s":
        return f"{x:.3g}"
    for scale, name in ((1, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if abs(x) >= scale:
            return f"{x / scale:.3g} {name}"
    return f"{x * 1e9:.3g} ns"


def plot(outdir, bench, variants, unit):
    if not shutil.which("gnuplot"):
        return None
    dat = os.path.join(outdir, f"{bench}.dat")
    png = os.path.join(outdir, f"{bench}.png")
    with open(dat, "w") as f:
        for i, (v, s) in enumerate(variants.items()):
            f.write(f'{i} "{v}" {s["mean"]} {s["sd"]} {s["p50"]} {s["p99"]}\n')
    title = META.get(bench, (bench, unit))[0]
    # Latencies span µs to s between variants: on a linear axis all but
    # the largest are flat. A log axis cannot show mean - σ below zero, so
    # there the bars are medians.
    if bench == "threads-latency":
        what, axis = "p50, and p99", "set logscale y\nset format y \"%.0s %cs\""
        bars = f'"{dat}" using 1:5:xtic(2) with boxes title "p50"'
    else:
        what, axis = "mean ± σ, and p99", "set yrange [0:*]"
        bars = f'"{dat}" using 1:3:4:xtic(2) with boxerrorbars title "mean ± σ"'
    script = f"""set terminal pngcairo size 900,420 font "sans,10"
set output "{png}"
set title "{title} ({what})" noenhanced
set ylabel "{unit}"
set style fill solid 0.5
set boxwidth 0.6
set xtics rotate by -30 noenhanced
set key outside top right
set bmargin 8
set xrange [-0.6:{len(variants) - 0.4}]
{axis}
plot {bars}, \\
     "{dat}" using 1:6 with points pt 7 title "p99"
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return os.path.basename(png)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("kernel")
    ap.add_argument("tap")
    ap.add_argument("--reference")
    ap.add_argument("--steps")
    ap.add_argument("--matrix-tap")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    samples, counts, notes, info = parse(a.tap)
    if a.reference and os.path.exists(a.reference):
        rs, _, rn, _ = parse(a.reference, tag="reference")
        for bench, variants in rs.items():
            if bench.startswith("bpf-"):
                for v, vals in variants.items():
                    samples.setdefault(bench, {})[v] = vals
        notes += [f"reference: {n}" for n in rn]

    result = {
        "kernel": a.kernel,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, QEMU guest (TCG unless KVM was usable)",
        "info": info,
        "benchmarks": {},
        "events": {b: {v: {"received": c[0], "expected": c[1]} for v, c in vs.items()}
                   for b, vs in counts.items()},
        "notes": notes,
    }
    for bench, variants in samples.items():
        unit = META.get(bench, (bench, "s"))[1]
        st = {v: stats(vals) for v, vals in variants.items() if vals}
        result["benchmarks"][bench] = {"title": META.get(bench, (bench,))[0], "unit": unit,
                                       "variants": st, "ratios": ratios(bench, st)}

    pipeline = {}
    if a.steps and os.path.exists(a.steps):
        with open(a.steps) as f:
            for line in f:
                w = line.split("\t")
                if len(w) >= 2:
                    pipeline[w[0]] = float(w[1])  # the latest run of each step wins
    if a.matrix_tap and os.path.exists(a.matrix_tap):
        with open(a.matrix_tap) as f:
            for line in f:
                if line.startswith("# guest: uptime at the first scenario:"):
                    pipeline["guest boot to first scenario"] = float(line.split(":")[-1].strip().rstrip("s"))
    result["pipeline"] = pipeline

    bad = []
    for bench, b in result["benchmarks"].items():
        for v, s in b["variants"].items():
            for k, x in s.items():
                # Latencies and the per-task CPU (a run's less the mean of
                # the start, a difference whose spread a quick run of a
                # cheap supervisor can exceed) may be below zero.
                signed = "latency" in bench or bench == "threads-cpu-per-thread"
                if not isinstance(x, (int, float)) or not math.isfinite(x) or (k != "sd" and x < 0 and not signed):
                    bad.append(f"{bench} {v} {k}={x}")
    if not result["benchmarks"]:
        bad.append("no benchmark produced samples")
    for b in ("start", "threads-latency"):
        if b not in result["benchmarks"] and not any(n.startswith(b.split("-")[0]) for n in notes):
            bad.append(f"{b}: neither samples nor a note saying why")
    # A variant the guest has but could not run is a broken bench, not a
    # result: "unsupported" and "not installed" notes are the only excuses.
    bad += [f"note: {n}" for n in notes if ": failed:" in n]
    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, "results.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    if a.check:
        for b in bad:
            print(f"bench: malformed: {b}", file=sys.stderr)
        return 1 if bad else 0

    md = [f"# Benchmarks: {a.kernel} kernel", "",
          f"{result['date']}; {result['machine']}; starts in {info.get('runs', '?')} rounds, one "
          f"start of each variant a round, after {info.get('warmup', '?')} warm-up rounds; "
          "the other benchmarks' repetitions in their sections.", ""]
    md += profile_table(result["benchmarks"])
    for bench, b in result["benchmarks"].items():
        if bench.startswith("start-profile"):
            continue
        md += [f"## {b['title']} (`{bench}`)", "",
               "| variant | n | mean | σ | p50 | p99 |", "|---|---|---|---|---|---|"]
        for v, s in b["variants"].items():
            md.append(f"| {v} | {s['n']} | {fmt(s['mean'], b['unit'])} | {fmt(s['sd'], b['unit'])} | "
                      f"{fmt(s['p50'], b['unit'])} | {fmt(s['p99'], b['unit'])} |")
        if b["ratios"]:
            md += ["", "| ratio | value |", "|---|---|"]
            md += [f"| {k} | {x:.3f} |" for k, x in b["ratios"].items()]
        image = plot(a.outdir, bench, b["variants"], b["unit"])
        if image:
            md += ["", f"![{bench}]({image})"]
        md.append("")
    result["goals"] = [dict(zip(("goal", "variant", "value", "verdict"), r)) for r in goals(result)]
    if result["goals"]:
        md += ["## Goals", "", "| goal | variant | value | verdict |", "|---|---|---|---|"]
        md += [f"| {g['goal']} | {g['variant']} | {g['value']} | {g['verdict']} |" for g in result["goals"]]
        md += ["", "A loss is a `thread-events-lost` event, which the notes show as failed.", ""]
        with open(os.path.join(a.outdir, "results.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
    if result["events"]:
        md += ["## Events received", "", "| benchmark | variant | received / expected |", "|---|---|---|"]
        for bench, vs in result["events"].items():
            for v, c in vs.items():
                md.append(f"| {bench} | {v} | {c['received']} / {c['expected']} |")
        md.append("")
    if pipeline:
        md += ["## Pipeline (latest logged run of each step)", "", "| step | seconds |", "|---|---|"]
        md += [f"| {k} | {x:.0f} |" for k, x in pipeline.items()]
        md.append("")
    if notes:
        md += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    with open(os.path.join(a.outdir, "results.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
