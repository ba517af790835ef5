#!/usr/bin/env python3
"""Precision of the divergence checks on the corpus, from hand labels (issue 16).

Reads a findings file written by run.py (a JSON list; each finding has
project, held_out, unit, arch, check, severity, at = repo@commit12:path:line,
message) and labels/divergence.tsv (at, check, label, reason: one row per
distinct (at, check); the label applies to every finding there, one per
(unit, arch)).

Label sets:
  cuda-divergence-branch:  INDEX_SPLIT (wanted), DATA_SPLIT, BOUNDARY, TRIVIAL, WRONG
  cuda-divergence-barrier, cuda-divergence-warp-sync-mask:
                           TRUE_BUG (wanted), EXIT_ONLY, CONDITIONAL, FALSE
Precision = wanted / labelled, over findings (each (unit, arch) copy counts)
and over distinct sites.

The branch sample: the tuning projects' cuda-divergence-branch findings,
sorted by (at, unit, arch); random.Random(16).sample of 100 of them (all of
them if fewer).

Held-out projects: labelled once the rules were settled, in their own file
(labels/divergence-heldout.tsv), never used for tuning; their table is
printed separately, with counts only (never a location or a message).

The error checks' labels are also counted per severity: the targets are no
FALSE and no EXIT_ONLY among errors, and CONDITIONAL only as warnings.

Usage: precision.py [--findings FILE] [--labels FILE] [--held-out-labels FILE] [--sample]
"""
import argparse
import collections
import csv
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
BRANCH = 'cuda-divergence-branch'
# The splits decided by data moved to their own check (off by default); a
# site's label does not depend on which of the two reports it, so a branch
# label covers both.
DATA_BRANCH = 'cuda-divergence-data-branch'
ERROR_CHECKS = ('cuda-divergence-barrier', 'cuda-divergence-warp-sync-mask')
LABELS = {BRANCH: ('INDEX_SPLIT', 'DATA_SPLIT', 'BOUNDARY', 'TRIVIAL', 'WRONG')}
LABELS[DATA_BRANCH] = LABELS[BRANCH]
LABELS.update({c: ('TRUE_BUG', 'EXIT_ONLY', 'CONDITIONAL', 'FALSE') for c in ERROR_CHECKS})
SEED, SAMPLE_SIZE = 16, 100


def sort_key(f):
    return (f['at'], f['unit'], f['arch'])


def branch_sample(tuning):
    pool = sorted((f for f in tuning if f['check'] == BRANCH), key=sort_key)
    return sorted(random.Random(SEED).sample(pool, min(SAMPLE_SIZE, len(pool))), key=sort_key)


def load_labels(path):
    labels = {}
    with open(path, newline='') as f:
        for row in csv.DictReader(f, delimiter='\t'):
            key = (row['at'], row['check'])
            if row['check'] not in LABELS or row['label'] not in LABELS[row['check']]:
                raise SystemExit(f'{path}: bad label {row["label"]!r} for {row["check"]} at {row["at"]}')
            if key in labels:
                raise SystemExit(f'{path}: {row["at"]} {row["check"]} labelled twice')
            labels[key] = row['label']
            if row['check'] == BRANCH:
                labels[(row['at'], DATA_BRANCH)] = row['label']
    return labels


def severities(findings, labels):
    """The error checks' labels among errors and among warnings (findings)."""
    parts = []
    for severity in ('error', 'warning'):
        got = collections.Counter(labels[(f['at'], f['check'])] for f in findings
                                  if f['severity'] == severity and (f['at'], f['check']) in labels)
        parts.append(f'{severity}s: ' + ', '.join(f'{l} {got[l]}' for l in LABELS[ERROR_CHECKS[0]]))
    return '\nError checks by severity (findings): ' + '; '.join(parts)


def pct(n, d):
    return f'{100.0 * n / d:.0f} %' if d else '-'


