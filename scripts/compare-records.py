#!/usr/bin/env python3
"""Compares two records of scripts/record-outputs.sh made by two builds:

  scripts/compare-records.py BEFORE_DIR AFTER_DIR [BUILD_DIR...]

byte for byte, after two normalisations: the build folders given (the
records name them in SARIF's help URIs; default /tmp/bc2 and /tmp/b45 aside,
pass those of your builds) become <build>, and SARIF's rules lose their
"help" (the whole check page, embedded at build time: a change to a page is
not a change of behaviour). Prints the first differences; exit 0 when every
file is the same, 1 otherwise.
"""
import json, os, sys, difflib
if len(sys.argv) < 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
A, B = sys.argv[1], sys.argv[2]
BUILDS = sys.argv[3:] or ["/tmp/bc2", "/tmp/b45"]
def norm(path, text):
    for build in BUILDS:
        text = text.replace(build, "<build>")
    if path.endswith(".sarif.out") and text.strip().startswith("{"):
        try:
            j = json.loads(text)
            for run in j.get("runs", []):
                for rule in run.get("tool", {}).get("driver", {}).get("rules", []):
                    rule.pop("help", None)
            text = json.dumps(j, indent=1, sort_keys=True)
        except Exception as e:
            pass
    return text
names = sorted(set(os.listdir(A)) | set(os.listdir(B)))
bad = 0
for n in names:
    pa, pb = os.path.join(A, n), os.path.join(B, n)
    if not (os.path.exists(pa) and os.path.exists(pb)):
        print("only in one:", n); bad += 1; continue
    ta, tb = norm(n, open(pa, errors="replace").read()), norm(n, open(pb, errors="replace").read())
    if ta != tb:
        bad += 1
        if bad <= 8:
            print("DIFF", n)
            for l in list(difflib.unified_diff(ta.splitlines(), tb.splitlines(), lineterm="", n=0))[:12]:
                print("   ", l[:300])
print(f"{len(names)} files, {bad} differ after normalising build paths and SARIF rules' help pages")
sys.exit(1 if bad else 0)
