#!/usr/bin/env python3
"""How occlint scales with a build (issue 17, item 5): a generated CMake
project of --units translation units (bench/generate_cmake_project.py:
reductions, stencils, GEMM tiles, templates), and the ways to lint it, timed
side by side in one run at each --jobs level.

Rows, per jobs level J (in this order, every build in a fresh build
directory configured beforehand, untimed):
- `nvcc build`: `cmake --build B -j J`, the plain build (the reference);
- `occlint-wrap build`: the same with CMAKE_CUDA_COMPILER_LAUNCHER=occlint-wrap
  (sidecars and an empty occlint cache);
- `wrap --lint build`: the same with "occlint;wrap;--lint;--gpu;GPU";
- `occlint -p, captured`: `occlint -p` on the occlint-wrap build (its
  sidecars and cache: no compiler may start), --jobs J;
- `occlint -p, cold`: `occlint -p` on the plain build with an empty cache
  (every unit compiled once for its ptxas report), --jobs J;
- `run-clang-tidy`: `run-clang-tidy-22 -load <plugin> -checks=-*,cuda-* -j J`
  on the database `occlint compdb` writes (source-only: the plugin starts no
  compiler);
- `clang -fsyntax-only`: every entry of that database with -fsyntax-only,
  J at a time (xargs -P J).
Measured per row: wall time (time.monotonic around the command), the
largest single process's peak RSS (wait4's ru_maxrss over the command and
its descendants), and the peak of the summed RSS of the whole process tree
(/proc sampled every 0.2 s: what J parallel processes hold at once).

Then the launcher's own cost, away from the build's noise: one unit's
compile command (from the database), --micro-reps times each, alternated:
plain, through occlint-wrap (sidecar written), through `occlint wrap --lint`,
and Clang's -fsyntax-only of that unit; medians, and the differences.

The targets of issue 17 are computed from the rows: occlint-wrap ≤ 30 ms
per compile (micro), wrap --lint ≤ one -fsyntax-only of the unit (micro),
`-p` captured ≤ 1.1× `clang -fsyntax-only`, cold `-p` ≤ (`-fsyntax-only` +
nvcc build), `--jobs 2` ≥ 1.8× faster than `--jobs 1`, and occlint's summed
peak ≤ 1.5× J × the largest clang -fsyntax-only process.

The machine is a shared 2-core VM: nothing else should run meanwhile (the
script says the load average before and after).

Writes bench/results/build-scale-<UTC stamp>.md and .json.

  bench/build_scale.py [--units 200] [--jobs 1,2] [--gpu H100] [--micro-reps 20]
                       [--occlint BIN] [--work DIR] [--keep] [--micro-only]

--micro-only times the one-unit micro benchmark alone (a few minutes): the
project's plain build is configured for its compile database, nothing is
built, and only the two per-compile targets are computed.
"""
import argparse
import datetime
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def tree_rss_bytes(root_pid):
    """Summed RSS of root_pid and all its descendants, from /proc."""
    parents, rss = {}, {}
    page = os.sysconf("SC_PAGE_SIZE")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            fields = stat[stat.rfind(")") + 2:].split()
            parents[int(name)] = int(fields[1])
            with open(f"/proc/{name}/statm") as f:
                rss[int(name)] = int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root_pid]
    children = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure(command, env=None, cwd=None):
    """(seconds, exit code, largest process MB, summed tree peak MB)."""
    start = time.monotonic()
    proc = subprocess.Popen(command, shell=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_bytes(proc.pid))
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, proc.returncode, usage.ru_maxrss / 1024, peak[0] / 2**20


def without_output(words):
    """A compile command's words without its `-o FILE`."""
    return [w for i, w in enumerate(words) if w != "-o" and (i == 0 or words[i - 1] != "-o")]


def each_line(jobs, script):
    """One shell command per line of script, jobs at a time."""
    return f"xargs -d '\\n' -P {jobs} -n 1 sh -c < {shlex.quote(script)}"


def run_quiet(command, **kw):
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)


