#!/usr/bin/env python3
"""Issue 15's precedence targets, measured on a corpus run's JSON
(run.py --mode full writes one occlint JSON per (unit, arch) under
WORK/out-full/<project>/<arch>/): a launch with an exact grid of one block,
or with fewer blocks than the target's SMs, gets no finding the precedence
table makes moot (block-cap, register-cliff, tail-wave; the slot part of
block-not-warp-multiple is worded away, not a separate finding), and an
invalid launch gets no second finding. Prints each violation and the counts;
exit 1 when there is one.

    python3 bench/corpus/moot_findings.py [--work /tmp/occlint-corpus]
"""
import argparse, glob, json, os, sys

MOOT_BELOW_SMS = {'cuda-occupancy-block-cap', 'cuda-occupancy-register-cliff', 'cuda-launch-tail-wave'}
LAUNCH_CHECKS = MOOT_BELOW_SMS | {'cuda-launch-tiny-grid', 'cuda-launch-block-not-warp-multiple',
                                  'cuda-launch-invalid-config'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    args = ap.parse_args()
    counts = {'launches': 0, 'one block': 0, 'below the SM count': 0, 'invalid': 0}
    bad = []
    for path in sorted(glob.glob(os.path.join(args.work, 'out-full', '*', '*', '*.json'))):
        try:
            doc = json.load(open(path))
        except (OSError, ValueError):
            continue
        at = {}
        for d in doc.get('diagnostics', []):
            if d.get('check') in LAUNCH_CHECKS:
                at.setdefault((d.get('file'), d.get('line'), d.get('column')), []).append(d)
        # A launch site has one entry per variant and GPU, and a finding is
        # the site's: it is moot only when every variant on that GPU makes it
        # moot (a sweep's tiny grid is reported for its largest grid, while
        # its smallest element may be one block).
        sites = {}
        for launch in doc.get('launches', []):
            counts['launches'] += 1
            key = (launch.get('file'), launch.get('line'), launch.get('column'), (launch.get('gpu') or {}).get('name'))
            sites.setdefault(key, []).append(launch)
        for (file, line, column, gpu_name), variants in sites.items():
            checks = {d['check'] for d in at.get((file, line, column), [])}
            where = f"{path}: {file}:{line} on {gpu_name}"
            kinds = set()
            for launch in variants:
                grid = (launch.get('shape') or {}).get('gridBlocks')
                sms = (launch.get('gpu') or {}).get('smCount', 0)
                if launch.get('failure'):
                    counts['invalid'] += 1
                    kinds.add('invalid')
                elif grid == 1:
                    counts['one block'] += 1
                    kinds.add('one block')
                elif grid is not None and grid < sms:
                    counts['below the SM count'] += 1
                    kinds.add('below')
                else:
                    kinds.add('other')
            if kinds == {'invalid'} and checks - {'cuda-launch-invalid-config'}:
                bad.append(f"{where}: invalid launch with {sorted(checks)}")
            elif kinds == {'one block'} and checks - {'cuda-launch-invalid-config'}:
                bad.append(f"{where}: one-block launch with {sorted(checks)}")
            elif kinds <= {'one block', 'below'} and checks & MOOT_BELOW_SMS:
                bad.append(f"{where}: grid below the SM count with {sorted(checks & MOOT_BELOW_SMS)}")
    print('; '.join(f'{k}: {v}' for k, v in counts.items()) + f'; moot findings: {len(bad)}')
    for b in bad:
        print(' ', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
