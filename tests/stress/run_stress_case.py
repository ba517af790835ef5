#!/usr/bin/env python3
"""One case of the stress set (test-inputs/stress/generate.py), generated at
test time and run through occlint with --no-compile, as text and as JSON.
Passes when occlint ends with exit 0, 1 or 2 (never a signal, never 3) and the
JSON output is one whole document. The time it takes is measured side by side
with Clang's parse by bench/scaling.py, not here; CTest's TIMEOUT on this test
only catches a hang.

    run_stress_case.py OCCLINT GENERATE_PY WORK_DIR CASE
"""
import json
import os
import subprocess
import sys


def main():
    occlint, generate, work, case = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    path = subprocess.check_output([sys.executable, generate, work, case], text=True).strip()
    env = dict(os.environ, OCCLINT_CACHE_DIR=os.path.join(work, "cache"))
    failures = []
    for fmt in ("text", "json"):
        r = subprocess.run([occlint, "--no-compile", "--gpu", "H100", f"--format={fmt}", path, "--"],
                           capture_output=True, text=True, env=env)
        if r.returncode not in (0, 1, 2):
            failures.append(f"--format={fmt}: exit {r.returncode} (a negative code is a signal)\n{r.stderr[-4000:]}")
            continue
        if fmt == "json":
            try:
                json.loads(r.stdout)
            except ValueError as e:
                failures.append(f"--format=json: not one JSON document: {e}")
        print(f"{case} --format={fmt}: exit {r.returncode}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
