#!/usr/bin/env python3
"""Turns run.sh's per-file timer outputs into bench/results/<stamp>.md and .json.

Reads <work>/files.tsv, <work>/json/<i>.json (hyperfine --export-json, or
timeloop.py's subset of it), <work>/json/<i>.entries, <work>/json/<i>.commands,
<work>/load_start, <work>/load_end, <work>/wall_s.
"""
import argparse
import datetime
import json
import math
import os
import pathlib
import platform
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ["clang", "occlint-no-compile", "clang-tidy", "nvcc", "occlint-cold", "occlint-warm"]
LABEL = {
    "clang": "clang -fsyntax-only",
    "occlint-no-compile": "occlint --no-compile",
    "clang-tidy": "clang-tidy --load",
    "nvcc": "nvcc --cubin -Xptxas -v",
    "occlint-cold": "occlint (cold cache)",
    "occlint-warm": "occlint (warm cache)",
}
# name, label, f(times by tool) -> ratio
RATIOS = [
    ("no-compile/clang", "occlint --no-compile / clang -fsyntax-only",
     lambda t: t["occlint-no-compile"] / t["clang"]),
    ("cold/(nvcc+clang)", "occlint cold cache / (nvcc + clang -fsyntax-only)",
     lambda t: t["occlint-cold"] / (t["nvcc"] + t["clang"])),
    ("warm/(nvcc+clang)", "occlint warm cache / (nvcc + clang -fsyntax-only)",
     lambda t: t["occlint-warm"] / (t["nvcc"] + t["clang"])),
    ("warm/no-compile", "occlint warm cache / occlint --no-compile",
     lambda t: t["occlint-warm"] / t["occlint-no-compile"]),
    ("tidy/no-compile", "clang-tidy --load / occlint --no-compile",
     lambda t: t["clang-tidy"] / t["occlint-no-compile"]),
]


def sh(*argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return (r.stdout + r.stderr).strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"({argv[0]}: {e})"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mtime(p):
    return datetime.datetime.fromtimestamp(os.path.getmtime(p), datetime.timezone.utc)


def staleness(binary):
    """Tracked or untracked sources (analyses/, tool/) newer than the binary."""
    built = os.path.getmtime(binary)
    newer = []
    for d in ("analyses", "tool"):
        for p in (ROOT / d).rglob("*"):
            if p.suffix in (".cpp", ".h", ".json", ".txt") and p.stat().st_mtime > built:
                newer.append(str(p.relative_to(ROOT)))
    return sorted(newer)


def checks(listing):
    return [w for w in listing.split() if w.startswith("cuda-")]


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1048576:.1f} GiB"
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "kernel": platform.release()}


