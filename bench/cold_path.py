#!/usr/bin/env python3
"""What a cold `occlint -p` costs (issue 17, item 4): nothing captured from
the build, an empty cache, so occlint compiles every translation unit once
per target arch for its ptxas report, next to what the target allows:
parse + one nvcc compile per TU.

Method (one run, everything on the same files, alternated):
- The database: the bundled CMake project (test-inputs/project, its
  compile_commands.json.in filled in for this checkout, 5 TUs), or
  `--db DIR` (a directory with compile_commands.json).
- Per repetition, in an order that alternates between repetitions:
  * `occlint cold`: `occlint -p DB --gpu GPU --format json --jobs 1` with
    OCCLINT_CACHE_DIR set to a new empty directory (so every TU compiles);
  * `baseline cold`: the same with `--baseline-bin` (an older occlint build),
    when given, to compare two builds side by side;
  * `occlint warm`: the same command again on the cache the cold run left;
  * `reference`: for every TU, one after the other, Clang's device-side parse
    for the arch (the command `occlint compdb` writes, with -fsyntax-only)
    and one `nvcc --cubin -Xptxas -v` for the arch with the TU's own flags
    (-c and -o dropped; the output to a temp file). Its time is the sum.
- The median of `--reps` (default 3) per command; ratios of medians.
Wall time, measured here with time.monotonic() around each process (or the
sequence of them, for the reference). The machine is a shared 2-core VM:
read the ratios, taken minutes apart on the same files, not the seconds.

Writes bench/results/cold-path-<UTC stamp>.md and .json.

  bench/cold_path.py [--occlint BIN] [--baseline-bin OLD] [--db DIR] [--gpu H100] [--reps 3]
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
ARCH_OF = {'H100': 'sm_90', 'H200': 'sm_90', 'A100': 'sm_80', 'L4': 'sm_89'}


def bundled_database(work):
    """The bundled project's database, filled in as scripts/example.sh does."""
    project = os.path.join(ROOT, 'test-inputs', 'project')
    build = os.path.join(work, 'project-build')
    os.makedirs(build)
    text = open(os.path.join(project, 'compile_commands.json.in')).read()
    text = (text.replace('@PROJECT_SOURCE@', project).replace('@PROJECT_BUILD@', build)
            .replace('@NVCC@', os.path.join(CUDA, 'bin', 'nvcc')))
    with open(os.path.join(build, 'compile_commands.json'), 'w') as f:
        f.write(text)
    return build


def entry_argv(e):
    return e['arguments'] if 'arguments' in e else shlex.split(e['command'])


def reference_commands(occlint, db, gpu, arch, work):
    """Per TU: the Clang parse occlint does (from `occlint compdb`) and one
    nvcc device compile for the arch with the TU's flags."""
    out = os.path.join(work, 'compdb')
    subprocess.run([occlint, 'compdb', '-p', db, '-o', out, '--gpu', gpu, '--quiet'], check=True)
    parses = []
    for e in json.load(open(os.path.join(out, 'compile_commands.json'))):
        argv = [a for a in entry_argv(e)]
        if not e['file'].endswith('.cu'):
            continue
        # Drop the output: -fsyntax-only instead of -c -o X.
        clean, skip = [], False
        for a in argv:
            if skip:
                skip = False
                continue
            if a == '-o':
                skip = True
                continue
            if a == '-c':
                continue
            clean.append(a)
        parses.append((e['directory'], clean + ['-fsyntax-only']))
    compiles = []
    cubin = os.path.join(work, 'ref.cubin')
    for e in json.load(open(os.path.join(db, 'compile_commands.json'))):
        argv = entry_argv(e)
        if not e['file'].endswith('.cu'):
            continue
        clean, skip = [argv[0]], False
        for a in argv[1:]:
            if skip:
                skip = False
                continue
            if a in ('-o', '-MF', '-MT', '-MQ'):
                skip = True
                continue
            if a in ('-c', '-MD', '-MMD') or a.startswith(('-gencode', '--generate-code', '-arch', '--gpu-architecture')):
                if a in ('-gencode', '--generate-code') or a in ('-arch', '--gpu-architecture'):
                    skip = True
                continue
            clean.append(a)
        compiles.append((e['directory'], clean + ['--cubin', '-Xptxas', '-v', '-arch=' + arch, '-o', cubin]))
    return parses, compiles


