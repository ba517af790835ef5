#!/usr/bin/env python3
"""The committed rule that picks the corpus's translation units.

For each project of manifest.json, at its fixed commit:
  1. candidates: the `.cu` files whose repository path matches one of the
     project's `sources` globs (fnmatch, `*` also crosses `/`);
  2. a candidate that another file of the repository #includes (an include
     path that is the candidate's path or a tail of it after a `/`) is not a
     translation unit and is dropped;
  3. candidates matching an `excluded` entry's path glob are dropped and
     listed with the entry's reason;
  4. the rest, sorted by path, are taken whole if there are at most
     `max_units`, else by a fixed stride: index floor(i * n / max_units) for
     i in 0 .. max_units-1, so the sample spreads over the whole tree.
Each unit is then counted once per arch of the project (per (file, arch)).

Usage: pick_units.py [PROJECT...]   prints one line per unit (project, path)
The repository snapshot must be at /work/.mirror/<owner>+<name>/repo (the
fetch tool), or at $OCCLINT_CORPUS_MIRRORS/<owner>+<name>/repo.
"""
import fnmatch
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = re.compile(rb'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
TEXT_SUFFIXES = ('.cu', '.cuh', '.h', '.hpp', '.hxx', '.inl', '.cpp', '.cc', '.c', '.cxx', '.ipp', '.tcc')


def manifest():
    with open(os.path.join(HERE, 'manifest.json')) as f:
        return json.load(f)


def project_named(name, script):
    """The manifest's project called NAME; else SCRIPT exits saying so."""
    project = next((p for p in manifest()['projects'] if p['name'] == name), None)
    if not project:
        sys.exit(f'{script}: no project {name!r} in the corpus manifest')
    return project


def mirror(project):
    base = os.environ.get('OCCLINT_CORPUS_MIRRORS', '/work/.mirror')
    return os.path.join(base, project['repo'].replace('/', '+'), 'repo')


def git(project, *args):
    return subprocess.run(['git', '-C', mirror(project), *args], check=True, capture_output=True).stdout


def repository_files(project):
    out = git(project, 'ls-tree', '-r', '--name-only', project['commit'])
    return out.decode().splitlines()


def included_paths(project, files):
    """Every include path written in a text file of the repository."""
    texts = [f for f in files if f.endswith(TEXT_SUFFIXES)]
    found = set()
    # One `git cat-file --batch` for all blobs: linear, no checkout needed.
    request = ''.join(f"{project['commit']}:{f}\n" for f in texts).encode()
    out = subprocess.run(['git', '-C', mirror(project), 'cat-file', '--batch'], input=request,
                         check=True, capture_output=True).stdout
    pos = 0
    while pos < len(out):
        header_end = out.index(b'\n', pos)
        header = out[pos:header_end].split()
        if len(header) < 3 or header[1] == b'missing':
            pos = header_end + 1
            continue
        size = int(header[2])
        blob = out[header_end + 1:header_end + 1 + size]
        pos = header_end + 1 + size + 1
        for m in INCLUDE.finditer(blob):
            found.add(m.group(1).decode(errors='replace').replace('\\', '/').lstrip('./'))
    return found


def is_included(path, includes):
    return any(path == inc or path.endswith('/' + inc) for inc in includes)


def select_units(project):
    """(units, excluded): units sorted; excluded as (path, reason)."""
    files = repository_files(project)
    candidates = [f for f in files if f.endswith('.cu') and any(fnmatch.fnmatch(f, g) for g in project['sources'])]
    includes = included_paths(project, files)
    # Only names that could match matter; keeps is_included fast.
    basenames = {os.path.basename(c) for c in candidates}
    includes = {i for i in includes if os.path.basename(i) in basenames}
    units, excluded = [], []
    for path in sorted(candidates):
        if is_included(path, includes):
            continue
        rule = next((e for e in project['excluded'] if fnmatch.fnmatch(path, e['path'])), None)
        if rule:
            excluded.append((path, rule['reason']))
            continue
        units.append(path)
    n, k = len(units), project['max_units']
    if n > k:
        units = [units[(i * n) // k] for i in range(k)]
    return units, excluded


def main(argv):
    wanted = set(argv[1:])
    for project in manifest()['projects']:
        if wanted and project['name'] not in wanted:
            continue
        units, _ = select_units(project)
        for u in units:
            print(project['name'], u)


if __name__ == '__main__':
    main(sys.argv)