def summary(name, label_set, findings, labels):
    """One table row: findings, sites, labelled, per-label counts, precision."""
    sites = {(f['at'], f['check']) for f in findings}
    got = [labels[(f['at'], f['check'])] for f in findings if (f['at'], f['check']) in labels]
    got_sites = [labels[s] for s in sites if s in labels]
    per_label, per_label_sites = collections.Counter(got), collections.Counter(got_sites)
    counts = ', '.join(f'{l} {per_label[l]} ({per_label_sites[l]})' for l in label_set)
    wanted = label_set[0]
    return (f'| {name} | {len(findings)} | {len(sites)} | {len(got)} ({len(got_sites)}) | {counts} | '
            f'{pct(per_label[wanted], len(got))} ({pct(per_label_sites[wanted], len(got_sites))}) |')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--findings', default='/tmp/occlint-corpus/findings-full.json')
    ap.add_argument('--labels', default=os.path.join(HERE, 'labels', 'divergence.tsv'))
    ap.add_argument('--held-out-labels', default=os.path.join(HERE, 'labels', 'divergence-heldout.tsv'))
    ap.add_argument('--sample', action='store_true', help='print the seeded branch sample')
    args = ap.parse_args()

    findings = json.load(open(args.findings))
    labels = load_labels(args.labels)
    tuning = [f for f in findings if not f['held_out'] and f['check'] in LABELS]
    held = collections.Counter(f['check'] for f in findings if f['held_out'])

    if args.sample:
        sample = branch_sample(tuning)
        print(f'# {BRANCH} sample: {len(sample)} findings, Random({SEED}).sample over the tuning '
              f'projects\' findings sorted by (at, unit, arch)')
        for f in sample:
            print(f"{f['at']}\t{f['unit']}\t{f['arch']}\t{labels.get((f['at'], BRANCH), 'UNLABELLED')}")
        return

    print(f'Findings: {args.findings}\nLabels: {args.labels} ({len(labels)} sites)\n')
    print('Tuning projects. Counts are findings, (distinct sites) in parentheses.\n')
    print('| check | findings | sites | labelled | per label | precision |')
    print('|---|---:|---:|---:|---|---:|')
    for check in (BRANCH, DATA_BRANCH) + ERROR_CHECKS:
        print(summary(check, LABELS[check], [f for f in tuning if f['check'] == check], labels))
    print(summary('both error checks', LABELS[ERROR_CHECKS[0]],
                  [f for f in tuning if f['check'] in ERROR_CHECKS], labels))
    print(severities([f for f in tuning if f['check'] in ERROR_CHECKS], labels))

    sample = branch_sample(tuning)
    got = [labels[(f['at'], BRANCH)] for f in sample if (f['at'], BRANCH) in labels]
    print(f'\nBranch sample (seed {SEED}, {len(sample)} findings): labelled {len(got)}, '
          + ', '.join(f'{l} {got.count(l)}' for l in LABELS[BRANCH])
          + f'; precision {pct(got.count(LABELS[BRANCH][0]), len(got))}')

    print('\nHeld-out projects (counts only): '
          + (', '.join(f'{c} {n}' for c, n in sorted(held.items())) or 'none'))
    if os.path.exists(args.held_out_labels):
        held_labels = load_labels(args.held_out_labels)
        held_findings = [f for f in findings if f['held_out'] and f['check'] in LABELS]
        print(f'\nHeld-out projects, labelled ({args.held_out_labels}, {len(held_labels)} sites; '
              'counts only):\n')
        print('| check | findings | sites | labelled | per label | precision |')
        print('|---|---:|---:|---:|---|---:|')
        for check in (BRANCH, DATA_BRANCH) + ERROR_CHECKS:
            print(summary(check, LABELS[check], [f for f in held_findings if f['check'] == check], held_labels))
        print(severities([f for f in held_findings if f['check'] in ERROR_CHECKS], held_labels))
        missing = {(f['at'], f['check']) for f in held_findings if (f['at'], f['check']) not in held_labels}
        print(f'\nHeld-out sites without a label: {len(missing)}')

    reported = {(f['at'], f['check']) for f in tuning}
    unlabelled = collections.Counter((f['at'], f['check']) for f in tuning if (f['at'], f['check']) not in labels)
    print(f'\nUnlabelled sites: {len(unlabelled)}')
    for (at, check), n in sorted(unlabelled.items()):
        msg = next(f['message'] for f in tuning if (f['at'], f['check']) == (at, check))
        print(f'  {at}\t{check}\t{n} finding(s)\t{msg[:160]}')
    # A label row (a branch label also stands for the data-branch check) with
    # no finding at its site under either check.
    def reported_at(at, check):
        checks = (BRANCH, DATA_BRANCH) if check in (BRANCH, DATA_BRANCH) else (check,)
        return any((at, c) in reported for c in checks)
    stale = sorted(k for k in labels if k[1] != DATA_BRANCH and not reported_at(*k))
    if stale:
        print(f'\nLabels with no finding in this file: {len(stale)} (kept for when they come back)')


if __name__ == '__main__':
    main()