def timed(argv, env=None, cwd=None):
    t = time.monotonic()
    r = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t, r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('--baseline-bin', default=None)
    ap.add_argument('--db', default=None)
    ap.add_argument('--gpu', default='H100')
    ap.add_argument('--reps', type=int, default=3)
    args = ap.parse_args()
    arch = ARCH_OF.get(args.gpu, args.gpu if args.gpu.startswith('sm_') else None)
    if not arch:
        sys.exit('cold_path.py: give --gpu as H100, A100, L4, H200 or sm_XX')
    work = tempfile.mkdtemp(prefix='occlint-cold-path-')
    try:
        db = args.db or bundled_database(work)
        parses, compiles = reference_commands(args.occlint, db, args.gpu, arch, work)
        names = ['occlint cold'] + (['baseline cold'] if args.baseline_bin else []) + ['occlint warm', 'reference']
        times = {n: [] for n in names}
        codes = {n: set() for n in names}
        # The warm run reads the cache its repetition's cold run left, so the
        # two stay together; the groups alternate their order.
        groups = [['occlint cold', 'occlint warm']] + ([['baseline cold']] if args.baseline_bin else []) + [['reference']]
        for rep in range(args.reps):
            cache = None
            for group in (groups if rep % 2 == 0 else list(reversed(groups))):
                for n in group:
                    if n == 'reference':
                        total = 0.0
                        for cwd, argv in parses + compiles:
                            t, rc = timed(argv, cwd=cwd)
                            total += t
                            codes[n].add(rc)
                        times[n].append(total)
                        continue
                    binary = args.baseline_bin if n == 'baseline cold' else args.occlint
                    if n != 'occlint warm':
                        cache = tempfile.mkdtemp(dir=work)  # empty: every TU compiles
                    env = dict(os.environ, OCCLINT_CACHE_DIR=cache)
                    t, rc = timed([binary, '-p', db, '--gpu', args.gpu, '--format', 'json', '--jobs', '1'], env=env)
                    times[n].append(t)
                    codes[n].add(rc)
        med = {n: statistics.median(v) for n, v in times.items()}
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
        commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                text=True).stdout.strip()
        lines = [f'# Cold `occlint -p` ({stamp}, occlint tree at {commit})', '',
                 f'`bench/cold_path.py --reps {args.reps} --gpu {args.gpu}'
                 + (f' --db {args.db}' if args.db else '') + (' --baseline-bin ...' if args.baseline_bin else '')
                 + '` (method in its docstring).', '',
                 f'Database: {"the bundled project" if not args.db else args.db}; '
                 f'{len(compiles)} CUDA translation units, arch {arch}; load average at the end '
                 f'{os.getloadavg()[0]:.1f}.', '',
                 '| command | median s | runs (s) | exit codes | / reference |', '|---|---:|---|---|---:|']
        for n in names:
            lines.append(f'| {n} | {med[n]:.2f} | {", ".join(f"{x:.2f}" for x in times[n])} | '
                         f'{",".join(map(str, sorted(codes[n])))} | {med[n] / med["reference"]:.2f} |')
        if args.baseline_bin:
            lines += ['', f'occlint cold / baseline cold: {med["occlint cold"] / med["baseline cold"]:.2f}']
        text = '\n'.join(lines) + '\n'
        out = os.path.join(ROOT, 'bench', 'results', f'cold-path-{stamp}')
        with open(out + '.md', 'w') as f:
            f.write(text)
        with open(out + '.json', 'w') as f:
            json.dump({'stamp': stamp, 'commit': commit, 'gpu': args.gpu, 'arch': arch, 'db': args.db,
                       'units': len(compiles), 'times': times, 'exit_codes': {n: sorted(c) for n, c in codes.items()},
                       'reference_parses': [a for _, a in parses], 'reference_compiles': [a for _, a in compiles]},
                      f, indent=1)
        print(text)
        print('wrote', out + '.md')
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
