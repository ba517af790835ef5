#!/usr/bin/env python3
"""The async-copy pipelines of corpus projects, as occlint reads them, against
hand labels (docs/async-pipelines.md, issue 46).

For each project named (tuning projects only, unless --held-out is given,
which reports counts without per-kernel lines): its units (pick_units.py),
extracted once under WORK, run through occlint --no-compile for the
project's first arch with the pipeline checks and the occupancy report
enabled, and cuda-occupancy-pipeline-depth (with --compile, nvcc's ptxas
reports give the real registers its second case needs). Printed per
pipelined kernel: the forms, S, the bytes per stage, why not (stagesUnknown),
why the hazard checks did not look, one tile's counted work and
whether the copies overlap it, and the cuda-pipeline-* and depth findings. With labels
(bench/corpus/labels/async-pipelines.tsv: location, kernel, stages,
bytes_per_stage, correct), the stages and bytes read are compared with the
labels and the counts printed: kernels whose ring was read right, read
wrong, not read; hazard findings on kernels labelled correct (false ones).

Usage: async_pipelines.py [--work DIR] [--held-out] [--compile] PROJECT...
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pick_units  # noqa: E402
import run  # noqa: E402

LABELS = os.path.join(HERE, 'labels', 'async-pipelines.tsv')


def labels():
    if not os.path.exists(LABELS):
        return {}
    with open(LABELS) as f:
        rows = [r for r in csv.DictReader((line for line in f if not line.startswith('#')), delimiter='\t')]
    # location: repo@commit:path:line -> (path, kernel)
    out = {}
    for r in rows:
        path = r['location'].split(':', 1)[1].rsplit(':', 1)[0]
        out[(path, r['kernel'])] = r
    return out


def analyse(project, work, compile_units=False):
    root = run.extract(project, work)
    units = pick_units.select_units(project)[0]
    arch = project['archs'][0]
    db = run.write_database(project, root, units, arch, work)
    out = os.path.join(work, f"async-{project['name']}.json")
    cmd = [run.OCCLINT, '-p', db, '--format=json', f'--output={out}', '--quiet'] + \
        ([] if compile_units else ['--no-compile']) + \
        ['--checks=-*,cuda-pipeline-*,cuda-occupancy-pipeline-depth,cuda-occupancy-report'] + \
        [os.path.join(root, u) for u in units]
    subprocess.run(cmd, capture_output=True, timeout=3600)
    with open(out) as f:
        return root, json.load(f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--work', default='/tmp/occlint-corpus')
    parser.add_argument('--held-out', action='store_true')
    parser.add_argument('--compile', action='store_true', help='compile for ptxas reports (real registers)')
    parser.add_argument('projects', nargs='+')
    args = parser.parse_args()
    known = labels()
    for name in args.projects:
        project = pick_units.project_named(name, 'async_pipelines.py')
        if project.get('held_out') and not args.held_out:
            sys.exit(f'{name} is held out: give --held-out (counts only)')
        root, result = analyse(project, args.work, args.compile)
        findings = [d for d in result.get('diagnostics', []) if d['check'].startswith('cuda-pipeline-')]
        depth = [d for d in result.get('diagnostics', []) if d['check'] == 'cuda-occupancy-pipeline-depth']
        kernels = {}
        for k in result.get('kernels', []):
            if k.get('pipeline'):
                kernels[(os.path.relpath(k['file'], root), k['name'])] = k
        counts = {'pipelined kernels': len(kernels), 'ring read': 0, 'ring read right': 0, 'ring read wrong': 0,
                  'ring not read': 0, 'hazards checked': 0, 'pipeline findings': len(findings),
                  'findings on kernels labelled correct': 0, 'tile work counted': 0,
                  'depth findings': len(depth)}
        for (path, name_), k in sorted(kernels.items()):
            p = k['pipeline']
            label = known.get((path, name_.split('<')[0])) or known.get((path, name_))
            mine = [d for d in findings if os.path.relpath(d['file'], root) == path]
            if p['stages'] and p['bytesPerStage']:
                counts['ring read'] += 1
                if label:
                    right = str(p['stages']) == label['stages'] and str(p['bytesPerStage']) == label['bytes_per_stage']
                    counts['ring read right' if right else 'ring read wrong'] += 1
            else:
                counts['ring not read'] += 1
            if not p['hazardsNotModelled']:
                counts['hazards checked'] += 1
            if p.get('tileWork'):
                counts['tile work counted'] += 1
            if label and label.get('correct') == 'yes':
                counts['findings on kernels labelled correct'] += len(mine)
            if not project.get('held_out'):
                why = p['stagesUnknown'] or ''
                print(f"{name}: {path}: {name_}: {','.join(p['forms'])}: S={p['stages']} "
                      f"bytes/stage={p['bytesPerStage']} {('(' + why + ')') if why else ''} "
                      f"hazards: {p['hazardsNotModelled'] or 'checked'}; findings {len(mine)}; "
                      f"tile work {p.get('tileWork') or '(' + str(p.get('tileWorkUnknown')) + ')'}; "
                      f"copies overlap work {p.get('copiesOverlapWork')}"
                      + (f"; label S={label['stages']} bytes={label['bytes_per_stage']} correct={label['correct']}"
                         if label else ''))
        if not project.get('held_out'):
            for d in depth:
                print(f"{name}: depth finding: {os.path.relpath(d['file'], root)}:{d['line']}: {d['message']}")
        print(f"{name} ({'held out' if project.get('held_out') else 'tuning'}): " +
              ', '.join(f'{k} {v}' for k, v in counts.items()))


if __name__ == '__main__':
    main()