def analyse(files, rebuilt):
    """Per-file ratios (stored into files), the summary and the anomalies."""
    for f in files:
        med = {t: f["results"][t]["median"] for t in TOOLS}
        cpu = {t: f["results"][t]["user"] + f["results"][t]["system"] for t in TOOLS}
        f["ratios_wall"] = {n: fn(med) for n, _, fn in RATIOS}
        f["ratios_cpu"] = {n: fn(cpu) for n, _, fn in RATIOS}
        # What the ptxas step adds to the run, in nvcc runs (occlint runs nvcc
        # twice on a miss: --cubin, then -M for the cache's dependency list).
        f["compile_overhead_in_nvcc_runs"] = (med["occlint-cold"] - med["occlint-no-compile"]) / med["nvcc"]

    summary = {
        "geomean_wall": {n: geomean([f["ratios_wall"][n] for f in files]) for n, _, _ in RATIOS},
        "geomean_cpu": {n: geomean([f["ratios_cpu"][n] for f in files]) for n, _, _ in RATIOS},
        # The same over the files nvcc compiles (occlint caches nothing for the others).
        "geomean_wall_compiled": {n: geomean([f["ratios_wall"][n] for f in files
                                              if f["cache_entries_after_cold"] == 1]) for n, _, _ in RATIOS},
        "files_compiled": sum(f["cache_entries_after_cold"] == 1 for f in files),
        "geomean_compile_overhead_in_nvcc_runs": geomean([f["compile_overhead_in_nvcc_runs"] for f in files]),
        "sum_of_medians_s": {t: sum(f["results"][t]["median"] for f in files) for t in TOOLS},
        # Noise: per file and tool, (max - min) / median of the timed runs.
        "spread": {t: {"median": statistics.median([(f["results"][t]["max"] - f["results"][t]["min"]) /
                                                    f["results"][t]["median"] for f in files]),
                       "max": max((f["results"][t]["max"] - f["results"][t]["min"]) / f["results"][t]["median"]
                                  for f in files)} for t in TOOLS},
    }

    # Anomalies: ratios far from their geometric mean, failures, cache misses.
    anomalies = []
    for f in files:
        for n, label, _ in RATIOS:
            r, g = f["ratios_wall"][n], summary["geomean_wall"][n]
            rc = f["ratios_cpu"][n] / summary["geomean_cpu"][n]
            if abs(math.log(r / g)) > math.log(1.25):
                anomalies.append(f"{f['name']}: {n} = {r:.2f} (geomean {g:.2f}; CPU-time ratio "
                                 f"{f['ratios_cpu'][n]:.2f}, {rc:.2f}x its geomean)")
        for t in TOOLS:
            codes = sorted(set(f["results"][t]["exit_codes"] or []))
            # occlint and clang-tidy exit 1 for findings at error level: expected on some inputs.
            ok = {0, 1} if t.startswith(("occlint", "clang-tidy")) else {0}
            if not set(codes) <= ok:
                anomalies.append(f"{f['name']}: {LABEL[t]} exited with {codes}")
        if f["cache_entries_after_cold"] != 1:
            anomalies.append(f"{f['name']}: {f['cache_entries_after_cold']} cache entries after the cold runs "
                             "(expected 1: one arch), so the warm runs compiled again"
                             + (": " + "; ".join(f["why_no_cache"]) if f["why_no_cache"] else ""))

    if rebuilt:
        anomalies.append("build/ was rebuilt during the run: the times are those of the copies taken at "
                         "the start (see the build times above), not of the current build")
    return summary, anomalies


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--rerender":
        # bench/report.py --rerender bench/results/<stamp>.json: recompute the summary
        # from the stored runs and rewrite the .json and .md (after a change to this script).
        path = pathlib.Path(sys.argv[2])
        out = json.loads(path.read_text())
        out["summary"], out["anomalies"] = analyse(out["files"], out["meta"].get("rebuilt_during_run", False))
        path.write_text(json.dumps(out, indent=1) + "\n")
        path.with_suffix(".md").write_text(markdown(out))
        return
    a = argparse.ArgumentParser()
    for opt in ("work", "out", "timer", "runs", "warmup", "occlint", "module", "clang", "tidy", "nvcc",
                "gpu", "arch", "common", "occlint_orig", "module_orig"):
        a.add_argument("--" + opt.replace("_", "-"), required=True)
    args = a.parse_args()
    work = pathlib.Path(args.work)

    files = []
    for i, line in enumerate((work / "files.tsv").read_text().splitlines(), 1):
        name, path, flags, dropped = line.split("\t")
        data = json.loads((work / "json" / f"{i}.json").read_text())
        res = {r["command"]: r for r in data["results"]}
        entries = int((work / "json" / f"{i}.entries").read_text().split()[0])
        commands = (work / "json" / f"{i}.commands").read_text().splitlines()
        why = work / "json" / f"{i}.why"
        why = [" ".join(l.replace(str(ROOT) + "/", "").split())[:300]
               for l in why.read_text().splitlines()] if why.exists() else []
        tools = {}
        for t in TOOLS:
            r = res[t]
            tools[t] = {k: r.get(k) for k in ("median", "mean", "stddev", "min", "max", "user", "system",
                                               "times", "exit_codes")}
        files.append({"name": name, "path": str(pathlib.Path(path).relative_to(ROOT)), "flags": flags,
                      "dropped_flags": dropped, "cache_entries_after_cold": entries, "why_no_cache": why,
                      "commands": dict(zip(TOOLS, commands)), "results": tools})

    rebuilt = (work / "binaries_start").read_text() != (work / "binaries_end").read_text()
    head = sh("git", "-C", str(ROOT), "rev-parse", "HEAD")
    dirty = sh("git", "-C", str(ROOT), "--no-optional-locks", "status", "--porcelain").splitlines()
    stale = staleness(args.occlint)  # the copies keep the originals' mtimes (cp -p)
    stale_module = staleness(args.module)
    meta = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "wall_s": int((work / "wall_s").read_text()),
        "timer": sh("hyperfine", "--version") if args.timer == "hyperfine" else "bench/timeloop.py",
        "runs": int(args.runs), "warmup": int(args.warmup),
        "machine": machine(),
        "load_start": (work / "load_start").read_text().strip(),
        "load_end": (work / "load_end").read_text().strip(),
        "git_head": head, "git_dirty_paths": dirty,
        "git_head_date": sh("git", "-C", str(ROOT), "log", "-1", "--format=%cI"),
        "occlint": {"path": os.path.relpath(args.occlint_orig, ROOT), "mtime_utc": str(mtime(args.occlint)),
                    "version": sh(args.occlint, "--version"), "sources_newer": stale,
                    "sha256": sh("sha256sum", args.occlint).split()[0],
                    "checks": checks(sh(args.occlint, "--list-checks"))},
        "module": {"path": os.path.relpath(args.module_orig, ROOT), "mtime_utc": str(mtime(args.module)),
                   "sources_newer": stale_module,
                   "checks": checks(sh(args.tidy, "--load=" + args.module, "--checks=-*,cuda-*", "--list-checks"))},
        "clang": sh(args.clang, "--version").splitlines()[0],
        "clang_tidy": " ".join(sh(args.tidy, "--version").split()),
        "nvcc": sh(args.nvcc, "--version").splitlines()[-2:],
        "gpu": args.gpu, "arch": args.arch, "common_flags": args.common,
        "rebuilt_during_run": rebuilt,
    }
    summary, anomalies = analyse(files, rebuilt)
    out = {"meta": meta, "summary": summary, "anomalies": anomalies, "files": files}
    pathlib.Path(args.out + ".json").write_text(json.dumps(out, indent=1) + "\n")
    pathlib.Path(args.out + ".md").write_text(markdown(out))


