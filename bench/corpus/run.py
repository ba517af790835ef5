#!/usr/bin/env python3
"""Runs the frozen corpus (manifest.json, units picked by pick_units.py).

For every project: extracts its snapshot at the fixed commit, asks nvcc for
its verdict on every (unit, arch) (`nvcc FLAGS -arch=ARCH --cubin`, the
device compile occlint's resource reports come from; verdicts are cached in
the work directory, keyed by commit, path, arch and flags), writes one nvcc
compile database per (project, arch), and runs occlint on each (unit, arch)
on its own, so every Clang error is charged to the unit that produced it.

Printed per project: units and (unit, arch) pairs; how many nvcc compiles;
of those, how many Clang parses with no error; the ones that still have
errors and got occlint's degradation warning (a tool notification in the
JSON); exit codes 2 and crashes (exit 3 or a signal); kernels and launches
found; findings per check. Held-out projects are reported on their own.
Written: WORK/findings.json (every finding, as repo@commit:path:line, for
labelling; third-party text, never committed) and, with --results,
bench/results/corpus-<stamp>.{md,json} (numbers only).

Usage: run.py [--mode parse|full] [--jobs N] [--results] [--work DIR] [PROJECT...]
  parse (default): occlint --no-compile: measures what Clang parses;
  full: occlint compiles as a user's run does (nvcc's verdict known to
        occlint, so the degradation of issue 14 applies).
Environment: OCCLINT (default build/bin/occlint), CUDA_PATH (/usr/local/cuda).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pick_units  # noqa: E402

CUDA = os.environ.get('CUDA_PATH', '/usr/local/cuda')
NVCC = os.path.join(CUDA, 'bin', 'nvcc')
OCCLINT = os.environ.get('OCCLINT', os.path.join(ROOT, 'build', 'bin', 'occlint'))


def extract(project, work):
    """The snapshot's tree at the commit, once (a marker names the commit).
    Blobs the snapshot lacks (its largest data files may be absent) are
    skipped: no unit needs them."""
    into = os.path.join(work, 'src', project['name'])
    marker = os.path.join(into, '.occlint-corpus-commit')
    if os.path.exists(marker) and open(marker).read() == project['commit']:
        return into
    subprocess.run(['rm', '-rf', into], check=True)
    os.makedirs(into)
    mirror = pick_units.mirror(project)
    listing = subprocess.run(['git', '-C', mirror, 'ls-tree', '-r', '-z', project['commit']], check=True,
                             capture_output=True).stdout.split(b'\0')
    entries = []  # (mode, object, path)
    for item in listing:
        if not item:
            continue
        meta, path = item.split(b'\t', 1)
        mode, kind, obj = meta.split()
        if kind == b'blob':
            entries.append((mode, obj, path.decode(errors='surrogateescape')))
    request = b''.join(obj + b'\n' for _, obj, _ in entries)
    out = subprocess.run(['git', '-C', mirror, 'cat-file', '--batch'], input=request, check=True,
                         capture_output=True).stdout
    pos = 0
    for mode, obj, path in entries:
        header_end = out.index(b'\n', pos)
        header = out[pos:header_end].split()
        pos = header_end + 1
        if len(header) < 3 or header[1] != b'blob':
            continue  # missing from the snapshot
        size = int(header[2])
        data = out[pos:pos + size]
        pos += size + 1
        target = os.path.join(into, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == b'120000':
            try:
                os.symlink(data.decode(errors='surrogateescape'), target)
            except OSError:
                pass
            continue
        with open(target, 'wb') as f:
            f.write(data)
        if mode == b'100755':
            os.chmod(target, 0o755)
    with open(marker, 'w') as f:
        f.write(project['commit'])
    return into


def flags_for(project, root, path):
    d = os.path.dirname(os.path.join(root, path))
    return [f.replace('{root}', root).replace('{dir}', d) for f in project['flags']]


def nvcc_verdict(project, root, path, arch, timeout, cache):
    flags = flags_for(project, root, path)
    key = '|'.join([project['commit'], path, arch, hashlib.sha1(json.dumps(flags).encode()).hexdigest()])
    if key in cache:
        return cache[key]
    cmd = [NVCC, *flags, f'-arch={arch}', '--cubin', '-o', '/dev/null', os.path.join(root, path)]
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=os.path.dirname(os.path.join(root, path)), capture_output=True,
                           timeout=timeout, start_new_session=True)
        verdict = {'ok': p.returncode == 0, 'seconds': round(time.time() - start, 1),
                   'error': '' if p.returncode == 0 else first_error(p.stderr.decode(errors='replace'))}
    except subprocess.TimeoutExpired:
        verdict = {'ok': False, 'timeout': True, 'seconds': timeout, 'error': f'nvcc ran past {timeout} s'}
    cache[key] = verdict
    return verdict


def first_error(text):
    for line in text.splitlines():
        if 'error' in line:
            return line.strip()[:300]
    return text.strip().splitlines()[0][:300] if text.strip() else ''


def write_database(project, root, units, arch, work):
    d = os.path.join(work, 'db', project['name'], arch)
    os.makedirs(d, exist_ok=True)
    entries = []
    for path in units:
        src = os.path.join(root, path)
        entries.append({'directory': os.path.dirname(src),
                        'arguments': [NVCC, *flags_for(project, root, path), f'-arch={arch}', '-c', src,
                                      '-o', os.path.join(work, 'obj', os.path.basename(path) + '.o')],
                        'file': src})
    with open(os.path.join(d, 'compile_commands.json'), 'w') as f:
        json.dump(entries, f, indent=1)
    return d


def run_occlint(db, src, mode, out, cache_dir):
    # The default check set, whatever a project's own .clang-tidy enables
    # (clang-tidy appends --checks to the configuration's globs).
    cmd = [OCCLINT, '-p', db, '--format=json', f'--output={out}', '--quiet', '--jobs=1',
           '--checks=-*,cuda-*,-cuda-occupancy-report', src]
    cmd += ['--no-compile'] if mode == 'parse' else ['--compile-timeout=300']
    # Calibration runs (an option's default chosen on the tuning set):
    # OCCLINT_CORPUS_ARGS="'--config={CheckOptions: {cuda-divergence-branch.MinLossPercent: 0}}'" (shell words)
    cmd[1:1] = shlex.split(os.environ.get('OCCLINT_CORPUS_ARGS', ''))
    env = dict(os.environ, XDG_CACHE_HOME=cache_dir)
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=1800)
    result = {'exit': p.returncode, 'seconds': round(time.time() - start, 2),
              'stderr': p.stderr.decode(errors='replace')[-2000:]}
    try:
        with open(out) as f:
            result['json'] = json.load(f)
    except (OSError, ValueError):
        result['json'] = None
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mode', choices=['parse', 'full'], default='parse')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--results', action='store_true')
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('projects', nargs='*')
    args = ap.parse_args()
    manifest = pick_units.manifest()
    work = args.work
    os.makedirs(os.path.join(work, 'obj'), exist_ok=True)
    verdict_file = os.path.join(work, 'nvcc-verdicts.json')
    cache = json.load(open(verdict_file)) if os.path.exists(verdict_file) else {}
    commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(['git', '-C', ROOT, 'status', '--porcelain', '--untracked-files=no'],
                           capture_output=True, text=True).stdout.strip() != ''
    summary, findings = [], []
    for project in manifest['projects']:
        if args.projects and project['name'] not in args.projects:
            continue
        root = extract(project, work)
        units, excluded = pick_units.select_units(project)
        pairs = [(u, a) for u in units for a in project['archs']]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            verdicts = list(pool.map(lambda ua: nvcc_verdict(project, root, ua[0], ua[1],
                                                             manifest['nvcc_timeout_s'], cache), pairs))
        with open(verdict_file, 'w') as f:
            json.dump(cache, f, indent=0)
        dbs = {a: write_database(project, root, units, a, work) for a in project['archs']}

        def lint(i):
            u, a = pairs[i]
            out = os.path.join(work, 'out-' + args.mode, project['name'], a, u.replace('/', '__') + '.json')
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if os.path.exists(out):
                os.remove(out)
            return run_occlint(dbs[a], os.path.join(root, u), args.mode, out, os.path.join(work, 'cache'))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(lint, range(len(pairs))))
        row = {'project': project['name'], 'held_out': project['held_out'], 'commit': project['commit'],
               'units': len(units), 'excluded': len(excluded), 'pairs': len(pairs), 'nvcc_ok': 0,
               'nvcc_timeout': 0, 'clean': 0, 'errors': 0, 'degraded': 0, 'exit2': 0, 'crashes': 0, 'no_output': 0,
               'kernels': 0, 'launches': 0, 'launch_sites': 0, 'exact_block': 0, 'exact_grid': 0, 'occupancy_known': 0,
               'block_set_open': 0,
               'findings': {}, 'unclean': []}
        for (u, a), v, r in zip(pairs, verdicts, runs):
            row['nvcc_timeout'] += bool(v.get('timeout'))
            j = r['json']
            crashed = r['exit'] not in (0, 1, 2)  # 3: occlint-internal-error; negative: a signal
            if not v['ok']:
                continue
            row['nvcc_ok'] += 1
            row['crashes'] += crashed
            row['exit2'] += r['exit'] == 2
            if j is None:
                row['no_output'] += 1
                row['unclean'].append({'unit': u, 'arch': a, 'exit': r['exit'], 'first_error': r['stderr'][-300:]})
                continue
            errors = [d for d in j['diagnostics'] if d['check'] == 'clang-diagnostic-error']
            notes = j.get('notifications', [])
            row['kernels'] += len(j.get('kernels', []))
            row['launches'] += len(j.get('launches', []))
            # Per (launch site, first target): the JSON lists launches x
            # targets x value variants. A site counts as exact when its block
            # is one value or a complete set (issue 15's rule: occlint's
            # values.blockComplete, every variant's block exact and no path
            # left that could give another; a variant's unknown grid or
            # dynamic shared memory, or an unresolved kernel, does not
            # matter). Its occupancy is known when every variant's is, the
            # block set being complete: a variant's occupancy holds for
            # every amount of dynamic shared memory its paths can give (an
            # exact amount, or a runtime one that cannot change the blocks
            # per SM: shape.dynamicSharedMemoryAtMostBytes).
            sites = {}
            for l in j.get('launches', []):
                key = (l.get('file'), l.get('line'), l.get('column'), l.get('kernel'))
                first = sites.setdefault(key, {'gpu': l['gpu']['name'], 'variants': []})
                if l['gpu']['name'] == first['gpu']:
                    first['variants'].append(l)
            for site in sites.values():
                vs = site['variants']
                complete = all((v.get('values') or {}).get('complete', True) for v in vs)
                row['launch_sites'] += 1
                block_complete = all((v.get('values') or {}).get('blockComplete', False) for v in vs)
                row['exact_block'] += block_complete
                row['exact_grid'] += complete and all(bool(v.get('shape') and v['shape'].get('gridBlocks'))
                                                      for v in vs)
                row['occupancy_known'] += block_complete and all(v.get('occupancy') is not None for v in vs)
                # Blocks known in some variants, the set open (a helper other
                # files may call): not counted as exact.
                row['block_set_open'] += (not block_complete) and any(bool(v.get('shape')) for v in vs)
            if errors or notes:
                row['errors'] += 1
                row['degraded'] += bool(notes)
                first = errors[0] if errors else (notes[0].get('firstError') or {})
                row['unclean'].append({'unit': u, 'arch': a, 'exit': r['exit'], 'errors': len(errors),
                                       'first_error': f"{os.path.relpath(first.get('file') or '.', root)}:"
                                                      f"{first.get('line')}: {first.get('message', '')[:200]}"})
            else:
                row['clean'] += 1
            for d in j['diagnostics']:
                if d['check'] == 'clang-diagnostic-error':
                    continue
                row['findings'][d['check']] = row['findings'].get(d['check'], 0) + 1
                f = d.get('file') or ''
                where = os.path.relpath(f, root) if f.startswith(root) else f
                findings.append({'project': project['name'], 'held_out': project['held_out'], 'unit': u,
                                 'arch': a, 'check': d['check'], 'severity': d['severity'],
                                 'at': f"{project['repo']}@{project['commit'][:12]}:{where}:{d['line']}",
                                 'message': d['message']})
        summary.append(row)
        print_row(row)
    with open(os.path.join(work, f'findings-{args.mode}.json'), 'w') as f:
        json.dump(findings, f, indent=1)
    print_totals(summary)
    if args.results:
        write_results(summary, args.mode, commit + ('-dirty' if dirty else ''))


def print_row(r):
    pct = 100.0 * r['clean'] / r['nvcc_ok'] if r['nvcc_ok'] else 0.0
    tag = ' (held out)' if r['held_out'] else ''
    print(f"{r['project']}{tag}: {r['units']} units, {r['pairs']} (file, arch); nvcc compiles {r['nvcc_ok']}"
          f" ({r['nvcc_timeout']} timed out); Clang parses cleanly {r['clean']} ({pct:.1f} %); with errors"
          f" {r['errors']} (degraded {r['degraded']}); exit 2: {r['exit2']}; crashes {r['crashes']};"
          f" no JSON written {r['no_output']};"
          f" kernels {r['kernels']}; launch sites {r['launch_sites']}: exact block {r['exact_block']},"
          f" exact grid {r['exact_grid']},"
          f" occupancy {r['occupancy_known']}, known values but an open set {r['block_set_open']}")
    for check, n in sorted(r['findings'].items()):
        print(f"    {check}: {n}")
    if not r['held_out']:
        for u in r['unclean']:
            print(f"    not clean: {u['unit']} [{u['arch']}] exit {u['exit']}: {u['first_error']}")
    sys.stdout.flush()


def totals(rows):
    t = {k: sum(r[k] for r in rows) for k in ('pairs', 'nvcc_ok', 'clean', 'errors', 'degraded', 'exit2', 'crashes',
                                              'launch_sites', 'exact_block', 'exact_grid', 'occupancy_known',
                                              'block_set_open')}
    t['clean_percent'] = round(100.0 * t['clean'] / t['nvcc_ok'], 1) if t['nvcc_ok'] else None
    return t


def print_totals(rows):
    for label, sel in (('tuning set', [r for r in rows if not r['held_out']]),
                       ('held out', [r for r in rows if r['held_out']])):
        if sel:
            t = totals(sel)
            print(f"{label}: {t['nvcc_ok']} (file, arch) nvcc compiles, {t['clean']} parse cleanly "
                  f"({t['clean_percent']} %), {t['errors']} with errors ({t['degraded']} degraded), "
                  f"exit 2: {t['exit2']}, crashes: {t['crashes']}; launch sites {t['launch_sites']}: exact block "
                  f"{t['exact_block']}, exact grid {t['exact_grid']}, occupancy {t['occupancy_known']}, "
                  f"open sets {t['block_set_open']}")


def write_results(rows, mode, commit):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
    base = os.path.join(ROOT, 'bench', 'results', f'corpus-{stamp}')
    numbers = [{k: v for k, v in r.items() if k != 'unclean'} for r in rows]
    with open(base + '.json', 'w') as f:
        json.dump({'occlint_commit': commit, 'mode': mode, 'projects': numbers,
                   'tuning_set': totals([r for r in rows if not r['held_out']]),
                   'held_out': totals([r for r in rows if r['held_out']])}, f, indent=1)
    with open(base + '.md', 'w') as f:
        f.write(f"# Corpus run {stamp} (occlint {commit}, mode {mode})\n\n"
                "`python3 bench/corpus/run.py --mode " + mode + " --results` (bench/corpus/README.md).\n\n"
                "| project | held out | units | (file, arch) | nvcc compiles | parse cleanly | % | with errors |"
                " degraded | exit 2 | crashes | kernels | launch sites | exact block | exact grid | occupancy | findings |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            pct = f"{100.0 * r['clean'] / r['nvcc_ok']:.1f}" if r['nvcc_ok'] else '-'
            f.write(f"| {r['project']} | {'yes' if r['held_out'] else 'no'} | {r['units']} | {r['pairs']} | "
                    f"{r['nvcc_ok']} | {r['clean']} | {pct} | {r['errors']} | {r['degraded']} | {r['exit2']} | "
                    f"{r['crashes']} | {r['kernels']} | {r['launch_sites']} | {r['exact_block']} | {r['exact_grid']} | "
                    f"{r['occupancy_known']} | "
                    f"{sum(r['findings'].values())} |\n")
        for label, key in (('Tuning set', 'tuning_set'), ('Held out', 'held_out')):
            t = totals([r for r in rows if r['held_out'] == (key == 'held_out')])
            f.write(f"\n{label}: {t['nvcc_ok']} (file, arch) pairs nvcc compiles; {t['clean']} parse with no Clang "
                    f"error ({t['clean_percent']} %); {t['errors']} with errors, {t['degraded']} of them degraded "
                    f"(warning, exit 0/1); exit 2: {t['exit2']}; crashes: {t['crashes']}; launch sites "
                    f"{t['launch_sites']}: exact block {t['exact_block']}, exact grid {t['exact_grid']}, "
                    f"occupancy {t['occupancy_known']} "
                    f"(one value or a complete set); {t['block_set_open']} more with known values in an open set "
                    f"(a helper other files may call).\n")
        f.write("\nFindings per check:\n\n")
        for r in rows:
            f.write(f"- {r['project']}: " + (', '.join(f"{c} {n}" for c, n in sorted(r['findings'].items())) or 'none')
                    + "\n")
    print(f"written: {base}.md, {base}.json")


if __name__ == '__main__':
    main()