def configure(source, build, nvcc, launcher=None):
    extra = f" -DCMAKE_CUDA_COMPILER_LAUNCHER={shlex.quote(launcher)}" if launcher else ""
    run_quiet(f"cmake -S {shlex.quote(source)} -B {shlex.quote(build)} -G Ninja -DCMAKE_BUILD_TYPE=Release "
              f"-DCMAKE_CUDA_COMPILER={shlex.quote(nvcc)}{extra}")


def median(values):
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--gpu", default="H100")
    parser.add_argument("--micro-reps", type=int, default=20)
    parser.add_argument("--occlint", default=os.path.join(ROOT, "build", "bin", "occlint"))
    parser.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    parser.add_argument("--work", help="where the project and builds go (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--recheck", type=int, metavar="REPS",
                        help="with --work (an earlier --keep run's; what is missing there is prepared): time only "
                             "`occlint -p, captured` and `clang -fsyntax-only` again, alternated, REPS times per "
                             "jobs level")
    parser.add_argument("--recheck-cold", type=int, metavar="REPS",
                        help="with --work: time only `occlint -p, cold` (an empty cache each run) and `clang "
                             "-fsyntax-only` at every jobs level, REPS times, the levels alternated within a "
                             "repetition (the --jobs 2 / --jobs 1 target of the cold path)")
    parser.add_argument("--parts", action="store_true",
                        help="with --recheck-cold: also time the cold path's two parts alone at each jobs level, "
                             "`occlint -p --no-compile` (the parse and the checks) and the device compile it "
                             "starts per unit (`nvcc --cubin -Xptxas -v`), to tell the scaling the parts allow "
                             "from what the cold path loses putting them together")
    parser.add_argument("--micro-only", action="store_true",
                        help="only the one-unit micro benchmark (configures a build, builds nothing)")
    args = parser.parse_args()
    if args.recheck:
        return recheck(args)
    if args.recheck_cold:
        return recheck_cold(args)

    occlint = os.path.abspath(args.occlint)
    wrap = os.path.join(os.path.dirname(occlint), "occlint-wrap")
    plugin = os.path.join(os.path.dirname(os.path.dirname(occlint)), "lib", "libOcclintTidyModule.so")
    nvcc = os.path.join(args.cuda_path, "bin", "nvcc")
    for path in (occlint, wrap, plugin, nvcc):
        if not os.path.exists(path):
            sys.exit(f"build_scale.py: missing {path}")
    jobs_levels = [int(j) for j in args.jobs.split(",")]
    work = args.work or tempfile.mkdtemp(prefix="occlint-build-scale-")
    os.makedirs(work, exist_ok=True)
    project = os.path.join(work, "project")
    shutil.rmtree(project, ignore_errors=True)
    run_quiet(f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'generate_cmake_project.py'))} "
              f"{shlex.quote(project)} --units {args.units}")
    load_before = os.getloadavg()[0]
    rows = []

    def env_with_cache(cache):
        env = dict(os.environ)
        env["OCCLINT_CACHE_DIR"] = cache
        return env

    if args.micro_only:
        plain = os.path.join(work, f"plain-j{jobs_levels[0]}")
        compdb = os.path.join(work, f"compdb-j{jobs_levels[0]}")
        shutil.rmtree(plain, ignore_errors=True)
        configure(project, plain, nvcc)
        run_quiet(f"{shlex.quote(occlint)} compdb -p {shlex.quote(plain)} -o {shlex.quote(compdb)} "
                  f"--gpu {args.gpu} --quiet")
        entries = json.load(open(os.path.join(compdb, "compile_commands.json")))
    for jobs in ([] if args.micro_only else jobs_levels):
        tag = f"j{jobs}"
        builds = {name: os.path.join(work, f"{name}-{tag}") for name in ("plain", "wrap", "lint")}
        caches = {name: os.path.join(work, f"cache-{name}-{tag}") for name in ("wrap", "lint", "cold")}
        for path in list(builds.values()) + list(caches.values()):
            shutil.rmtree(path, ignore_errors=True)
        configure(project, builds["plain"], nvcc)
        configure(project, builds["wrap"], nvcc, wrap)
        configure(project, builds["lint"], nvcc, f"{occlint};wrap;--lint;--gpu;{args.gpu}")

        def row(name, command, env=None, note=""):
            seconds, code, largest, tree = measure(command, env=env)
            rows.append({"jobs": jobs, "row": name, "seconds": round(seconds, 2), "exit": code,
                         "largestProcessMB": round(largest, 1), "treePeakMB": round(tree, 1), "note": note})
            print(f"  j{jobs} {name}: {seconds:.1f} s, exit {code}, largest {largest:.0f} MB, tree {tree:.0f} MB",
                  flush=True)

        row("nvcc build", f"cmake --build {shlex.quote(builds['plain'])} -j {jobs}")
        row("occlint-wrap build", f"cmake --build {shlex.quote(builds['wrap'])} -j {jobs}",
            env_with_cache(caches["wrap"]))
        row("wrap --lint build", f"cmake --build {shlex.quote(builds['lint'])} -j {jobs}",
            env_with_cache(caches["lint"]))
        # occlint -p after the captured build: check every kernel's registers came from it.
        captured_json = os.path.join(work, f"captured-{tag}.json")
        lint = f"{shlex.quote(occlint)} --gpu {args.gpu} --jobs {jobs} --format json --quiet -p "
        row("occlint -p, captured", f"{lint}{shlex.quote(builds['wrap'])} > {shlex.quote(captured_json)}",
            env_with_cache(caches["wrap"]))
        kernels = json.load(open(captured_json)).get("kernels", [])
        from_build = sum(1 for k in kernels if "from the build" in k.get("resourceSource", ""))
        known = sum(1 for k in kernels if k.get("registersKnown"))
        rows[-1]["note"] = f"{len(kernels)} kernels, {known} with registers, {from_build} from the build"
        row("occlint -p, cold", f"{lint}{shlex.quote(builds['plain'])} > /dev/null", env_with_cache(caches["cold"]))
        compdb = os.path.join(work, f"compdb-{tag}")
        run_quiet(f"{shlex.quote(occlint)} compdb -p {shlex.quote(builds['plain'])} -o {shlex.quote(compdb)} "
                  f"--gpu {args.gpu} --quiet")
        row("run-clang-tidy", f"run-clang-tidy-22 -p {shlex.quote(compdb)} -load {shlex.quote(plugin)} "
            f"-checks='-*,cuda-*' -j {jobs} -quiet")
        entries = json.load(open(os.path.join(compdb, "compile_commands.json")))
        script = os.path.join(work, f"syntax-{tag}.txt")
        with open(script, "w") as f:
            for e in entries:
                words = without_output(e.get("arguments") or shlex.split(e["command"]))
                f.write(f"cd {shlex.quote(e['directory'])} && {shlex.join(words)} -fsyntax-only\n")
        row("clang -fsyntax-only", each_line(jobs, script),
            note=f"{len(entries)} database entries")

    # The launcher's own cost on one unit.
    plain_db = json.load(open(os.path.join(work, f"plain-j{jobs_levels[0]}", "compile_commands.json")))
    unit = next(e for e in plain_db if e["file"].endswith(".cu"))
    words = shlex.split(unit["command"]) if "command" in unit else unit["arguments"]
    out_dir = os.path.join(work, "micro")
    os.makedirs(out_dir, exist_ok=True)
    words = without_output(words)
    compile_cmd = shlex.join(words + ["-o", os.path.join(out_dir, "unit.o")])
    syntax_entry = next(e for e in entries if e["file"] == unit["file"])
    syntax_words = syntax_entry.get("arguments") or shlex.split(syntax_entry["command"])
    syntax_words = without_output(syntax_words)
    micro = {
        "plain compile": f"cd {shlex.quote(unit['directory'])} && {compile_cmd}",
        "occlint-wrap compile": f"cd {shlex.quote(unit['directory'])} && {shlex.quote(wrap)} {compile_cmd}",
        "wrap --lint compile": f"cd {shlex.quote(unit['directory'])} && {shlex.quote(occlint)} wrap --lint "
                               f"--gpu {args.gpu} {compile_cmd}",
        "clang -fsyntax-only": f"cd {shlex.quote(syntax_entry['directory'])} && {shlex.join(syntax_words)} "
                               f"-fsyntax-only",
    }
    micro_times = {name: [] for name in micro}
    micro_env = env_with_cache(os.path.join(work, "cache-micro"))
    names = list(micro)
    for rep in range(args.micro_reps):
        for name in (names if rep % 2 == 0 else names[::-1]):
            seconds, code, _, _ = measure(micro[name], env=micro_env)
            if code != 0:
                sys.exit(f"build_scale.py: {name} failed (exit {code}): {micro[name]}")
            micro_times[name].append(seconds)
    load_after = os.getloadavg()[0]

    def get(jobs, name):
        return next((r for r in rows if r["jobs"] == jobs and r["row"] == name), None)

    med = {name: median(v) for name, v in micro_times.items()}
    targets = []
    wrap_ms = (med["occlint-wrap compile"] - med["plain compile"]) * 1000
    targets.append(("occlint-wrap adds ≤ 30 ms per compile (micro, median)", f"{wrap_ms:+.0f} ms", wrap_ms <= 30))
    lint_extra = med["wrap --lint compile"] - med["plain compile"]
    targets.append(("wrap --lint adds ≤ one -fsyntax-only of the unit (micro)",
                    f"{lint_extra:.2f} s vs {med['clang -fsyntax-only']:.2f} s",
                    lint_extra <= med["clang -fsyntax-only"]))
    for jobs in ([] if args.micro_only else jobs_levels):
        captured, cold = get(jobs, "occlint -p, captured"), get(jobs, "occlint -p, cold")
        syntax, build = get(jobs, "clang -fsyntax-only"), get(jobs, "nvcc build")
        ratio = captured["seconds"] / syntax["seconds"]
        targets.append((f"j{jobs}: -p captured ≤ 1.1× clang -fsyntax-only", f"{ratio:.2f}×", ratio <= 1.1))
        bound = syntax["seconds"] + build["seconds"]
        targets.append((f"j{jobs}: -p cold ≤ -fsyntax-only + nvcc build", f"{cold['seconds']:.1f} s vs {bound:.1f} s",
                        cold["seconds"] <= bound))
        # occlint's own memory: the captured run (the cold one adds the
        # compiler's processes, reported in its row).
        limit = 1.5 * jobs * syntax["largestProcessMB"]
        targets.append((f"j{jobs}: -p captured summed peak ≤ 1.5 × {jobs} × largest clang process",
                        f"{captured['treePeakMB']:.0f} MB vs {limit:.0f} MB", captured["treePeakMB"] <= limit))
    if 1 in jobs_levels and 2 in jobs_levels and not args.micro_only:
        for name in ("occlint -p, captured", "occlint -p, cold"):
            speedup = get(1, name)["seconds"] / get(2, name)["seconds"]
            targets.append((f"{name}: --jobs 2 ≥ 1.8× faster than --jobs 1", f"{speedup:.2f}×", speedup >= 1.8))

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d_%H%M")
    result = {"stamp": stamp, "commit": commit, "units": args.units, "gpu": args.gpu, "jobs": jobs_levels,
              "loadBefore": load_before, "loadAfter": load_after, "rows": rows,
              "micro": {name: {"median": med[name], "runs": [round(t, 3) for t in v]}
                        for name, v in micro_times.items()},
              "targets": [{"target": t, "measured": m, "met": ok} for t, m, ok in targets]}
    results = os.path.join(HERE, "results")
    kind = "build-scale-micro" if args.micro_only else "build-scale"
    with open(os.path.join(results, f"{kind}-{stamp}.json"), "w") as f:
        json.dump(result, f, indent=1)
    lines = [f"# Build scale{' (micro only)' if args.micro_only else ''} ({stamp}, occlint tree at {commit})", "",
             f"`bench/build_scale.py --units {args.units} --jobs {args.jobs} --gpu {args.gpu} "
             f"--micro-reps {args.micro_reps}{' --micro-only' if args.micro_only else ''}` (method in its docstring). Generated project: {args.units} "
             f"translation units; load average {load_before:.1f} before, {load_after:.1f} after. One repetition "
             f"per row: read the ratios, not the seconds.", "",
             "| jobs | row | wall s | exit | largest process MB | summed peak MB | note |",
             "|---:|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['jobs']} | {r['row']} | {r['seconds']:.1f} | {r['exit']} | {r['largestProcessMB']:.0f} | "
                     f"{r['treePeakMB']:.0f} | {r['note']} |")
    lines += ["", f"One unit's compile, {args.micro_reps} repetitions each, alternated:", "",
              "| command | median s | min s | max s |", "|---|---:|---:|---:|"]
    for name, v in micro_times.items():
        lines.append(f"| {name} | {med[name]:.3f} | {min(v):.3f} | {max(v):.3f} |")
    lines += ["", "| target (issue 17) | measured | met |", "|---|---|---|"]
    for t, m, ok in targets:
        lines.append(f"| {t} | {m} | {'yes' if ok else 'no'} |")
    with open(os.path.join(results, f"{kind}-{stamp}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)


def prepare_captured_build(args, occlint, work, jobs):
    """What --recheck times, when --work does not hold it from an earlier
    --keep run: the generated project, its build with the launcher (built at
    os.cpu_count() jobs: only the sidecars and the cache matter) and the
    -fsyntax-only commands of `occlint compdb`."""
    build = os.path.join(work, f"wrap-j{jobs}")
    script = os.path.join(work, f"syntax-j{jobs}.txt")
    if os.path.isdir(build) and os.path.exists(script):
        return
    wrap = os.path.join(os.path.dirname(occlint), "occlint-wrap")
    nvcc = os.path.join(args.cuda_path, "bin", "nvcc")
    project = os.path.join(work, "project")
    if not os.path.isdir(project):
        run_quiet(f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'generate_cmake_project.py'))} "
                  f"{shlex.quote(project)} --units {args.units}")
    shutil.rmtree(build, ignore_errors=True)
    configure(project, build, nvcc, wrap)
    print(f"  preparing {build} (the launcher's build)", flush=True)
    run_quiet(f"cmake --build {shlex.quote(build)} -j {os.cpu_count()}",
              env=dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, f"cache-wrap-j{jobs}")))
    compdb = os.path.join(work, f"compdb-j{jobs}")
    run_quiet(f"{shlex.quote(occlint)} compdb -p {shlex.quote(build)} -o {shlex.quote(compdb)} "
              f"--gpu {args.gpu} --quiet")
    with open(script, "w") as f:
        for e in json.load(open(os.path.join(compdb, "compile_commands.json"))):
            words = e.get("arguments") or shlex.split(e["command"])
            words = without_output(words)
            f.write(f"cd {shlex.quote(e['directory'])} && {shlex.join(words)} -fsyntax-only\n")


