#!/usr/bin/env python3
"""Why launch blocks stay unknown, on a development set: the units of a
tuning-set project that the corpus did not pick (pick_units.py takes a
stride sample of `max_units`; the rest are never counted in the figures).

A rule for launch values is written from a common host idiom and proven on
our own inputs; this script tells which idioms are common, without reading
the held-out projects (it refuses them) and without tuning on the counted
units. It runs `occlint --no-compile` (the block does not need ptxas) on a
stride sample of the unpicked units, first arch of the project, and groups
the launch sites whose block is not exact (values.blockComplete) by their
unknown reason, names and numbers replaced by placeholders. Then the sites
whose block is exact but whose dynamic shared memory is a runtime amount, and
those of them whose occupancy is known all the same, to be read against the
code.

Usage: dev_unknowns.py [--units N] [--work DIR] PROJECT
The project's tree must have been extracted by run.py (DIR/src/PROJECT).
Output: the counts, one example site per reason; nothing is written into
the repository (the third-party paths stay in DIR).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pick_units  # noqa: E402
import run  # noqa: E402


def launches(node):
    if isinstance(node, dict):
        if 'launchKind' in node:
            yield node
            return
        for value in node.values():
            yield from launches(value)
    elif isinstance(node, list):
        for value in node:
            yield from launches(value)


def reason_shape(reason):
    """The reason with its names, places and numbers replaced, so that one
    idiom is one line."""
    shape = re.sub(r"'[^']*'", "'_'", reason)
    shape = re.sub(r'\S+\.(cu|cuh|h|hpp|cpp|cc):\d+', 'F:N', shape)
    return re.sub(r'\d+', 'N', shape)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--units', type=int, default=100)
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('project')
    args = ap.parse_args()
    project = pick_units.project_named(args.project, 'dev_unknowns.py')
    if project['held_out']:
        sys.exit(f'dev_unknowns.py: {args.project} is held out: its code is not read while tuning')
    root = os.path.join(args.work, 'src', project['name'])
    if not os.path.isdir(root):
        sys.exit(f'dev_unknowns.py: {root} is missing: run `run.py {project["name"]}` first')
    picked, _ = pick_units.select_units(project)
    everything, _ = pick_units.select_units(dict(project, max_units=10**9))
    rest = [u for u in everything if u not in set(picked)]
    n = len(rest)
    sample = [rest[(i * n) // args.units] for i in range(args.units)] if n > args.units else rest
    arch = project['archs'][0]
    dev_work = os.path.join(args.work, 'dev')
    db = run.write_database(dict(project, name=project['name'] + '-dev'), root, sample, arch, dev_work)
    out = os.path.join(dev_work, project['name'] + '.json')
    subprocess.run([run.OCCLINT, '-p', db, f'--gpu={arch}', '--no-compile', '--format=json', f'--output={out}',
                    '--quiet', '--jobs=2', '--checks=-*,cuda-*'], capture_output=True, timeout=3600)
    with open(out) as f:
        report = json.load(f)
    sites = collections.defaultdict(list)
    for launch in launches(report):
        sites[(launch['file'], launch['line'], launch['column'])].append(launch)
    exact = 0
    reasons = collections.Counter()
    examples = {}
    runtime_amount = []  # exact block, a runtime dynamic shared memory: (site, variants)
    for site, variants in sites.items():
        if all((v.get('values') or {}).get('blockComplete') for v in variants):  # run.py's rule
            exact += 1
            if any((v.get('shape') or {}).get('dynamicSharedMemoryBytes') is None for v in variants):
                runtime_amount.append((site, variants))
            continue
        why = next(((v.get('unknown') or {}).get('block') for v in variants if (v.get('unknown') or {}).get('block')),
                   None) or next(((v.get('values') or {}).get('incompleteBecause') for v in variants
                                  if (v.get('values') or {}).get('incompleteBecause')), None) or '(no reason given)'
        shape = reason_shape(why)
        reasons[shape] += 1
        examples.setdefault(shape, (site, why))
    print(f'{project["name"]} development set: {len(sample)} of {n} unpicked units, {arch}; '
          f'launch sites {len(sites)}, exact block {exact}')
    for shape, count in reasons.most_common():
        (path, line, _), why = examples[shape]
        print(f'{count:5d}  {shape}\n       e.g. {os.path.relpath(path, root)}:{line}: {why[:240]}')
    # The sites whose block is exact but whose dynamic shared memory is a
    # runtime amount (or whose kernel is not known): how many get an
    # occupancy all the same (no amount the launch can be given changes the
    # blocks per SM), each listed to be read against the code.
    known = [(site, vs) for site, vs in runtime_amount if all(v.get('occupancy') for v in vs)]
    print(f'exact block without an exact launch shape: {len(runtime_amount)}; occupancy known all the same: '
          f'{len(known)} (block, largest amount, blocks per SM, limiters):')
    for (path, line, _), vs in known:
        v = vs[0]
        print(f"       {os.path.relpath(path, root)}:{line} {v.get('kernel')}: block {v['shape']['threadsPerBlock']}, "
              f"dynamic {v.get('dynamicSharedMemory')} <= {v['shape'].get('dynamicSharedMemoryAtMostBytes')}, "
              f"{v['occupancy']['blocksPerSM']} blocks, {', '.join(v['occupancy']['bindingLimiters'])}")


if __name__ == '__main__':
    main()
