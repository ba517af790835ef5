#!/usr/bin/env python3
"""What `occlint report --html` costs over the same lint run (issue 18).

Method: for each input, the two commands run alternately, REPS times each
(after one warm-up of each that is not counted), with the same files, flags
and GPU, `--no-compile` (no compiler: the analysis alone is timed, the same
for both) and `--jobs 1`:

  lint:   occlint --quiet --format=json --output /dev/null ... FILES --
  report: occlint report --quiet --html PAGE ... FILES --

The ratio is median(report) / median(lint); the target is <= 1.1. Also
written: the page's size and its size per 200 launches (target <= 1 MB).

Inputs: the bundled project's translation units (test-inputs/project), and
a generated project of 10 files x 22 launches with long names, paths and
expressions (as tests/tool/report/ReportTest.cpp's), half of them with a
finding.

Usage: bench/report_page.py [--occlint build/bin/occlint] [--reps 5] [--results]
"""
import argparse
import datetime
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def generated_project(directory):
    files = []
    for f in range(10):
        code = ["#include <cuda_runtime.h>"]
        for k in range(22):
            code.append(f"__global__ void kernel_number_{k}_of_file_{f}_with_a_long_descriptive_name(float *p, int n) "
                        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 2.0f * p[i]; }")
        code.append("void launchEverything(float *p, int numberOfElementsInTheVeryLongNamedBuffer) {")
        code.append("  const int threadsPerBlockForThisKernelLaunch = 96;")
        for k in range(22):
            grid = ("(numberOfElementsInTheVeryLongNamedBuffer + threadsPerBlockForThisKernelLaunch - 1)"
                    " / threadsPerBlockForThisKernelLaunch") if k % 2 else str(40 + k)
            code.append(f"  kernel_number_{k}_of_file_{f}_with_a_long_descriptive_name<<<{grid}, "
                        "threadsPerBlockForThisKernelLaunch>>>(p, numberOfElementsInTheVeryLongNamedBuffer);")
        code.append("}")
        path = directory / "a_rather_deep" / f"directory_structure_{f}" / f"file_{f}.cu"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(code) + "\n")
        files.append(str(path))
    return files


def timed(argv, env):
    start = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if r.returncode not in (0, 1):
        sys.exit(f"failed ({r.returncode}): {' '.join(argv)}\n{r.stderr[-2000:]}")
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--occlint", default=str(ROOT / "build" / "bin" / "occlint"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="occlint-report-bench-"))
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"))
    project = ROOT / "test-inputs" / "project"
    inputs = {
        "bundled project (4 TUs, 16 launches)":
            ([str(p) for p in sorted((project / "src").glob("*.cu"))] + [str(project / "main.cu")],
             ["-I", str(project / "include"), "-DSTENCIL_RADIUS=4"]),
        "generated (10 TUs, 220 launches)": (generated_project(work / "generated"), []),
    }
    common = ["--quiet", "--no-compile", "--gpu=H100", "--jobs=1"]
    rows = []
    for name, (files, flags) in inputs.items():
        page = work / "page.html"
        lint = [args.occlint] + common + ["--format=json", "--output", "/dev/null"] + files + ["--"] + flags
        report = [args.occlint, "report"] + common + ["--html", str(page)] + files + ["--"] + flags
        timed(lint, env)
        timed(report, env)
        t_lint, t_report = [], []
        for _ in range(args.reps):
            t_lint.append(timed(lint, env))
            t_report.append(timed(report, env))
        launches = 0
        j = subprocess.run([args.occlint] + common + ["--format=json"] + files + ["--"] + flags,
                           capture_output=True, text=True, env=env)
        launches = len(json.loads(j.stdout)["launches"]) if j.stdout.strip() else 0
        size = page.stat().st_size
        row = {"input": name, "reps": args.reps, "lint_s": t_lint, "report_s": t_report,
               "lint_median_s": statistics.median(t_lint), "report_median_s": statistics.median(t_report),
               "ratio": statistics.median(t_report) / statistics.median(t_lint),
               "page_bytes": size, "launches": launches,
               "bytes_per_200_launches": size * 200 / launches if launches else None}
        rows.append(row)
        print(f"{name}: lint {row['lint_median_s']:.2f} s, report {row['report_median_s']:.2f} s "
              f"(medians of {args.reps}), ratio {row['ratio']:.3f}; page {size / 1e6:.2f} MB for {launches} "
              f"launches ({(row['bytes_per_200_launches'] or 0) / 1e6:.2f} MB per 200)")
    if args.results:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d_%H%M")
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        load = os.getloadavg()
        base = ROOT / "bench" / "results" / f"report-page-{stamp}"
        base.with_suffix(".json").write_text(json.dumps({"commit": commit, "load": load, "rows": rows}, indent=1))
        with open(base.with_suffix(".md"), "w") as f:
            f.write(f"# occlint report page cost, {stamp} (occlint {commit})\n\n"
                    f"`bench/report_page.py --reps {args.reps} --results` (method in its docstring); "
                    f"{os.cpu_count()} cores, load average at the end {load[0]:.2f}.\n\n"
                    "| input | lint median (s) | report median (s) | report / lint | page (MB) | launches | MB per 200 launches |\n"
                    "|---|---:|---:|---:|---:|---:|---:|\n")
            for r in rows:
                f.write(f"| {r['input']} | {r['lint_median_s']:.2f} | {r['report_median_s']:.2f} | {r['ratio']:.3f} | "
                        f"{r['page_bytes'] / 1e6:.2f} | {r['launches']} | {(r['bytes_per_200_launches'] or 0) / 1e6:.2f} |\n")
            f.write("\nTargets (issue 18): report / lint <= 1.1; <= 1 MB per 200 launches.\n")
        print(f"written: {base}.md, {base}.json")


if __name__ == "__main__":
    main()
