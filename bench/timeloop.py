#!/usr/bin/env python3
"""Fallback for machines without hyperfine: times shell commands the way run.sh
asks hyperfine to, and writes the subset of hyperfine's JSON that report.py reads.

    timeloop.py --runs N --warmup W --export-json OUT \
        --name NAME --prepare CMD --command CMD [--name ... --prepare ... --command ...]

Each command: W untimed runs, then N timed runs, its prepare command before
every run (untimed). Wall time with time.perf_counter; user/system CPU from
the children's rusage (descendants that were waited for, as hyperfine). No
shell start-up correction (hyperfine subtracts it: a few ms).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import time


def run_once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rc = subprocess.call(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, rc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--warmup", type=int, default=0)
    p.add_argument("--export-json", required=True)
    p.add_argument("--name", action="append", required=True)
    p.add_argument("--prepare", action="append", required=True)
    p.add_argument("--command", action="append", required=True)
    a = p.parse_args()
    if not (len(a.name) == len(a.prepare) == len(a.command)):
        p.error("one --name and --prepare per --command")
    results = []
    for name, prep, cmd in zip(a.name, a.prepare, a.command):
        for _ in range(a.warmup):
            subprocess.call(prep, shell=True)
            run_once(cmd)
        times, users, systems, codes = [], [], [], []
        for _ in range(a.runs):
            subprocess.call(prep, shell=True)
            w, u, s, rc = run_once(cmd)
            times.append(w); users.append(u); systems.append(s); codes.append(rc)
        results.append({
            "command": name, "mean": statistics.mean(times),
            "stddev": statistics.stdev(times) if len(times) > 1 else None,
            "median": statistics.median(times), "min": min(times), "max": max(times),
            "user": statistics.mean(users), "system": statistics.mean(systems),
            "times": times, "exit_codes": codes,
        })
        print(f"  {name}: median {results[-1]['median']:.3f} s "
              f"(min {results[-1]['min']:.3f}, max {results[-1]['max']:.3f})", flush=True)
    with open(a.export_json, "w") as f:
        json.dump({"results": results}, f, indent=1)


if __name__ == "__main__":
    main()
