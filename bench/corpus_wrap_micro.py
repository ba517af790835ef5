#!/usr/bin/env python3
"""What occlint-wrap adds to one compile of a corpus unit, with and without
a dependency file of the build's own (issue 17 item 5's launcher target on
real code; `build_scale.py --micro-only` does the same on a generated unit).

The launcher needs the compile's dependencies (the report's cache key names
every file the compiler read). When the command writes a dependency file
(`-MD -MF F`, as CMake's Ninja and Makefile rules and most hand-written
Makefiles do), the launcher reads that one; when it writes none, the
launcher adds `-MD -MF <object>.occlint.d`, and nvcc's dependency pass is
then a cost of the launcher's. The corpus builds of `bench/corpus_scale.py`
(one nvcc command per unit, from `bench/corpus/run.py`) write none; this
script tells the two costs apart on one unit. Commands, --reps times each,
alternated (the order reversed every other repetition), each with an empty
occlint cache and its own object:
- plain: the unit's command;
- plain, -MD: the same writing a dependency file (`-MD -MF <object>.d`);
- occlint-wrap: `occlint-wrap` on the plain command (it adds -MD);
- occlint-wrap, -MD: `occlint-wrap` on the command that writes its own.
Wall time of each run (`build_scale.py`'s measure); medians, min and max.

  bench/corpus_wrap_micro.py [--work DIR] [--reps 5] PROJECT UNIT

UNIT: a path suffix of the unit's source (its first match in the project's
run.py database). Writes bench/results/corpus-wrap-micro-<UTC stamp>.md
and .json.
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
from build_scale import measure, without_output  # noqa: E402
import pick_units  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('project')
    ap.add_argument('unit')
    args = ap.parse_args()
    wrap = os.path.join(os.path.dirname(os.path.abspath(args.occlint)), 'occlint-wrap')
    if not os.path.exists(wrap):
        sys.exit(f'corpus_wrap_micro.py: missing {wrap}')
    project = pick_units.project_named(args.project, 'corpus_wrap_micro.py')
    arch = project['archs'][0]
    source_db = os.path.join(args.work, 'db', project['name'], arch, 'compile_commands.json')
    if not os.path.exists(source_db):
        sys.exit(f'corpus_wrap_micro.py: {source_db} is missing: run `bench/corpus/run.py {project["name"]}` first')
    entry = next((e for e in json.load(open(source_db)) if e['file'].endswith(args.unit)), None)
    if not entry:
        sys.exit(f'corpus_wrap_micro.py: no unit of {args.project} ends with {args.unit}')

    work = os.path.join(args.work, 'wrap-micro', project['name'])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    words = without_output(entry['arguments'])

    def line(name, prefix, depfile):
        obj = os.path.join(work, f'{name}.o')
        extra = ['-MD', '-MF', obj + '.d'] if depfile else []
        return f"cd {shlex.quote(entry['directory'])} && {prefix}{shlex.join(words + extra + ['-o', obj])}"

    commands = {
        'plain': line('plain', '', False),
        'plain, -MD': line('plain-md', '', True),
        'occlint-wrap': line('wrap', shlex.quote(wrap) + ' ', False),
        'occlint-wrap, -MD': line('wrap-md', shlex.quote(wrap) + ' ', True),
    }
    cache = os.path.join(work, 'cache')
    env = dict(os.environ, OCCLINT_CACHE_DIR=cache)
    # Untimed: the unit compiles, and its files are in the page cache.
    if subprocess.run(commands['plain'], shell=True, capture_output=True).returncode != 0:
        sys.exit(f"corpus_wrap_micro.py: the unit does not compile: {commands['plain']}")
    times = {name: [] for name in commands}
    names = list(commands)
    for rep in range(args.reps):
        for name in (names if rep % 2 == 0 else names[::-1]):
            shutil.rmtree(cache, ignore_errors=True)
            seconds, code, _, _ = measure(commands[name], env=env)
            if code != 0:
                sys.exit(f'corpus_wrap_micro.py: {name} failed (exit {code}): {commands[name]}')
            times[name].append(round(seconds, 3))
        print(f'repetition {rep + 1}: ' + ', '.join(f'{n} {times[n][-1]:.2f} s' for n in names), flush=True)

    med = {name: statistics.median(v) for name, v in times.items()}
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
    commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                            text=True).stdout.strip()
    load = os.getloadavg()[0]
    base = os.path.join(HERE, 'results', f'corpus-wrap-micro-{stamp}')
    with open(base + '.json', 'w') as f:
        json.dump({'commit': commit, 'project': project['name'], 'unit': entry['file'], 'reps': args.reps,
                   'times': times}, f, indent=1)
    rel = os.path.relpath(entry['file'], os.path.join(args.work, 'src', project['name']))
    with open(base + '.md', 'w') as f:
        f.write(f'# occlint-wrap on one corpus unit ({stamp}, occlint tree at {commit})\n\n'
                f'`bench/corpus_wrap_micro.py --reps {args.reps} {args.project} {args.unit}` (method in its '
                f'docstring): {project["name"]} `{rel}` ({arch}), {args.reps} repetitions each, alternated; '
                f'load average {load:.1f} at the end.\n\n'
                '| command | median s | min s | max s |\n|---|---:|---:|---:|\n')
        for name, v in times.items():
            f.write(f'| {name} | {med[name]:.3f} | {min(v):.3f} | {max(v):.3f} |\n')
        f.write(f"\n- occlint-wrap on a command without a dependency file: "
                f"{1000 * (med['occlint-wrap'] - med['plain']):+.0f} ms (its added -MD included)\n"
                f"- the dependency file alone (plain, -MD against plain): "
                f"{1000 * (med['plain, -MD'] - med['plain']):+.0f} ms\n"
                f"- occlint-wrap on a command that writes its own: "
                f"{1000 * (med['occlint-wrap, -MD'] - med['plain, -MD']):+.0f} ms\n")
    print(f'written: {base}.md, {base}.json')


if __name__ == '__main__':
    main()
