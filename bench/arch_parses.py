#!/usr/bin/env python3
"""One parse for the archs of a command (issue 17, item 4): what `occlint -p`
costs on a database whose commands name two archs, parsed once for both
(the default when the project's own files never depend on the arch) next to
once per arch (`--parse-each-arch`), and next to one Clang parse per TU.

Method (one run, everything on the same files, alternated):
- Databases: the bundled CMake project (test-inputs/project, sm_80 and sm_90
  in its commands) and a generated project (bench/generate_cmake_project.py,
  `--units N`, CMAKE_CUDA_ARCHITECTURES "80;90"), configured with CMake.
- Per repetition, in an order that alternates between repetitions:
  * `one parse`: `occlint -p DB --format json --jobs 1` (--no-compile, so the
    parse is what is timed; the resource compile is the same in both modes);
  * `each arch`: the same with `--parse-each-arch`;
  * `clang -fsyntax-only`: for every TU, one after the other, the Clang
    command `occlint compdb` writes for the TU's first arch, with
    -fsyntax-only: one parse per TU, the floor for any mode.
- The median of `--reps` (default 3) per command; ratios of medians. Both
  modes' JSON reports are compared (they must be equal) and the --verbose
  line per file counted (how many files one parse served).
Wall time (time.monotonic() around each process or sequence). The machine is
a shared 2-core VM: read the ratios, not the seconds.

Writes bench/results/arch-parses-<UTC stamp>.md and .json.

  bench/arch_parses.py [--occlint BIN] [--units 40] [--reps 3]
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
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA = os.environ.get('CUDA_PATH', '/usr/local/cuda')
NVCC = os.path.join(CUDA, 'bin', 'nvcc')


def bundled_database(work):
    project = os.path.join(ROOT, 'test-inputs', 'project')
    build = os.path.join(work, 'bundled-build')
    os.makedirs(build)
    text = open(os.path.join(project, 'compile_commands.json.in')).read()
    text = text.replace('@PROJECT_SOURCE@', project).replace('@PROJECT_BUILD@', build).replace('@NVCC@', NVCC)
    with open(os.path.join(build, 'compile_commands.json'), 'w') as f:
        f.write(text)
    return build


def generated_database(work, units):
    source = os.path.join(work, 'generated')
    build = os.path.join(work, 'generated-build')
    subprocess.run([sys.executable, os.path.join(ROOT, 'bench', 'generate_cmake_project.py'), source,
                    '--units', str(units), '--arch', '80;90'], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(['cmake', '-S', source, '-B', build, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
                    f'-DCMAKE_CUDA_COMPILER={NVCC}', '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return build


def clang_parses(occlint, db, work, tag):
    """The first arch's Clang command of every TU, from `occlint compdb`, with -fsyntax-only."""
    out = os.path.join(work, 'compdb-' + tag)
    subprocess.run([occlint, 'compdb', '-p', db, '-o', out, '--quiet'], check=True)
    seen, parses = set(), []
    for e in json.load(open(os.path.join(out, 'compile_commands.json'))):
        if e['file'] in seen or not e['file'].endswith('.cu'):
            continue
        seen.add(e['file'])
        argv = e['arguments'] if 'arguments' in e else shlex.split(e['command'])
        clean, skip = [], False
        for a in argv:
            if skip:
                skip = False
            elif a == '-o':
                skip = True
            elif a != '-c':
                clean.append(a)
        parses.append((e['directory'], clean + ['-fsyntax-only']))
    return parses


def timed(argv, cwd=None, env=None):
    t = time.monotonic()
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t, r.returncode


def lint(occlint, db, extra, out, work):
    env = dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, 'cache'))
    return timed([occlint, '-p', db, '--no-compile', '--format', 'json', '--output', out, '--jobs', '1',
                  '--quiet'] + extra, env=env)


def one_parse_files(occlint, db, work):
    env = dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, 'cache'))
    r = subprocess.run([occlint, '-p', db, '--no-compile', '--verbose', '--format', 'json', '--output',
                        os.path.join(work, 'verbose.json')], env=env, capture_output=True, text=True)
    lines = [l for l in r.stderr.splitlines() if ': one parse ' in l]
    return sum(': one parse for ' in l for l in lines), len(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('--units', type=int, default=40)
    ap.add_argument('--reps', type=int, default=3)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='occlint-arch-parses-')
    try:
        databases = [('bundled project', bundled_database(work)),
                     (f'generated project, {args.units} TUs', generated_database(work, args.units))]
        rows, raw = [], {}
        for name, db in databases:
            tag = 'bundled' if name.startswith('bundled') else 'generated'
            parses = clang_parses(args.occlint, db, work, tag)
            served, multi = one_parse_files(args.occlint, db, work)
            names = ['one parse', 'each arch', 'clang -fsyntax-only']
            times = {n: [] for n in names}
            codes = {n: set() for n in names}
            reports = {}
            for rep in range(args.reps):
                for n in (names if rep % 2 == 0 else list(reversed(names))):
                    if n == 'clang -fsyntax-only':
                        total = 0.0
                        for cwd, argv in parses:
                            t, rc = timed(argv, cwd=cwd)
                            total += t
                            codes[n].add(rc)
                        times[n].append(total)
                        continue
                    out = os.path.join(work, f'{tag}-{n.replace(" ", "-")}.json')
                    t, rc = lint(args.occlint, db, ['--parse-each-arch'] if n == 'each arch' else [], out, work)
                    times[n].append(t)
                    codes[n].add(rc)
                    reports[n] = json.load(open(out))
            med = {n: statistics.median(v) for n, v in times.items()}
            same = reports['one parse'] == reports['each arch']
            rows.append((name, len(parses), served, multi, med, times, codes, same))
            raw[name] = {'units': len(parses), 'one_parse_files': served, 'multi_arch_files': multi,
                         'times': times, 'exit_codes': {n: sorted(c) for n, c in codes.items()},
                         'reports_equal': same}
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
        commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                text=True).stdout.strip()
        lines = [f'# One parse for several archs ({stamp}, occlint tree at {commit})', '',
                 f'`bench/arch_parses.py --units {args.units} --reps {args.reps}` (method in its docstring); '
                 f'archs sm_80 and sm_90 in every command; load average at the end {os.getloadavg()[0]:.1f}.', '',
                 '| database | TUs | one parse served | mode | median s | runs (s) | exit | / clang -fsyntax-only |',
                 '|---|---:|---:|---|---:|---|---|---:|']
        for name, units, served, multi, med, times, codes, same in rows:
            for n in ['one parse', 'each arch', 'clang -fsyntax-only']:
                lines.append(f'| {name} | {units} | {served} of {multi} | {n} | {med[n]:.2f} | '
                             f'{", ".join(f"{x:.2f}" for x in times[n])} | {",".join(map(str, sorted(codes[n])))} | '
                             f'{med[n] / med["clang -fsyntax-only"]:.2f} |')
        lines.append('')
        for name, units, served, multi, med, times, codes, same in rows:
            lines.append(f'- {name}: each arch / one parse = {med["each arch"] / med["one parse"]:.2f}; '
                         f'the two JSON reports are {"equal" if same else "DIFFERENT"}.')
        text = '\n'.join(lines) + '\n'
        out = os.path.join(ROOT, 'bench', 'results', f'arch-parses-{stamp}')
        with open(out + '.md', 'w') as f:
            f.write(text)
        with open(out + '.json', 'w') as f:
            json.dump({'stamp': stamp, 'commit': commit, 'databases': raw}, f, indent=1)
        print(text)
        print('wrote', out + '.md')
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
