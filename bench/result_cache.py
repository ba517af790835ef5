#!/usr/bin/env python3
"""The result cache on real code (issue 48): what a re-lint costs when
nothing changed, and when one file did, against `clang -fsyntax-only` over the
same units, in one run.

Method, per corpus project (its database from `bench/corpus/run.py`, the
project's first arch; the units whose nvcc compile fails are left out as in
corpus_scale.py): an untimed first pass (`occlint -p --no-result-cache`, which
also fills occlint's cache of resource reports and brings sources and headers
into the page cache). Then, REPS times, in this order:
- clang -fsyntax-only: each entry of `occlint compdb`'s database, J at a time;
- occlint, analysed: `occlint -p --jobs J` with an empty result cache (the
  resource reports come from occlint's cache, as on any second run);
- occlint, unchanged: the same again, every unit from the result cache;
- occlint, one file edited: a comment appended to one unit's source (the
  first), then the same run, then the source restored.
The key's own cost (hashing each unit's files and asking its resource reports
again) is what `--verbose` says per hit ("checked in N ms"), summed over the
units of the unchanged run. Wall times (median of REPS), measured as
build_scale.py measures them.

Writes bench/results/result-cache-<UTC stamp>.md and .json.

  bench/result_cache.py [--work DIR] [--jobs 2] [--reps 3] [--occlint PATH] PROJECT...
"""
import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'corpus'))
from build_scale import each_line, measure, without_output  # noqa: E402
from corpus_scale import CHECKS, GPU_OF, syntax_only_script  # noqa: E402
import pick_units  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--work', default=os.environ.get('OCCLINT_CORPUS_WORK', '/tmp/occlint-corpus'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--occlint', default=os.path.join(ROOT, 'build', 'bin', 'occlint'))
    ap.add_argument('projects', nargs='+')
    args = ap.parse_args()
    occlint = os.path.abspath(args.occlint)
    projects = [p for p in pick_units.manifest()['projects'] if p['name'] in args.projects]
    results = []
    for project in projects:
        arch = project['archs'][0]
        gpu = GPU_OF[arch]
        entries = json.load(open(os.path.join(args.work, 'db', project['name'], arch, 'compile_commands.json')))
        work = os.path.join(args.work, 'result-cache', project['name'])
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        # The units nvcc compiles (an untimed pass), as corpus_scale.py keeps them.
        kept = []
        for i, e in enumerate(entries):
            line = (f"cd {shlex.quote(e['directory'])} && {shlex.join(without_output(e['arguments']))} "
                    f"-o {shlex.quote(os.path.join(work, f'{i}.o'))}")
            if subprocess.run(line, shell=True, capture_output=True).returncode == 0:
                kept.append(e)
        database = os.path.join(work, 'db')
        os.makedirs(database)
        with open(os.path.join(database, 'compile_commands.json'), 'w') as f:
            json.dump([{'directory': e['directory'], 'file': e['file'], 'arguments': without_output(e['arguments'])}
                       for e in kept], f, indent=1)
        _, syntax = syntax_only_script(occlint, database, work, gpu)
        cache = os.path.join(work, 'cache')
        env = dict(os.environ, OCCLINT_CACHE_DIR=cache)
        lint = (f"{shlex.quote(occlint)} --gpu {gpu} --jobs {args.jobs} {CHECKS} --format json --quiet "
                f"-p {shlex.quote(database)}")
        subprocess.run(lint + ' --no-result-cache > /dev/null', shell=True, env=env)  # the untimed first pass
        edited = kept[0]['file'] if os.path.isabs(kept[0]['file']) else os.path.join(kept[0]['directory'],
                                                                                      kept[0]['file'])
        original = open(edited, 'rb').read()
        rows = {'clang -fsyntax-only': [], 'occlint, analysed': [], 'occlint, unchanged': [],
                'occlint, one file edited': []}
        key_ms = []
        outputs = {}
        try:
            for rep in range(args.reps):
                rows['clang -fsyntax-only'].append(measure(each_line(args.jobs, syntax))[0])
                shutil.rmtree(os.path.join(cache, 'v1'), ignore_errors=True)
                # The resource reports again, untimed, without the result cache: the
                # analysed row then costs the analysis alone.
                subprocess.run(lint + ' --no-result-cache > /dev/null', shell=True, env=env)
                out = os.path.join(work, 'analysed.json')
                rows['occlint, analysed'].append(measure(f"{lint} > {shlex.quote(out)}", env=env)[0])
                outputs['analysed'] = open(out).read()
                out = os.path.join(work, 'unchanged.json')
                rows['occlint, unchanged'].append(measure(f"{lint} > {shlex.quote(out)}", env=env)[0])
                outputs['unchanged'] = open(out).read()
                verbose = subprocess.run(lint.replace('--quiet', '--verbose') + ' 2>&1 >/dev/null', shell=True,
                                         env=env, capture_output=True, text=True).stdout
                key_ms.append(sum(float(m) for m in re.findall(r'result cache: hit, checked in ([0-9.]+) ms',
                                                               verbose)))
                with open(edited, 'ab') as f:
                    f.write(b'\n// edited by bench/result_cache.py\n')
                rows['occlint, one file edited'].append(measure(f"{lint} > /dev/null", env=env)[0])
                with open(edited, 'wb') as f:
                    f.write(original)
        finally:
            with open(edited, 'wb') as f:
                f.write(original)
        median = {name: statistics.median(times) for name, times in rows.items()}
        results.append({'project': project['name'], 'arch': arch, 'gpu': gpu, 'units': len(kept),
                        'jobs': args.jobs, 'reps': args.reps, 'seconds': rows, 'median': median,
                        'keyMilliseconds': key_ms, 'sameOutput': outputs.get('analysed') == outputs.get('unchanged')})
        print(json.dumps(results[-1]['median']), f"key {statistics.median(key_ms):.0f} ms",
              'same output' if results[-1]['sameOutput'] else 'OUTPUT DIFFERS', flush=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
    base = os.path.join(ROOT, 'bench', 'results', f'result-cache-{stamp}')
    with open(base + '.json', 'w') as f:
        json.dump(results, f, indent=1)
    with open(base + '.md', 'w') as f:
        f.write(f"# Result cache on the corpus ({stamp} UTC)\n\n`bench/result_cache.py` (method in its docstring), "
                f"`--jobs {args.jobs}`, median of {args.reps} runs.\n\n")
        f.write('| project | units | clang -fsyntax-only | occlint, analysed | occlint, unchanged | '
                'unchanged / syntax-only | key (summed over units) | one file edited | same output |\n')
        f.write('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n')
        for r in results:
            m = r['median']
            f.write(f"| {r['project']} | {r['units']} | {m['clang -fsyntax-only']:.2f} s | "
                    f"{m['occlint, analysed']:.2f} s | {m['occlint, unchanged']:.2f} s | "
                    f"{100 * m['occlint, unchanged'] / m['clang -fsyntax-only']:.1f} % | "
                    f"{statistics.median(r['keyMilliseconds']):.0f} ms | {m['occlint, one file edited']:.2f} s | "
                    f"{'yes' if r['sameOutput'] else 'no'} |\n")
    print(base + '.md')


if __name__ == '__main__':
    main()