def recheck(args):
    """The two rows of the -p-captured target again, on the builds an earlier
    run kept (--work): alternated, medians of --recheck repetitions. For when
    the first run's one repetition was disturbed."""
    occlint = os.path.abspath(args.occlint)
    work = args.work
    if not work:
        sys.exit("build_scale.py: --recheck needs --work")
    times = {}
    for jobs in [int(j) for j in args.jobs.split(",")]:
        prepare_captured_build(args, occlint, work, jobs)
        env = dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, f"cache-wrap-j{jobs}"))
        rows = {
            "occlint -p, captured": f"{shlex.quote(occlint)} --gpu {args.gpu} --jobs {jobs} --format json --quiet "
                                    f"-p {shlex.quote(os.path.join(work, f'wrap-j{jobs}'))} > /dev/null",
            "clang -fsyntax-only": each_line(jobs, os.path.join(work, f"syntax-j{jobs}.txt")),
        }
        names = list(rows)
        for rep in range(args.recheck):
            for name in (names if rep % 2 == 0 else names[::-1]):
                seconds, code, largest, tree = measure(rows[name], env=env)
                times.setdefault((jobs, name), []).append(round(seconds, 2))
                print(f"  j{jobs} {name}: {seconds:.1f} s, exit {code}", flush=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d_%H%M")
    lines = [f"# Build scale recheck ({stamp}, occlint tree at {commit})", "",
             f"`bench/build_scale.py --work {work} --jobs {args.jobs} --recheck {args.recheck}`: the builds of the "
             "earlier run, the two rows of the `-p` captured target, alternated.", "",
             "| jobs | row | median s | runs (s) |", "|---:|---|---:|---|"]
    for (jobs, name), v in times.items():
        lines.append(f"| {jobs} | {name} | {statistics.median(v):.1f} | {', '.join(map(str, v))} |")
    lines.append("")
    for jobs in sorted({j for j, _ in times}):
        ratio = statistics.median(times[(jobs, "occlint -p, captured")]) / statistics.median(
            times[(jobs, "clang -fsyntax-only")])
        lines.append(f"j{jobs}: -p captured / clang -fsyntax-only = {ratio:.2f} (target ≤ 1.1)")
    with open(os.path.join(HERE, "results", f"build-scale-recheck-{stamp}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def device_compile_script(plain, work, gpu):
    """One shell line per unit of the plain database: the device compile that
    occlint's cold path starts for it (toolchain/ResourceCompiler.cpp: the
    database's preprocessor and code generation flags, without its output,
    arch and host options, and --cubin -Xptxas -v -arch=ARCH -MD -MF), into
    a temporary folder of its own. Only the generated project's flags are
    handled: -I, -D, -O, -x."""
    arch = {"H100": "sm_90", "H200": "sm_90", "A100": "sm_80"}.get(gpu, gpu if gpu.startswith("sm_") else "sm_90")
    script = os.path.join(work, f"device-compile-{arch}.txt")
    with open(script, "w") as f:
        for e in json.load(open(os.path.join(plain, "compile_commands.json"))):
            words = e.get("arguments") or shlex.split(e["command"])
            kept, i = [words[0]], 1
            while i < len(words):
                w = words[i]
                if w in ("-x",) and i + 1 < len(words):
                    kept += [w, words[i + 1]]
                    i += 2
                    continue
                if w.startswith(("-I", "-D", "-O")):
                    kept.append(w)
                i += 1 + (w == "-o")
            kept += ["--cubin", "-Xptxas", "-v", f"-arch={arch}"]
            f.write(f"cd {shlex.quote(e['directory'])} && d=$(mktemp -d) && {shlex.join(kept)} -MD -MF $d/device.d "
                    f"-o $d/device.cubin {shlex.quote(e['file'])} > /dev/null 2>&1; s=$?; rm -rf $d; exit $s\n")
    return script


def recheck_cold(args):
    """The cold path's jobs scaling again: `occlint -p` with an empty cache
    (so it compiles every unit for its ptxas report) on the plain configured
    project of --work, at each --jobs level, and one `clang -fsyntax-only`
    per unit at the same levels as the machine's own scaling. Within a
    repetition the rows and levels run one after another, the order reversed
    every other repetition, so that a disturbed minute falls on both sides."""
    occlint = os.path.abspath(args.occlint)
    work = args.work
    if not work:
        sys.exit("build_scale.py: --recheck-cold needs --work")
    levels = [int(j) for j in args.jobs.split(",")]
    # The -fsyntax-only commands come from the launcher's prepared build;
    # the cold rows lint a plain configured build (nothing built, no sidecar).
    prepare_captured_build(args, occlint, work, levels[0])
    nvcc = os.path.join(args.cuda_path, "bin", "nvcc")
    plain = os.path.join(work, "plain-cold")
    if not os.path.exists(os.path.join(plain, "compile_commands.json")):
        shutil.rmtree(plain, ignore_errors=True)
        configure(os.path.join(work, "project"), plain, nvcc)
    cache = os.path.join(work, "cache-cold-recheck")

    def occlint_p(jobs, extra=""):
        return (f"{shlex.quote(occlint)} --gpu {args.gpu} --jobs {jobs} --format json --quiet {extra}"
                f"-p {shlex.quote(plain)} > /dev/null")

    runs = []
    for jobs in levels:
        runs.append((jobs, "occlint -p, cold", occlint_p(jobs)))
        runs.append((jobs, "clang -fsyntax-only", each_line(jobs, os.path.join(work, f"syntax-j{levels[0]}.txt"))))
        if args.parts:
            runs.append((jobs, "occlint -p --no-compile", occlint_p(jobs, "--no-compile ")))
            runs.append((jobs, "nvcc --cubin per unit", each_line(jobs, device_compile_script(plain, work, args.gpu))))
    times = {}
    load_before = os.getloadavg()[0]
    for rep in range(args.recheck_cold):
        for jobs, name, command in (runs if rep % 2 == 0 else runs[::-1]):
            shutil.rmtree(cache, ignore_errors=True)
            seconds, code, largest, tree = measure(command, env=dict(os.environ, OCCLINT_CACHE_DIR=cache))
            if code != 0:
                sys.exit(f"build_scale.py: {name} at -j{jobs} failed (exit {code})")
            times.setdefault((jobs, name), []).append(round(seconds, 2))
            print(f"  j{jobs} {name}: {seconds:.1f} s", flush=True)
    load_after = os.getloadavg()[0]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d_%H%M")
    lines = [f"# Build scale, cold path recheck ({stamp}, occlint tree at {commit})", "",
             f"`bench/build_scale.py --work {work} --jobs {args.jobs} --gpu {args.gpu} --recheck-cold "
             f"{args.recheck_cold}{' --parts' if args.parts else ''}`: `occlint -p` with an empty cache on the "
             f"plain configured project ({args.units} units; it runs nvcc for every unit's ptxas report), and one "
             f"`clang -fsyntax-only` per unit, at each jobs level, the order reversed every other repetition. "
             + ("With --parts, the cold path's two parts alone as well: `occlint -p --no-compile` (parse and "
                "checks, no compiler) and the device compile it starts per unit (`nvcc --cubin -Xptxas -v "
                "-MD`, one shell line per unit, J at a time). " if args.parts else "") +
             f"Load average {load_before:.1f} before, {load_after:.1f} after.", "",
             "| jobs | row | median s | runs (s) |", "|---:|---|---:|---|"]
    for (jobs, name), v in sorted(times.items()):
        lines.append(f"| {jobs} | {name} | {statistics.median(v):.1f} | {', '.join(map(str, v))} |")
    lines.append("")
    low, high = levels[0], levels[-1]
    notes = {"occlint -p, cold": " (target ≥ 1.8)", "clang -fsyntax-only": " (the machine's own scaling)"}
    for name in dict.fromkeys(name for _, name in times):
        ratio = statistics.median(times[(low, name)]) / statistics.median(times[(high, name)])
        lines.append(f"{name}: --jobs {high} is {ratio:.2f}× faster than --jobs {low}{notes.get(name, '')}")
    if args.parts:
        parts = ("occlint -p --no-compile", "nvcc --cubin per unit")
        at = {j: sum(statistics.median(times[(j, name)]) for name in parts) for j in (low, high)}
        cold = {j: statistics.median(times[(j, "occlint -p, cold")]) for j in (low, high)}
        lines.append(f"the parts one after another: {at[low]:.1f} s at -j{low}, {at[high]:.1f} s at -j{high}, "
                     f"{at[low] / at[high]:.2f}× (the scaling the parts allow); the cold path takes "
                     f"{cold[low] / at[low]:.2f}× and {cold[high] / at[high]:.2f}× their sum")
    with open(os.path.join(HERE, "results", f"build-scale-cold-{stamp}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
