#!/usr/bin/env python3
"""How occlint's cost grows with the code: one generated file per dimension and
size (test-inputs/stress/generate.py), timed side by side with Clang's own
parse of the same file for the same single arch.

    bench/scaling.py                      # 1..10,000 for every dimension, 3 runs
    RUNS=5 SIZES=1,10,100 bench/scaling.py
    DIMS="one-stage ring reads" STRESS=0 bench/scaling.py   # one dimension, no stress set

For each file, in one run, alternating run by run: `clang++-22 -fsyntax-only` with the
command occlint itself builds (occlint --verbose prints it: --cuda-path,
-isystem .../cccl, --cuda-gpu-arch=sm_90 --cuda-device-only), and
`occlint --no-compile --no-result-cache --gpu H100` (sm_90: one parse, every default check,
resources estimated). Wall time and peak resident memory (the larger of the
process and its children: occlint analyses the file in a child process) from
wait4's rusage; the median of RUNS runs. Writes
bench/results/scaling-<UTC stamp>.md and .json.
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OCCLINT = os.environ.get("OCCLINT", os.path.join(ROOT, "build/bin/occlint"))
CLANG = os.environ.get("CLANG", "clang++-22")
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
RUNS = int(os.environ.get("RUNS", "3"))
SIZES = [int(s) for s in os.environ.get("SIZES", "1,10,100,1000,10000").split(",")]
# dimension -> generator case
DIMENSIONS = {
    "statements": "statements",
    "loops": "sequential-loops",
    "terms": "deep-expression",
    "&& terms": "deep-condition",
    "kernels + launches": "many-kernels",
    "one-stage ring reads": "one-stage-span",
}
# DIMS=name,name: only those dimensions (their names above).
if os.environ.get("DIMS"):
    DIMENSIONS = {d: c for d, c in DIMENSIONS.items() if d in os.environ["DIMS"].split(",")}


def timed(argv):
    """(seconds, peak RSS in MiB, exit code) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    # Linux: wait4's ru_maxrss is the larger of the process's and its
    # reaped children's (occlint's analysing child, Clang's cc1 if any).
    code = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024.0, code


def measure_pair(first, second):
    """Both commands RUNS times, alternating (so that a change in the machine's
    speed reaches both): for each, (median seconds, peak MiB, exit codes)."""
    runs = {0: ([], [], set()), 1: ([], [], set())}
    for _ in range(RUNS):
        for key, argv in ((0, first), (1, second)):
            t, m, c = timed(argv)
            runs[key][0].append(t)
            runs[key][1].append(m)
            runs[key][2].add(c)
    return [(statistics.median(ts), max(ms), sorted(cs)) for ts, ms, cs in (runs[0], runs[1])]


