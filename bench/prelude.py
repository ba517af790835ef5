#!/usr/bin/env python3
"""What the nvcc compatibility layer costs per parse (docs/nvcc-parity.md).

Method: for each file, the same Clang 22 device-only parse for sm_90
(`clang++-22 -fsyntax-only --cuda-device-only --cuda-gpu-arch=sm_90
--cuda-path=... -Wno-unknown-cuda-version -std=c++17`), once as is and once
with the layer's additions (`-include <prelude> -idirafter <host compiler's
include dir>`), alternated, RUNS times each (default 7); the median wall time
of each and their difference are reported. Files: the bundled example, the
test inputs of test-inputs/nvcc-parity/ (parsed only with the layer, since
Clang alone rejects them, so they give the layer's absolute time), and any
files given on the command line as FILE.cu[:FLAGS] (e.g. corpus units from
/tmp/occlint-corpus/src/... with their -I flags, comma-separated), which
must parse both ways (a failed parse is marked).

Usage: RUNS=7 python3 bench/prelude.py [FILE.cu[:-Idir,-DX] ...]
Writes bench/results/prelude-<stamp>.md with the machine's load average.
"""
import datetime
import glob
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG = os.environ.get('CLANGXX', '/usr/lib/llvm-22/bin/clang++')
CUDA = os.environ.get('CUDA_PATH', '/usr/local/cuda')
PRELUDE = os.path.join(ROOT, 'tool', 'nvcc-compat', 'occlint_nvcc_compat.h')
RUNS = int(os.environ.get('RUNS', '7'))


def host_include_dir():
    out = subprocess.run(['g++', '-print-file-name=include'], capture_output=True, text=True).stdout.strip()
    return out if os.path.isdir(out) else None


def parse_time(path, layer):
    path, _, extra = path.partition(':')
    cmd = [CLANG, '-fsyntax-only', '--cuda-device-only', '--cuda-gpu-arch=sm_90', f'--cuda-path={CUDA}',
           '-Wno-unknown-cuda-version', '-std=c++17', '-w']
    if layer:
        cmd += ['-include', PRELUDE]
        if HOST_DIR:
            cmd += ['-idirafter', HOST_DIR]
    cmd += [f for f in extra.split(',') if f]
    start = time.perf_counter()
    ok = subprocess.run(cmd + [path], capture_output=True).returncode == 0
    return time.perf_counter() - start, ok


HOST_DIR = host_include_dir()


def main(argv):
    files = [os.path.join(ROOT, 'test-inputs', 'example', 'launches.cu')] + argv[1:]
    layer_only = sorted(glob.glob(os.path.join(ROOT, 'test-inputs', 'nvcc-parity', '*.cu')))
    rows = []
    for path in files + layer_only:
        both = path not in layer_only
        plain, layered, failed = [], [], False
        for _ in range(RUNS):
            if both:
                t, ok = parse_time(path, False)
                plain.append(t)
                failed |= not ok
            t, ok = parse_time(path, True)
            layered.append(t)
            failed |= not ok
        p = statistics.median(plain) if plain else None
        l = statistics.median(layered)
        rows.append((os.path.relpath(path, ROOT) if path.startswith(ROOT) else path, p, l, failed))
        print(f"{rows[-1][0]}: without {p if p is None else round(p, 3)} s, with {l:.3f} s"
              + ('' if p is None else f", +{(l - p) * 1000:.0f} ms ({100 * (l - p) / p:+.1f} %)")
              + (' (a parse failed)' if failed else ''))
        sys.stdout.flush()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d_%H%M')
    out = os.path.join(ROOT, 'bench', 'results', f'prelude-{stamp}.md')
    with open(out, 'w') as f:
        f.write(f"# The nvcc compatibility layer's parse cost, {stamp}\n\n`RUNS={RUNS} python3 bench/prelude.py`"
                f" (method in its docstring). Clang: {CLANG}. Host include dir: {HOST_DIR}. Load average at the end:"
                f" {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores.\n\n"
                "| file | without the layer (median s) | with it (median s) | difference |\n|---|---|---|---|\n")
        for name, p, l, failed in rows:
            diff = '-' if p is None else f"+{(l - p) * 1000:.0f} ms ({100 * (l - p) / p:+.1f} %)"
            f.write(f"| {name}{' (failed)' if failed else ''} | {'-' if p is None else f'{p:.3f}'} | {l:.3f} | {diff} |\n")
    print('written:', out)


if __name__ == '__main__':
    main(sys.argv)
