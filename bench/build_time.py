#!/usr/bin/env python3
"""Build time from scratch: configurations one after another in one run.

Issue 44 item 8 (CI under 45 minutes on 2 cores): CI builds the tree twice,
scripts/setup.sh's build and scripts/test-sanitizers.sh's, so their time from
an empty build directory is most of a CI run.

Method: for each configuration, an empty build directory under WORK, then
`cmake -S . -B DIR -G Ninja FLAGS` and `cmake --build DIR -j JOBS` (every
target, the tests included), timed with a monotonic clock. Reported per
configuration: the wall time (configure + build), the CPU seconds of the build
steps (the sum of ninja's per-step times from .ninja_log: what more cores
would share), the number of steps and the size of bin/occlint. Nothing else
should run on the machine meanwhile; one repetition per configuration (a full
build takes 10-25 minutes on 2 cores), so differences under about 5 % are
noise. The per-file effect of each flag was measured by compiling single
files alternately (the numbers are in the result's notes, not this script).

  bench/build_time.py [CONFIG...]       # default: before now
  WORK=/tmp/bt JOBS=2 bench/build_time.py before now asan

Writes bench/results/build-time-<date>.md and .json.
"""
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("WORK", "/tmp/occlint-build-time")
JOBS = os.environ.get("JOBS", "2")

ASAN = ["-DCMAKE_CXX_COMPILER=clang++-22", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG",
        "-DOCCLINT_SANITIZE=ON", "-DOCCLINT_FUZZERS=ON", "-DOCCLINT_FUZZER_COVERAGE=OFF"]
ASAN_BEFORE = ["-DCMAKE_CXX_COMPILER=clang++-22", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
               "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG",
               "-DOCCLINT_SANITIZE=ON", "-DOCCLINT_FUZZERS=ON", "-DOCCLINT_PRECOMPILED_HEADERS=OFF"]
CONFIGS = {
    "before": ("g++, RelWithDebInfo (-O2 -g), no precompiled headers: scripts/setup.sh before issue 44 item 8",
               ["-DCMAKE_CXX_COMPILER=g++", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                "-DOCCLINT_PRECOMPILED_HEADERS=OFF"]),
    "now": ("clang++-22, Release (-O2), precompiled headers: scripts/setup.sh",
            ["-DCMAKE_CXX_COMPILER=clang++-22", "-DCMAKE_BUILD_TYPE=Release",
             "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"]),
    "asan": ("clang++-22, ASan + UBSan, fuzz targets for replay (-O1 -gline-tables-only), precompiled "
             "headers: scripts/test-sanitizers.sh", ASAN),
    "asan-before": ("clang++-22, ASan + UBSan + fuzzers with coverage (-O1 -gline-tables-only), no "
                    "precompiled headers: scripts/test-sanitizers.sh before issue 44 item 8", ASAN_BEFORE),
}


def ninja_cpu_seconds(build):
    last = {}
    with open(os.path.join(build, ".ninja_log")) as log:
        for line in log:
            if line.startswith("#"):
                continue
            start, end, _, output, _ = line.rstrip("\n").split("\t")
            last[output] = int(end) - int(start)
    return sum(last.values()) / 1000.0, len(last)


def run(name):
    description, flags = CONFIGS[name]
    build = os.path.join(WORK, name)
    shutil.rmtree(build, ignore_errors=True)
    start = time.monotonic()
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja"] + flags, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "-j", JOBS], check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    cpu, steps = ninja_cpu_seconds(build)
    binary = os.path.join(build, "bin", "occlint")
    size = os.path.getsize(binary) if os.path.exists(binary) else None
    result = {"config": name, "description": description, "flags": flags, "wall_s": round(wall, 1),
              "cpu_s": round(cpu, 1), "steps": steps, "occlint_bytes": size}
    print(json.dumps(result), flush=True)
    shutil.rmtree(build, ignore_errors=True)
    return result


def main():
    names = sys.argv[1:] or ["before", "now"]
    for name in names:
        if name not in CONFIGS:
            sys.exit(f"build_time.py: unknown configuration '{name}' (known: {', '.join(CONFIGS)})")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    results = [run(name) for name in names]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d_%H%M")
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, jobs {JOBS}"
    out = os.path.join(ROOT, "bench", "results", f"build-time-{stamp}")
    with open(out + ".json", "w") as f:
        json.dump({"commit": commit, "machine": machine, "results": results}, f, indent=2)
    with open(out + ".md", "w") as f:
        f.write(f"# Build time from scratch ({stamp}, commit {commit})\n\n")
        f.write(f"`bench/build_time.py {' '.join(names)}` on {machine}; method in the script.\n\n")
        f.write("| configuration | wall (configure + build) | CPU of the steps | steps | bin/occlint |\n")
        f.write("|---|---|---|---|---|\n")
        for r in results:
            size = f"{r['occlint_bytes'] / 1e6:.0f} MB" if r["occlint_bytes"] else "-"
            f.write(f"| {r['config']}: {r['description']} | {r['wall_s'] / 60:.1f} min | "
                    f"{r['cpu_s'] / 60:.1f} min | {r['steps']} | {size} |\n")
    print(out + ".md")


if __name__ == "__main__":
    main()