def main():
    out_dir = tempfile.mkdtemp(prefix="occlint-scaling-")
    cache = os.path.join(out_dir, "cache")
    os.environ["OCCLINT_CACHE_DIR"] = cache
    rows = []
    for dim, case in DIMENSIONS.items():
        for n in SIZES:
            path = subprocess.check_output(
                [sys.executable, os.path.join(ROOT, "test-inputs/stress/generate.py"), out_dir, "--scale", str(n), case],
                text=True).strip()
            clang = [CLANG, "-fsyntax-only", f"--cuda-path={CUDA}", f"-isystem{CUDA}/include/cccl",
                     "-Wno-unknown-cuda-version", "--cuda-gpu-arch=sm_90", "--cuda-device-only", path]
            occlint = [OCCLINT, "--no-compile", "--no-result-cache", "--gpu", "H100", "--quiet", path, "--"]
            (ct, cm, cc), (ot, om, oc) = measure_pair(clang, occlint)
            row = {"dimension": dim, "size": n, "bytes": os.path.getsize(path),
                   "clang_s": round(ct, 3), "clang_mib": round(cm, 1), "clang_exit": cc,
                   "occlint_s": round(ot, 3), "occlint_mib": round(om, 1), "occlint_exit": oc,
                   "ratio": round(ot / ct, 2) if ct > 0 else None}
            rows.append(row)
            print(f"{dim:>20} {n:>6}: clang {ct:7.2f}s {cm:7.1f}MiB  occlint {ot:7.2f}s {om:7.1f}MiB  "
                  f"x{row['ratio']} exit {oc}", flush=True)
    # The stress set at its own sizes: every case must end within 3x Clang's
    # parse of the same file (issue 44; issue 13 had allowed 2 s more), with
    # exit 0, 1 or 2.
    stress = []
    if os.environ.get("STRESS", "1") == "1":
        names = subprocess.check_output([sys.executable, os.path.join(ROOT, "test-inputs/stress/generate.py"), "--list"],
                                        text=True).split()
        for case in names:
            path = subprocess.check_output(
                [sys.executable, os.path.join(ROOT, "test-inputs/stress/generate.py"), out_dir, case], text=True).strip()
            clang = [CLANG, "-fsyntax-only", f"--cuda-path={CUDA}", f"-isystem{CUDA}/include/cccl",
                     "-Wno-unknown-cuda-version", "--cuda-gpu-arch=sm_90", "--cuda-device-only", path]
            occlint = [OCCLINT, "--no-compile", "--no-result-cache", "--gpu", "H100", "--quiet", path, "--"]
            (ct, cm, cc), (ot, om, oc) = measure_pair(clang, occlint)
            bound = 3 * ct
            row = {"case": case, "bytes": os.path.getsize(path), "clang_s": round(ct, 3), "clang_exit": cc,
                   "occlint_s": round(ot, 3), "occlint_mib": round(om, 1), "occlint_exit": oc,
                   "bound_s": round(bound, 2), "within": ot <= bound and all(c in (0, 1, 2) for c in oc)}
            stress.append(row)
            print(f"{case:>20}: clang {ct:6.2f}s  occlint {ot:6.2f}s (bound {bound:5.2f}s) exit {oc} "
                  f"{'ok' if row['within'] else 'OVER'}", flush=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d_%H%M")
    base = os.path.join(ROOT, "bench/results", f"scaling-{stamp}")
    versions = {"clang": subprocess.check_output([CLANG, "--version"], text=True).splitlines()[0],
                "occlint": subprocess.check_output([OCCLINT, "--version"], text=True).strip().splitlines()[-1],
                "cpus": os.cpu_count(), "runs": RUNS}
    with open(base + ".json", "w") as f:
        json.dump({"versions": versions, "rows": rows, "stress": stress}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(f"# Scaling: occlint --no-compile against Clang's parse ({stamp} UTC)\n\n")
        f.write("Method: bench/scaling.py (median of %d runs; peak RSS: occlint's analysing child included). "
                "%s; %s; %d CPUs.\n\n" % (RUNS, versions["clang"], versions["occlint"], versions["cpus"]))
        f.write("| dimension | size | file KiB | clang s | clang MiB | occlint s | occlint MiB | occlint / clang | exit (clang, occlint) |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
        for r in rows:
            f.write(f"| {r['dimension']} | {r['size']} | {r['bytes'] // 1024} | {r['clang_s']} | {r['clang_mib']} | "
                    f"{r['occlint_s']} | {r['occlint_mib']} | {r['ratio']} | {r['clang_exit']}, {r['occlint_exit']} |\n")
        if stress:
            f.write("\n## The stress set (test-inputs/stress/generate.py, each case at its own size)\n\n")
            f.write("Bound: 3 x Clang's parse of the same file, and exit 0, 1 or 2.\n\n")
            f.write("| case | file KiB | clang s (exit) | occlint s | occlint MiB | exit | bound s | within |\n")
            f.write("|---|---:|---:|---:|---:|---|---:|---|\n")
            for r in stress:
                f.write(f"| {r['case']} | {r['bytes'] // 1024} | {r['clang_s']} ({r['clang_exit']}) | {r['occlint_s']} | "
                        f"{r['occlint_mib']} | {r['occlint_exit']} | {r['bound_s']} | {'yes' if r['within'] else 'NO'} |\n")
    print(base + ".md")


if __name__ == "__main__":
    main()
