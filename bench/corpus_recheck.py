#!/usr/bin/env python3
"""`occlint -p` on a captured corpus build against `clang -fsyntax-only`,
again, alternated (issue 17's "-p after a captured build <= 1.1x
clang -fsyntax-only" on one project, with more repetitions than
`corpus_scale.py` gives it).

Reads what an earlier `bench/corpus_scale.py PROJECT` run left in its work
directory (`scale/PROJECT`: the wrapped build with its sidecars, its
occlint cache, `syntax.txt`) and times the two rows REPS times at -j1 and
-j2, the levels and the two rows alternated every other repetition. Prints
the rows and a markdown table (median and runs); nothing is written.

  bench/corpus_recheck.py [--work DIR] [--reps 3] [--gpu GPU] PROJECT
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'corpus'))
from build_scale import each_line, measure  # noqa: E402
from corpus_scale import CHECKS, GPU_OF, kernels_note  # noqa: E402
import pick_units  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--gpu', default=None, help="default: the product of the project's first arch, as corpus_scale.py")
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('project')
    args = ap.parse_args()
    project = pick_units.project_named(args.project, 'corpus_recheck.py')
    # The arch the build captured for, so that -p reads the build's reports.
    gpu = args.gpu or GPU_OF.get(project['archs'][0])
    if not gpu:
        sys.exit(f"corpus_recheck.py: no --gpu given and none known for {project['archs'][0]}")
    work = os.path.join(args.work, 'scale', args.project)
    if not os.path.exists(os.path.join(work, 'syntax.txt')):
        sys.exit(f'corpus_recheck.py: run `bench/corpus_scale.py {args.project}` first ({work})')
    env = dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, 'cache-wrap'))
    captured = os.path.join(work, 'recheck-captured.json')
    times = {}
    for rep in range(args.reps):
        for jobs in ([1, 2] if rep % 2 == 0 else [2, 1]):
            rows = [('occlint -p, captured', f'{args.occlint} --gpu {gpu} --jobs {jobs} {CHECKS} --format json '
                     f'--quiet -p {work}/wrap > {captured}', env),
                    ('clang -fsyntax-only', each_line(jobs, os.path.join(work, 'syntax.txt')), None)]
            for name, command, e in (rows if rep % 2 == 0 else rows[::-1]):
                seconds, code, _, _ = measure(command, env=e)
                times.setdefault((jobs, name), []).append(round(seconds, 2))
                print(f'repetition {rep + 1}, -j{jobs}, {name}: {seconds:.2f} s, exit {code}', flush=True)
    print(f'{kernels_note(captured)}; load average {os.getloadavg()[0]:.1f}')
    print('| jobs | row | median s | runs (s) |\n|---:|---|---:|---|')
    for (jobs, name), v in sorted(times.items()):
        print(f"| {jobs} | {name} | {statistics.median(v):.1f} | {', '.join(map(str, v))} |")


if __name__ == '__main__':
    main()
