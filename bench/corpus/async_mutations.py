#!/usr/bin/env python3
"""Mutations of the corpus's pipelined kernels: does a broken copy of correct
code get a hazard finding? (docs/async-pipelines.md, issue 46.)

For each pipelined kernel file of a tuning project (the files labelled in
bench/corpus/labels/async-pipelines.tsv), every wait inside the file is
mutated in a scratch copy, one mutation per copy, never in the corpus tree and
never committed:
  drop-wait        the wait's line removed;
  loosen-wait      its pending count raised by one (wait_group 1 -> 2);
  drop-barrier     the first block barrier after it removed.
A cuda::barrier's arrive_and_wait() is a wait without a count (dropped, not
loosened). Each copy is linted with the unit's compile command (the project's
database, as async_pipelines.py writes it, with the file name swapped); a
labelled header (SGEMM_CUDA's kernels/*.cuh) is mutated in a scratch copy of
the whole source tree and linted through a unit that includes it, with the
command's paths moved into that copy. Both with
cuda-pipeline-* enabled, and the findings counted. A wait after the
pipelined loop (the drain before the epilogue) is reported apart: removing it
is a bug only where the epilogue reads the ring. Printed: one line per
mutation and the totals, found / mutated.

Usage: async_mutations.py [--work DIR] PROJECT...   (after async_pipelines.py
has extracted the project and written its database under WORK)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import async_pipelines  # noqa: E402
import pick_units  # noqa: E402
import run  # noqa: E402

WAIT = re.compile(r'(cp\.async\.wait_group|WAIT_GROUP|__pipeline_wait_prior|wait_prior)\s*[(<]?\s*(\d+)'
                  r'|arrive_and_wait\s*\(\s*\)')
BARRIER = re.compile(r'__syncthreads\s*\(\s*\)|\.sync\s*\(\s*\)')


def mutations(lines):
    """(kind, line index, new lines) for every wait in the file."""
    for i, line in enumerate(lines):
        m = WAIT.search(line)
        if not m or line.lstrip().startswith(('#define', '//')):
            continue
        yield 'drop-wait', i, lines[:i] + lines[i + 1:]
        if m.group(2) is not None:
            n = int(m.group(2))
            loosened = line[:m.start(2)] + str(n + 1) + line[m.end(2):]
            yield 'loosen-wait', i, lines[:i] + [loosened] + lines[i + 1:]
        for j in range(i + 1, min(i + 20, len(lines))):
            if BARRIER.search(lines[j]):
                yield 'drop-barrier', j, lines[:j] + lines[j + 1:]
                break


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def including_unit(root, header, commands):
    """A unit of the database that includes header (through the project's
    quoted includes), or None."""
    def includes(path, seen):
        if path in seen:
            return False
        seen.add(path)
        try:
            with open(os.path.join(root, path), errors='replace') as f:
                text = f.read()
        except OSError:
            return False
        for name in INCLUDE.findall(text):
            target = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if target == header or includes(target, seen):
                return True
        return False
    for unit in sorted(commands):
        if includes(unit, set()):
            return unit
    return None


def moved(command, root, copy_root):
    """The command with the source tree's paths moved into copy_root."""
    swap = lambda a: a.replace(root, copy_root)  # noqa: E731
    return {'directory': swap(command['directory']), 'file': swap(command['file']),
            'arguments': [swap(a) for a in command['arguments']]}


def lint(command, path, db_dir=None):
    args = [a if a != command['file'] else path for a in command['arguments']]
    entry = {'directory': command['directory'], 'arguments': args, 'file': path}
    db_dir = db_dir or os.path.dirname(path)
    os.makedirs(db_dir, exist_ok=True)
    with open(os.path.join(db_dir, 'compile_commands.json'), 'w') as f:
        json.dump([entry], f)
    out = path + '.json'
    subprocess.run([run.OCCLINT, '-p', db_dir, '--format=json', f'--output={out}', '--quiet', '--no-compile',
                    '--checks=-*,cuda-pipeline-*', path], capture_output=True, timeout=600)
    with open(out) as f:
        result = json.load(f)
    return [d for d in result.get('diagnostics', []) if d['check'].startswith('cuda-pipeline-')]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--work', default='/tmp/occlint-corpus')
    parser.add_argument('projects', nargs='+')
    args = parser.parse_args()
    labelled = async_pipelines.labels()
    for name in args.projects:
        project = pick_units.project_named(name, 'async_mutations.py')
        if project.get('held_out'):
            sys.exit(f'{name} is held out: mutations are for tuning projects')
        root = run.extract(project, args.work)
        db = os.path.join(args.work, 'db', name, project['archs'][0], 'compile_commands.json')
        with open(db) as f:
            commands = {os.path.relpath(c['file'], root): c for c in json.load(f)}
        units = {}
        for (path, _kernel) in labelled:
            unit = path if path in commands else including_unit(root, path, commands)
            if unit and os.path.exists(os.path.join(root, path)):
                units[path] = unit
        scratch = os.path.join(args.work, 'mutations', name)
        shutil.rmtree(scratch, ignore_errors=True)
        totals = {}
        for path in sorted(units):
            unit = units[path]
            with open(os.path.join(root, path)) as f:
                lines = f.read().split('\n')
            clean = lint(commands[unit], os.path.join(root, unit),
                         db_dir=os.path.join(scratch, 'clean') if unit != path else None)
            for number, (kind, at, mutated) in enumerate(mutations(lines)):
                if unit == path:
                    where = os.path.join(scratch, f'{number}', os.path.dirname(path))
                    os.makedirs(where, exist_ok=True)
                    copy = os.path.join(where, os.path.basename(path))
                    with open(copy, 'w') as f:
                        f.write('\n'.join(mutated))
                    found = lint(commands[path], copy)
                else:
                    # A header: the whole tree copied, the header mutated there.
                    copy_root = os.path.join(scratch, f'{number}', 'tree')
                    shutil.copytree(root, copy_root, symlinks=True)
                    with open(os.path.join(copy_root, path), 'w') as f:
                        f.write('\n'.join(mutated))
                    command = moved(commands[unit], root, copy_root)
                    found = lint(command, command['file'], db_dir=os.path.join(scratch, f'{number}'))
                new = len(found) - len(clean)
                key = kind
                totals.setdefault(key, [0, 0])
                totals[key][1] += 1
                totals[key][0] += new > 0
                checks = sorted({d['check'] for d in found})
                print(f'{name}: {path}:{at + 1}: {kind}: {"found" if new > 0 else "NOT found"} '
                      f'({len(found)} findings, {len(clean)} on the unmutated file) {",".join(checks)}')
        print(f'{name}: ' + ', '.join(f'{k} {v[0]}/{v[1]} found' for k, v in sorted(totals.items())))


if __name__ == '__main__':
    main()
