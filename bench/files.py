#!/usr/bin/env python3
"""The benchmark's inputs: one line per file, tab-separated:

    name <TAB> absolute path <TAB> extra flags (shell words) <TAB> dropped flags

Files: every test-inputs/checks/*.cu, test-inputs/example/launches.cu, and the
bundled project's translation units (test-inputs/project/src/*.cu, main.cu) with
the flags of their entries in test-inputs/project/compile_commands.json.in.

Of a project entry's nvcc command only the flags that mean the same to Clang
(parse), clang-tidy, occlint and nvcc are kept: -D, -U, -I, -O, -std. The rest
(-maxrregcount, --generate-code, -lineinfo, --expt-relaxed-constexpr, ...) is
listed as dropped: every tool here gets one arch (sm_90) from its own flag, and
Clang would reject nvcc-only spellings. occlint's own nvcc translation is not
used here on purpose: every tool gets the same words.
"""
import json
import pathlib
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = ROOT / "test-inputs" / "project"


def project_flags():
    entries = json.loads((PROJECT / "compile_commands.json.in").read_text())
    out = {}
    for e in entries:
        words = shlex.split(e["command"].replace("@PROJECT_SOURCE@", str(PROJECT)))
        source = e["file"].replace("@PROJECT_SOURCE@", str(PROJECT))
        kept, dropped = [], []
        i = 1  # words[0] is @NVCC@
        while i < len(words):
            w = words[i]
            if w in ("-c", "-o", "-x"):  # output, the input and its language: each tool has its own
                i += 2 if w != "-c" else 1
                continue
            if w == source:
                i += 1
                continue
            if w.startswith(("-D", "-U", "-I", "-std=")) or w in ("-O0", "-O1", "-O2", "-O3"):
                kept.append(w)
            else:
                dropped.append(w)
            i += 1
        out[source] = (kept, dropped)
    return out


def main():
    rows = []
    for f in sorted((ROOT / "test-inputs" / "checks").glob("*.cu")):
        rows.append((f"checks/{f.name}", str(f), [], []))
    ex = ROOT / "test-inputs" / "example" / "launches.cu"
    rows.append(("example/launches.cu", str(ex), [], []))
    flags = project_flags()
    for source in sorted(flags, key=lambda s: (not s.endswith("/main.cu"), s)):
        kept, dropped = flags[source]
        name = "project/" + str(pathlib.Path(source).relative_to(PROJECT))
        rows.append((name, source, kept, dropped))
    for name, path, kept, dropped in rows:
        if not pathlib.Path(path).is_file():
            sys.exit(f"files.py: {path}: no such file")
        print("\t".join([name, path, shlex.join(kept), shlex.join(dropped)]))


if __name__ == "__main__":
    main()
