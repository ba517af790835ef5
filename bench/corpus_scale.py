#!/usr/bin/env python3
"""How occlint scales with a build, on the real-code corpus (issue 17 item 5;
`build_scale.py` does the same on a generated CMake project).

The corpus projects have no build of their own here: `bench/corpus/run.py`
writes one nvcc command per translation unit (its `db/<project>/<arch>`,
the project's first arch). That command list is the build. For each
project this script writes three copies of it, each with its own object
per unit (`-o <build>/obj/<i>.o`, so that sidecars do not collide): plain,
behind `occlint-wrap`, and behind `occlint wrap --lint --gpu GPU`. A unit
whose plain compile fails in a first, untimed pass (the warm-up: sources
and headers in the page cache) is left out of every row.

Rows, per jobs level J, one project at a time (`xargs -P J` runs J
commands at once; occlint and run-clang-tidy take -j J):
- nvcc build: the plain commands;
- occlint-wrap build: the same behind the launcher, an empty occlint cache;
- wrap --lint build: behind `occlint wrap --lint`, an empty cache (the
  note counts the units whose sidecar holds the lint's record);
- occlint -p, captured: `occlint -p` on the wrapped build's database, right
  after it (the sidecars next to its objects; no compiler may start: the
  note counts the kernels whose registers came from the build);
- occlint -p, cold: on the plain database with an empty cache (it compiles
  every unit once for its ptxas report);
- run-clang-tidy: `run-clang-tidy-22 -load libOcclintTidyModule.so` on the
  `occlint compdb` database of the plain build;
- clang -fsyntax-only: each entry of that database, J at a time.
The occlint rows run occlint's default check set, given with --checks so
that a project's own .clang-tidy cannot turn it off (CHECKS below).
Wall time, the largest process's peak RSS and the summed peak RSS of the
process tree (sampled every 0.2 s), as `build_scale.py` measures them
(its `measure`). Objects and caches are removed before each build row. With
--reps N each row runs N times; the jobs levels run in turn, their order
reversed every other repetition. Medians are reported.

Writes bench/results/corpus-scale-<UTC stamp>.md and .json.

  bench/corpus_scale.py [--work DIR] [--jobs 1,2] [--reps 2] [--gpu GPU] [PROJECT...]

The corpus must have been run first (`bench/corpus/run.py PROJECT`): its
work directory holds the extracted sources and the databases.
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'corpus'))
from build_scale import each_line, measure, run_quiet, without_output  # noqa: E402
import pick_units  # noqa: E402


# The GPU whose arch the project's first arch is, so that the build's
# reports (captured for that arch) are the ones `occlint -p` reads.
GPU_OF = {'sm_80': 'A100', 'sm_89': 'L4', 'sm_90': 'H100'}

# occlint's default check set (tool/lint/LintPipeline.h), given on the
# command line: a project's own .clang-tidy may start from '-*' (cccl's
# does), which would leave the occlint rows with no check to run.
# clang-tidy appends --checks to the configuration's globs, so this is the
# default set whatever the project's file says (bench/corpus/run.py does
# the same).
CHECKS = '--checks=-*,cuda-*,-cuda-occupancy-report,-cuda-divergence-data-branch'


def script_of(entries, build, prefix):
    """One shell line per unit: its compile, behind prefix, into build/obj."""
    lines = []
    for i, e in enumerate(entries):
        words = without_output(e['arguments'])
        lines.append(f"cd {shlex.quote(e['directory'])} && {prefix}{shlex.join(words)} "
                     f"-o {shlex.quote(os.path.join(build, 'obj', f'{i}.o'))}")
    return lines


def write_build(entries, build, prefix):
    """The build directory: its database (objects under build/obj) and the
    script of its commands."""
    os.makedirs(os.path.join(build, 'obj'), exist_ok=True)
    database = [{'directory': e['directory'], 'file': e['file'],
                 'arguments': without_output(e['arguments']) + ['-o', os.path.join(build, 'obj', f'{i}.o')]}
                for i, e in enumerate(entries)]
    with open(os.path.join(build, 'compile_commands.json'), 'w') as f:
        json.dump(database, f, indent=1)
    script = os.path.join(build, 'commands.txt')
    with open(script, 'w') as f:
        f.write('\n'.join(script_of(entries, build, prefix)) + '\n')
    return script


def syntax_only_script(occlint, database, work, gpu):
    """`occlint compdb`'s database of `database` (in work/compdb) and the
    script of its entries with -fsyntax-only, one shell line per entry
    (work/syntax.txt): the reference a lint is compared with."""
    compdb = os.path.join(work, 'compdb')
    run_quiet(f"{shlex.quote(occlint)} compdb -p {shlex.quote(database)} -o {shlex.quote(compdb)} "
              f"--gpu {gpu} --quiet")
    syntax = os.path.join(work, 'syntax.txt')
    with open(syntax, 'w') as f:
        for e in json.load(open(os.path.join(compdb, 'compile_commands.json'))):
            words = without_output(e.get('arguments') or shlex.split(e['command']))
            f.write(f"cd {shlex.quote(e['directory'])} && {shlex.join(words)} -fsyntax-only\n")
    return compdb, syntax


def kernels_note(report):
    """What an `occlint -p --format json` report says of its kernels'
    registers: how many kernels, how many with registers, how many of those
    from the build."""
    try:
        kernels = json.load(open(report)).get('kernels', [])
    except (OSError, ValueError):
        kernels = []
    from_build = sum(1 for k in kernels if 'from the build' in k.get('resourceSource', ''))
    known = sum(1 for k in kernels if k.get('registersKnown'))
    return f'{len(kernels)} kernels, {known} with registers, {from_build} from the build'


def linted(build, units):
    """How many of the build's objects have a sidecar with the lint's record."""
    count = 0
    for i in range(units):
        try:
            count += 'lint' in json.load(open(os.path.join(build, 'obj', f'{i}.o.occlint.json')))
        except (OSError, ValueError):
            pass
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('--jobs', default='1,2')
    ap.add_argument('--reps', type=int, default=2)
    ap.add_argument('--gpu', default=None, help="default: the product of the project's first arch (GPU_OF)")
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('projects', nargs='*')
    args = ap.parse_args()
    occlint = os.path.abspath(args.occlint)
    wrap = os.path.join(os.path.dirname(occlint), 'occlint-wrap')
    plugin = os.path.join(os.path.dirname(os.path.dirname(occlint)), 'lib', 'libOcclintTidyModule.so')
    for path in (occlint, wrap, plugin):
        if not os.path.exists(path):
            sys.exit(f'corpus_scale.py: missing {path}')
    projects = [p for p in pick_units.manifest()['projects'] if not args.projects or p['name'] in args.projects]
    levels = [int(j) for j in args.jobs.split(',')]
    scale = os.path.join(args.work, 'scale')
    rows = []
    summary = []
    for project in projects:
        arch = project['archs'][0]
        gpu = args.gpu or GPU_OF.get(arch)
        if not gpu:
            sys.exit(f'corpus_scale.py: no --gpu given and none known for {arch}')
        source_db = os.path.join(args.work, 'db', project['name'], arch, 'compile_commands.json')
        if not os.path.exists(source_db):
            sys.exit(f'corpus_scale.py: {source_db} is missing: run `bench/corpus/run.py {project["name"]}` first')
        entries = json.load(open(source_db))
        work = os.path.join(scale, project['name'])
        shutil.rmtree(work, ignore_errors=True)
        # The untimed first pass: which units compile with -c, and warm caches.
        probe = os.path.join(work, 'probe')
        lines = script_of(entries, probe, '')
        os.makedirs(os.path.join(probe, 'obj'))
        kept = [e for e, line in zip(entries, lines)
                if subprocess.run(line, shell=True, capture_output=True).returncode == 0]
        summary.append({'project': project['name'], 'arch': arch, 'gpu': gpu, 'units': len(entries), 'compiled': len(kept)})
        print(f"{project['name']}: {len(kept)} of {len(entries)} units compile ({arch})", flush=True)
        if not kept:
            continue
        builds = {name: os.path.join(work, name) for name in ('plain', 'wrap', 'lint')}
        scripts = {'plain': write_build(kept, builds['plain'], ''),
                   'wrap': write_build(kept, builds['wrap'], shlex.quote(wrap) + ' '),
                   'lint': write_build(kept, builds['lint'],
                                       f"{shlex.quote(occlint)} wrap --lint --gpu {gpu} {CHECKS} ")}
        compdb, syntax = syntax_only_script(occlint, builds['plain'], work, gpu)
        caches = {name: os.path.join(work, f'cache-{name}') for name in ('wrap', 'lint', 'cold')}

        def fresh(*paths):
            for path in paths:
                shutil.rmtree(path, ignore_errors=True)
            for build in builds.values():
                os.makedirs(os.path.join(build, 'obj'), exist_ok=True)

        def row(jobs, name, command, env=None, note=''):
            seconds, code, largest, tree = measure(command, env=env)
            rows.append({'project': project['name'], 'jobs': jobs, 'row': name, 'seconds': round(seconds, 2),
                         'exit': code, 'largestProcessMB': round(largest, 1), 'treePeakMB': round(tree, 1),
                         'note': note})
            print(f"  {project['name']} j{jobs} {name}: {seconds:.1f} s, exit {code}, largest {largest:.0f} MB, "
                  f"tree {tree:.0f} MB {note}", flush=True)

        def cache_env(name):
            return dict(os.environ, OCCLINT_CACHE_DIR=caches[name])

        for rep in range(args.reps):
            for jobs in (levels if rep % 2 == 0 else list(reversed(levels))):
                lint_p = f"{shlex.quote(occlint)} --gpu {gpu} --jobs {jobs} {CHECKS} --format json --quiet -p "
                fresh(os.path.join(builds['plain'], 'obj'))
                row(jobs, 'nvcc build', each_line(jobs, scripts['plain']))
                fresh(os.path.join(builds['wrap'], 'obj'), caches['wrap'])
                row(jobs, 'occlint-wrap build', each_line(jobs, scripts['wrap']), cache_env('wrap'))
                fresh(os.path.join(builds['lint'], 'obj'), caches['lint'])
                row(jobs, 'wrap --lint build', each_line(jobs, scripts['lint']), cache_env('lint'))
                # A lint that did not run (no check enabled, a setup error)
                # leaves the build's status alone: count the units it ran on.
                rows[-1]['note'] = f"{linted(builds['lint'], len(kept))} of {len(kept)} units linted"
                captured = os.path.join(work, 'captured.json')
                row(jobs, 'occlint -p, captured', f"{lint_p}{shlex.quote(builds['wrap'])} > {shlex.quote(captured)}",
                    cache_env('wrap'))
                rows[-1]['note'] = kernels_note(captured)
                fresh(caches['cold'])
                row(jobs, 'occlint -p, cold', f"{lint_p}{shlex.quote(builds['plain'])} > /dev/null", cache_env('cold'))
                row(jobs, 'run-clang-tidy', f"run-clang-tidy-22 -p {shlex.quote(compdb)} -load {shlex.quote(plugin)} "
                    f"-checks='-*,cuda-*' -j {jobs} -quiet")
                row(jobs, 'clang -fsyntax-only', each_line(jobs, syntax))
    write_results(args, summary, rows, levels)


def write_results(args, summary, rows, levels):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
    commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                            text=True).stdout.strip()
    base = os.path.join(HERE, 'results', f'corpus-scale-{stamp}')
    with open(base + '.json', 'w') as f:
        json.dump({'commit': commit, 'reps': args.reps, 'projects': summary, 'rows': rows}, f,
                  indent=1)
    with open(base + '.md', 'w') as f:
        f.write(f'# Corpus build scale ({stamp}, occlint tree at {commit})\n\n'
                f'`bench/corpus_scale.py --jobs {args.jobs} --reps {args.reps}' + (f' --gpu {args.gpu}' if args.gpu else '') + ' '
                f"{' '.join(args.projects)}` (method in its docstring). Units per project (first arch): "
                + ', '.join(f"{s['project']} {s['compiled']} of {s['units']} ({s['arch']}, {s['gpu']})" for s in summary)
                + '.\n\n| project | jobs | row | median s | runs (s) | largest MB | tree MB | note |\n'
                  '|---|---:|---|---:|---|---:|---:|---|\n')
        keys = []
        for r in rows:
            if (r['project'], r['jobs'], r['row']) not in keys:
                keys.append((r['project'], r['jobs'], r['row']))
        keys.sort(key=lambda k: (k[0], k[1]))
        for project, jobs, name in keys:
            same = [r for r in rows if (r['project'], r['jobs'], r['row']) == (project, jobs, name)]
            runs = [r['seconds'] for r in same]
            f.write(f"| {project} | {jobs} | {name} | {statistics.median(runs):.1f} | "
                    f"{', '.join(str(x) for x in runs)} | {max(r['largestProcessMB'] for r in same):.0f} | "
                    f"{max(r['treePeakMB'] for r in same):.0f} | {same[-1]['note']} |\n")
        if len(levels) == 2:
            f.write('\n')
            for project in sorted({k[0] for k in keys}):
                for name in ('nvcc build', 'occlint -p, cold', 'occlint -p, captured', 'clang -fsyntax-only'):
                    times = [statistics.median([r['seconds'] for r in rows if (r['project'], r['jobs'], r['row'])
                                                == (project, j, name)] or [float('nan')]) for j in levels]
                    f.write(f'- {project}, {name}: -j{levels[1]} is {times[0] / times[1]:.2f}x -j{levels[0]}\n')
    print(f'written: {base}.md, {base}.json')


if __name__ == '__main__':
    main()
