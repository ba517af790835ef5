#!/usr/bin/env python3
"""Per-build figures from a blind labelling (blind_items.py, issue 47).

Joins labels.tsv (id, label, reason; written by someone who saw only
items.tsv) with key.json (which build reported each item, and how often)
and prints, for build a and build b:
  cuda-divergence-branch: findings and items per label, precision
      (INDEX_SPLIT / labelled);
  cuda-divergence-barrier and -warp-sync-mask: per severity, per label
      (targets: no FALSE or EXIT_ONLY error, TRUE_BUG as errors);
  launch and occupancy checks: ACTIONABLE / NEGLIGIBLE / WRONG, actionable share.
Counts are findings ((unit, arch) copies), items in parentheses.

Usage: blind_figures.py --dir DIR [--names a=NAME,b=NAME]
"""
import argparse
import collections
import csv
import json
import os

BRANCH = 'cuda-divergence-branch'
ERRORS = ('cuda-divergence-barrier', 'cuda-divergence-warp-sync-mask')


def group(check):
    if check == BRANCH:
        return 'branch'
    if check in ERRORS:
        return 'errors'
    return 'launch'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', required=True)
    ap.add_argument('--names', default='a=a,b=b')
    args = ap.parse_args()
    names = dict(p.split('=', 1) for p in args.names.split(','))
    key = json.load(open(os.path.join(args.dir, 'key.json')))
    labels = {}
    with open(os.path.join(args.dir, 'labels.tsv')) as f:
        for r in csv.DictReader(f, delimiter='\t'):
            labels[r['id']] = r['label'].strip()
    missing = [i for i in key if i not in labels]
    for build in ('a', 'b'):
        print(f'## build {names.get(build, build)}')
        counts = collections.defaultdict(lambda: collections.Counter())
        for i, k in key.items():
            n = k[build]
            if not n or i not in labels:
                continue
            g = group(k['check'])
            tag = labels[i] if g != 'errors' else f"{k['severity']}:{labels[i]}"
            counts[g][tag] += n
            counts[g + ' items'][tag] += 1
        for g, wanted in (('branch', ('INDEX_SPLIT',)), ('errors', None), ('launch', ('ACTIONABLE',))):
            c, items = counts[g], counts[g + ' items']
            total = sum(c.values())
            parts = ', '.join(f'{t} {c[t]} ({items[t]})' for t in sorted(c))
            line = f'  {g}: {total} findings ({sum(items.values())} items): {parts}'
            if wanted and total:
                good = sum(c[t] for t in wanted)
                good_items = sum(items[t] for t in wanted)
                line += f'; precision {100 * good / total:.0f} % ({100 * good_items / max(1, sum(items.values())):.0f} % of items)'
            print(line)
    if missing:
        print(f'unlabelled items: {len(missing)}')


if __name__ == '__main__':
    main()