def markdown(d):
    m, s, files = d["meta"], d["summary"], d["files"]
    L = []
    L.append(f"# occlint benchmark, {m['date_utc']} UTC\n")
    L.append(f"{len(files)} files, {m['runs']} timed runs per file and tool "
             f"({m['warmup']} warm-up runs; one untimed pre-warm of every tool), timed with {m['timer']}; "
             f"whole run {m['wall_s'] // 60} min {m['wall_s'] % 60} s. Method: [bench/README.md](../README.md).\n")
    mc = m["machine"]
    L.append(f"- Machine: {mc['cpu']}, {mc['cores']} cores, {mc['memory']}, Linux {mc['kernel']}; "
             f"shared VM (others compile on it): load average {m['load_start']} at the start, "
             f"{m['load_end']} at the end. Absolute times are noisy; compare ratios.")
    L.append(f"- occlint: git {m['git_head'][:12]}" +
             (f" with {len(m['git_dirty_paths'])} uncommitted paths in the tree" if m["git_dirty_paths"] else "") +
             f"; binary `{m['occlint']['path']}` built {m['occlint']['mtime_utc'][:19]} "
             f"(sha256 {m['occlint']['sha256'][:16]}; copied at the start, the copy is what was timed) "
             f"(`--version`: {' '.join(m['occlint']['version'].split())}); "
             f"tidy module `{m['module']['path']}` built {m['module']['mtime_utc'][:19]}; "
             f"HEAD committed {m['git_head_date']}.")
    L.append(f"- Checks run: occlint's default set, {len(m['occlint']['checks'])} checks "
             f"({', '.join(m['occlint']['checks'])}); clang-tidy `--checks='-*,cuda-*'`, "
             f"{len(m['module']['checks'])} checks ({', '.join(m['module']['checks'])}).")
    if m["occlint"]["sources_newer"] or m["module"]["sources_newer"]:
        L.append(f"- **Stale build**: {len(m['occlint']['sources_newer'])} source files are newer than the occlint "
                 f"binary and {len(m['module']['sources_newer'])} newer than the tidy module "
                 f"(e.g. {', '.join(m['occlint']['sources_newer'][:3])}). The times are those of the binaries as "
                 "built, not of the working tree"
                 + (" nor of HEAD (both were built before HEAD was committed)"
                    if max(m["occlint"]["mtime_utc"], m["module"]["mtime_utc"])[:19].replace(" ", "T")
                    < m["git_head_date"][:19] else "") + ".")
    L.append(f"- {m['clang']}; {m['clang_tidy']}; nvcc: {' / '.join(m['nvcc'])}.")
    L.append(f"- Target: `--gpu {m['gpu']}` for occlint ({m['arch']}: one parse, one ptxas run); "
             f"flags given to Clang, clang-tidy and occlint: `{m['common_flags']}` plus each file's own "
             "(project files: `-D`/`-I`/`-O`/`-std` of compile_commands.json.in).\n")

    L.append("## Summary (geometric means over the files)\n")
    L.append(f"| ratio | wall time (medians), {len(files)} files | CPU time (user+sys), {len(files)} files "
             f"| wall time, the {s['files_compiled']} files nvcc compiles |")
    L.append("|---|---:|---:|---:|")
    for n, label, _ in RATIOS:
        L.append(f"| {label} | {s['geomean_wall'][n]:.2f} | {s['geomean_cpu'][n]:.2f} "
                 f"| {s['geomean_wall_compiled'][n]:.2f} |")
    L.append(f"| (occlint cold − occlint --no-compile) / nvcc | "
             f"{s['geomean_compile_overhead_in_nvcc_runs']:.2f} | | |")
    L.append("")
    L.append("Sum of the per-file medians: " + ", ".join(
        f"{LABEL[t]} {s['sum_of_medians_s'][t]:.1f} s" for t in TOOLS) + ".\n")

    L.append("## Per file: median wall time (s) and ratios\n")
    L.append("| file | clang | occlint --no-compile | clang-tidy --load | nvcc | occlint cold | occlint warm "
             "| no-compile / clang | cold / (nvcc+clang) | warm / (nvcc+clang) | tidy / no-compile |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in files:
        r = f["results"]
        L.append(f"| {f['name']} | " + " | ".join(f"{r[t]['median']:.2f}" for t in TOOLS) + " | " +
                 " | ".join(f"{f['ratios_wall'][n]:.2f}" for n in
                            ("no-compile/clang", "cold/(nvcc+clang)", "warm/(nvcc+clang)", "tidy/no-compile")) + " |")
    g = s["geomean_wall"]
    L.append("| **geomean** | | | | | | | " + " | ".join(f"**{g[n]:.2f}**" for n in
             ("no-compile/clang", "cold/(nvcc+clang)", "warm/(nvcc+clang)", "tidy/no-compile")) + " |")
    L.append("")

    L.append("## Noise\n")
    L.append("Per file and tool, the spread of the timed runs, (max − min) / median; the min–max of every cell "
             "is in the JSON next to this file.\n")
    L.append("| tool | median spread over files | worst file |")
    L.append("|---|---:|---:|")
    for t in TOOLS:
        L.append(f"| {LABEL[t]} | {100 * s['spread'][t]['median']:.1f}% | {100 * s['spread'][t]['max']:.1f}% |")
    L.append("")
    L.append("## Per file: min–max of the timed runs (s)\n")
    L.append("| file | " + " | ".join(LABEL[t] for t in TOOLS) + " |")
    L.append("|---|" + "---:|" * len(TOOLS))
    for f in files:
        r = f["results"]
        L.append(f"| {f['name']} | " + " | ".join(f"{r[t]['min']:.2f}–{r[t]['max']:.2f}" for t in TOOLS) + " |")
    L.append("")
    L.append("## Exit codes other than 0\n")
    L.append("occlint and clang-tidy exit 1 when a finding is at error level (expected on the inputs that test "
             "error-level checks).\n")
    ex = [f"- {f['name']}: " + ", ".join(f"{LABEL[t]} {sorted(set(f['results'][t]['exit_codes']))}" for t in TOOLS
                                         if set(f["results"][t]["exit_codes"]) != {0})
          for f in files if any(set(f["results"][t]["exit_codes"]) != {0} for t in TOOLS)]
    L.extend(ex or ["- none"])
    L.append("")
    L.append("## Anomalies (found by report.py)\n")
    L.append("Ratios more than 25% off their geometric mean, failed runs (clang or nvcc not 0, occlint or clang-tidy "
             "above 1), cache entries other than 1.\n")
    L.extend(f"- {x}" for x in d["anomalies"]) if d["anomalies"] else L.append("- none")
    L.append("")
    return "\n".join(L)


if __name__ == "__main__":
    main()
