#!/usr/bin/env python3
"""Actionable share of the launch and occupancy checks on the corpus, from hand labels (issue 47).

Reads a findings file written by run.py (a JSON list; each finding has
project, held_out, unit, arch, check, severity, at = repo@commit12:path:line,
message) and labels/launch.tsv (at, check, label, reason: one row per
distinct (at, check); the label applies to every finding there, one per
(unit, arch)).

Checks counted: every cuda-launch-* and cuda-occupancy-* check except
cuda-occupancy-report (a remark that states the occupancy, not a finding).

Labels, read against the kernel, its launch sites and the sizes the host
code passes:
  ACTIONABLE  right and worth acting on: a developer would change the
              launch or the kernel for it (wanted);
  NEGLIGIBLE  the numbers are right but the loss does not matter (a small
              problem, a demo, a deliberately serial step, a launch that
              runs briefly, a loss of a few percent);
  WRONG       the conclusion is wrong (the limit cannot bind for the grids
              the program launches, a variant no launch of the program
              reaches, a value misread, a model that does not apply).
Actionable share = ACTIONABLE / labelled, over findings (each (unit, arch)
copy counts) and over distinct sites (at, check).

Tuning projects: every finding should have a label; the unlabelled ones are
listed, to label as rule changes bring new ones. Held-out projects: counts
only, never a location or a message. Labels whose finding is no longer
reported are kept and counted (a rule that silences a WRONG finding shows as
fewer WRONG findings, not as a lost label).

Usage: launch_precision.py [--findings FILE] [--labels FILE]
"""
import argparse
import collections
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = ('ACTIONABLE', 'NEGLIGIBLE', 'WRONG')
REPORT = 'cuda-occupancy-report'


def counted(check):
    return (check.startswith('cuda-launch-') or check.startswith('cuda-occupancy-')) and check != REPORT


def load_labels(path):
    labels = {}
    with open(path, newline='') as f:
        for row in csv.DictReader(f, delimiter='\t'):
            key = (row['at'], row['check'])
            if not counted(row['check']) or row['label'] not in LABELS:
                raise SystemExit(f'{path}: bad label {row["label"]!r} for {row["check"]} at {row["at"]}')
            if key in labels:
                raise SystemExit(f'{path}: {row["at"]} {row["check"]} labelled twice')
            labels[key] = row['label']
    return labels


def pct(n, d):
    return f'{100.0 * n / d:.0f} %' if d else '-'


def row(name, findings, labels):
    """One table row: findings, sites, labelled, per-label counts, share, unlabelled."""
    sites = {(f['at'], f['check']) for f in findings}
    got = [labels[(f['at'], f['check'])] for f in findings if (f['at'], f['check']) in labels]
    got_sites = [labels[s] for s in sites if s in labels]
    per, per_sites = collections.Counter(got), collections.Counter(got_sites)
    counts = ' | '.join(f'{per[l]} ({per_sites[l]})' for l in LABELS)
    return (f'| {name} | {len(findings)} ({len(sites)}) | {len(got)} ({len(got_sites)}) | {counts} | '
            f'{pct(per["ACTIONABLE"], len(got))} ({pct(per_sites["ACTIONABLE"], len(got_sites))}) | '
            f'{len(findings) - len(got)} ({len(sites) - len(got_sites)}) |')


HEADER = ('| {} | findings (sites) | labelled | ACTIONABLE | NEGLIGIBLE | WRONG | actionable share | unlabelled |\n'
          '|---|---:|---:|---:|---:|---:|---:|---:|')


def table(title, key, findings, labels, total):
    print(HEADER.format(title))
    for name in sorted({f[key] for f in findings}):
        print(row(name, [f for f in findings if f[key] == name], labels))
    print(row(total, findings, labels))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--findings', default='/tmp/occlint-corpus/findings-full.json')
    ap.add_argument('--labels', default=os.path.join(HERE, 'labels', 'launch.tsv'))
    args = ap.parse_args()

    findings = [f for f in json.load(open(args.findings)) if counted(f['check'])]
    labels = load_labels(args.labels)
    tuning = [f for f in findings if not f['held_out']]
    held = [f for f in findings if f['held_out']]

    print(f'Findings: {args.findings}\nLabels: {args.labels} ({len(labels)} sites)\n')
    print('Tuning projects. Counts are findings ((unit, arch) copies), distinct sites (at, check) in '
          'parentheses; the share is ACTIONABLE / labelled.\n')
    table('project', 'project', tuning, labels, 'all tuning')
    print()
    table('check', 'check', tuning, labels, 'all checks')

    print('\nHeld-out projects (counts only):\n')
    if held:
        table('project', 'project', held, labels, 'all held out')
        print()
        table('check', 'check', held, labels, 'all checks')
    else:
        print('none')

    unlabelled = collections.Counter((f['at'], f['check']) for f in tuning if (f['at'], f['check']) not in labels)
    print(f'\nUnlabelled tuning sites: {len(unlabelled)}')
    for (at, check), n in sorted(unlabelled.items()):
        msg = next(f['message'] for f in tuning if (f['at'], f['check']) == (at, check))
        print(f'  {at}\t{check}\t{n} finding(s)\t{msg[:160]}')

    reported = {(f['at'], f['check']) for f in findings}
    stale = sorted(k for k in labels if k not in reported)
    gone = collections.Counter(labels[k] for k in stale)
    print(f'\nLabels with no finding in this file: {len(stale)}'
          + (' (' + ', '.join(f'{l} {gone[l]}' for l in LABELS if gone[l]) + '; kept for when they come back)'
             if stale else ''))
    for at, check in stale:
        print(f'  {at}\t{check}\t{labels[(at, check)]}')


if __name__ == '__main__':
    main()
