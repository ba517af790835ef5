#!/usr/bin/env python3
"""Blind labelling of held-out findings from two builds (issue 47).

Two findings files written by run.py from the same held-out projects, one
per build (the release before a change and after it), become one list of
items to label, in which nothing says which build reported what:

  items.tsv   id, check, severity, at (repo@commit:path:line), message:
              the union of both builds' findings, one item per distinct
              (check, severity, at, message once normalised), shuffled
              with a fixed seed; the message loses the wording only one
              build writes (the estimated loss, operation counts);
  key.json    which builds reported each item, and how many findings
              ((unit, arch) copies) each: kept away from the labeller.

The labeller reads items.tsv and the code (the mirrors), writes a label per
item (labels.tsv: id, label, reason); blind_figures.py then joins the
labels with key.json into per-build figures.

Usage: blind_items.py --a FINDINGS --b FINDINGS --checks REGEX --out DIR [--seed N]
"""
import argparse
import collections
import csv
import json
import os
import random
import re


def normalise(message):
    m = re.sub(r'; estimated loss: [^\[]*?(?= \(assuming|$)', '', message)
    m = re.sub(r'~\d+ operations a trip', '~N operations', m)
    m = re.sub(r'~\d+', '~N', m)
    return m.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True)
    ap.add_argument('--b', required=True)
    ap.add_argument('--checks', required=True, help='regular expression on the check name')
    ap.add_argument('--out', required=True)
    ap.add_argument('--seed', type=int, default=47)
    args = ap.parse_args()
    items = collections.OrderedDict()
    for build, path in (('a', args.a), ('b', args.b)):
        for f in json.load(open(path)):
            if not f.get('held_out') or not re.fullmatch(args.checks, f['check']):
                continue
            key = (f['check'], f['severity'], f['at'], normalise(f['message']))
            item = items.setdefault(key, {'a': 0, 'b': 0})
            item[build] += 1
    keys = sorted(items)
    random.Random(args.seed).shuffle(keys)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'items.tsv'), 'w', newline='') as f:
        w = csv.writer(f, delimiter='\t', lineterminator='\n')
        w.writerow(['id', 'check', 'severity', 'at', 'message'])
        for i, k in enumerate(keys, 1):
            w.writerow([i, *k])
    with open(os.path.join(args.out, 'key.json'), 'w') as f:
        json.dump({str(i): {'check': k[0], 'severity': k[1], 'at': k[2], **items[k]}
                   for i, k in enumerate(keys, 1)}, f, indent=1)
    print(f'{len(keys)} items: a {sum(1 for k in keys if items[k]["a"])}, '
          f'b {sum(1 for k in keys if items[k]["b"])}, both {sum(1 for k in keys if items[k]["a"] and items[k]["b"])}')


if __name__ == '__main__':
    main()
