#!/usr/bin/env python3
"""Checks the source layout that issue 10 set (README's "Layout" table).

  check_layout.py includes ROOT   every #include "..." in analyses/ and tool/
                                  points down the pipeline, spelled with its
                                  folder ("facts/LaunchSites.h")
  check_layout.py sizes ROOT      no .cpp/.h in analyses/ or tool/ is over 600
                                  lines (tool/builtin-cuda/'s declaration
                                  headers and tool/nvcc-compat/'s prelude,
                                  headers for the parsed CUDA code, aside)
  check_layout.py self-test ROOT  the two checks above catch planted violations
                                  in a scratch tree, and pass a clean one

The pipeline, each folder allowed to include only itself and the folders its
CMakeLists.txt names (the ALLOWED table below):
  analyses/gpu <- analyses/toolchain                 (no LLVM)
  analyses/ast; analyses/values (<- ast, gpu); analyses/pipelines (<- ast)
  <- analyses/facts <- analyses/divergence, analyses/checks/fixes
  <- analyses/checks
  <- tool/ (what every command shares) <- tool/outputs <- tool/lint
  <- tool/report, tool/lsp (siblings: neither includes the other)
  <- tool/buildlint (`occlint merge --html` draws the report page)
  tool/wrap (occlint-wrap, the compiler launcher) includes analyses/toolchain
  and analyses/gpu only: it links no LLVM or Clang
Exit status: 0 clean, 1 violations (one line each), 2 bad usage.
"""
import os
import re
import sys
import tempfile

MAX_LINES = 600

# layer -> the layers it may include (besides itself)
_BELOW_FACTS = {"gpu", "toolchain", "ast", "values", "pipelines"}
_ANALYSES = _BELOW_FACTS | {"facts", "divergence", "fixes", "checks"}
ALLOWED = {
    "gpu": set(),
    "toolchain": {"gpu"},
    "ast": set(),
    "values": {"ast", "gpu"},
    "pipelines": {"ast"},
    "facts": _BELOW_FACTS,
    "divergence": _BELOW_FACTS | {"facts"},
    "fixes": _BELOW_FACTS | {"facts"},
    "checks": _ANALYSES - {"checks"},
    "tool": _ANALYSES,
    "outputs": _ANALYSES | {"tool"},
    "lint": _ANALYSES | {"tool", "outputs"},
    "report": _ANALYSES | {"tool", "outputs", "lint"},
    "lsp": _ANALYSES | {"tool", "outputs", "lint"},
    "buildlint": _ANALYSES | {"tool", "outputs", "lint", "report"},
    "wrap": {"gpu", "toolchain"},
}
ANALYSIS_LAYERS = ("gpu", "toolchain", "ast", "values", "pipelines", "facts", "divergence", "checks")
TOOL_LAYERS = ("outputs", "lint", "report", "lsp", "buildlint", "wrap")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    """(path relative to root, layer) of every .cpp/.h in analyses/ and tool/."""
    for top in ("analyses", "tool"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            # Headers for the CUDA code occlint parses, not occlint's own code.
            dirs[:] = [d for d in dirs if d not in ("builtin-cuda", "nvcc-compat")]
            for name in files:
                if not name.endswith((".cpp", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), root)
                parts = rel.split(os.sep)
                if top == "analyses":
                    layer = parts[1] if len(parts) > 2 else None
                    if parts[1:3] == ["checks", "fixes"] and len(parts) > 3:
                        layer = "fixes"
                else:
                    layer = parts[1] if len(parts) > 2 else "tool"
                yield rel, layer


def project_headers(root):
    """basename -> [relative paths] of every project header."""
    found = {}
    for rel, _ in sources(root):
        if rel.endswith(".h"):
            found.setdefault(os.path.basename(rel), []).append(rel)
    return found


def resolve(root, spelled):
    """The layer an include spelled this way names, or None if not ours."""
    head = spelled.split("/")[0]
    if head in ANALYSIS_LAYERS and os.path.isfile(os.path.join(root, "analyses", spelled)):
        return "fixes" if spelled.startswith("checks/fixes/") else head
    if head in TOOL_LAYERS and os.path.isfile(os.path.join(root, "tool", spelled)):
        return head
    if "/" not in spelled and os.path.isfile(os.path.join(root, "tool", spelled)):
        return "tool"
    return None


def include_problems(root):
    problems = []
    headers = project_headers(root)
    for rel, layer in sources(root):
        if layer not in ALLOWED:
            problems.append(f"{rel}: not in a layer folder ({', '.join(ALLOWED)})")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            spelled = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            target = resolve(root, spelled)
            if target is None:
                ours = headers.get(os.path.basename(spelled))
                if ours or spelled.startswith("."):
                    problems.append(f"{rel}:{line}: #include \"{spelled}\": spell a project header with its "
                                    f"folder ({' or '.join(ours or ['layer/File.h'])}, from analyses/ or tool/)")
                continue
            if target == "tool" and layer in ANALYSIS_LAYERS:
                problems.append(f"{rel}:{line}: #include \"{spelled}\": analyses/{layer} includes tool/ (upward)")
            elif target != layer and target not in ALLOWED[layer]:
                problems.append(f"{rel}:{line}: #include \"{spelled}\": {layer} may not include {target} "
                                f"(dependencies point down the pipeline: {layer} may use "
                                f"{', '.join(sorted(ALLOWED[layer])) or 'nothing else'})")
    return problems


def size_problems(root):
    problems = []
    for rel, _ in sources(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            lines = sum(1 for _ in f)
        if lines > MAX_LINES:
            problems.append(f"{rel}: {lines} lines (more than {MAX_LINES}: split it by responsibility)")
    return problems


def self_test(_root):
    """Plants each kind of violation in a scratch tree; every one must be found."""
    def write(base, rel, text):
        path = os.path.join(base, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    clean = {
        "analyses/gpu/Occupancy.h": "#pragma once\n#include <vector>\n",
        "analyses/facts/LaunchSites.h": '#include "gpu/Occupancy.h"\n#include "clang/AST/Expr.h"\n',
        "analyses/checks/Check.cpp": '#include "facts/LaunchSites.h"\n',
        "tool/ExitCodes.h": "#pragma once\n",
        "tool/lint/LintPipeline.h": '#include "ExitCodes.h"\n#include "checks/Check.h"\n',
        "tool/lint/LintPipeline.cpp": '#include "lint/LintPipeline.h"\n',
        "tool/report/Report.cpp": '#include "lint/LintPipeline.h"\n#include "gpu/Occupancy.h"\n',
        "tool/lsp/Server.cpp": '#include "lint/LintPipeline.h"\n',
        "tool/builtin-cuda/huge.h": "x\n" * (MAX_LINES + 10),
        "analyses/checks/Check.h": "x\n" * MAX_LINES,
        "analyses/toolchain/Compile.h": '#include "gpu/Occupancy.h"\n',
        "analyses/ast/Walker.h": "#pragma once\n",
        "analyses/values/Values.h": '#include "ast/Walker.h"\n#include "gpu/Occupancy.h"\n',
        "analyses/pipelines/Ring.h": '#include "ast/Walker.h"\n',
        "analyses/checks/fixes/Fix.h": '#include "facts/LaunchSites.h"\n#include "values/Values.h"\n',
        "analyses/checks/Check2.cpp": '#include "checks/fixes/Fix.h"\n',
        "tool/wrap/main.cpp": '#include "toolchain/Compile.h"\n',
    }
    planted = {
        "analyses/gpu/Bad.cpp": ('#include "toolchain/Compile.h"\n', "gpu may not include toolchain"),
        "analyses/toolchain/Bad.cpp": ('#include "ast/Walker.h"\n', "toolchain may not include ast"),
        "analyses/ast/Bad.cpp": ('#include "values/Values.h"\n', "ast may not include values"),
        "analyses/values/Bad.cpp": ('#include "facts/LaunchSites.h"\n', "values may not include facts"),
        "analyses/pipelines/Bad.cpp": ('#include "values/Values.h"\n', "pipelines may not include values"),
        "analyses/facts/Bad2.cpp": ('#include "checks/fixes/Fix.h"\n', "facts may not include fixes"),
        "analyses/checks/fixes/Bad.cpp": ('#include "checks/Check.h"\n', "fixes may not include checks"),
        "analyses/divergence/Bad2.cpp": ('#include "checks/fixes/Fix.h"\n', "divergence may not include fixes"),
        "tool/wrap/Bad.cpp": ('#include "facts/LaunchSites.h"\n', "wrap may not include facts"),
        "analyses/facts/Bad.cpp": ('#include "ExitCodes.h"\n', "includes tool/ (upward)"),
        "analyses/divergence/Bad.cpp": ('#include "LaunchSites.h"\n', "spell a project header with its folder"),
        "tool/report/Bad.cpp": ('#include "lsp/Server.h"\n', "report may not include lsp"),
        "tool/outputs/Bad.cpp": ('#include "lint/LintPipeline.h"\n', "outputs may not include lint"),
        "tool/lsp/Relative.cpp": ('#include "../lint/LintPipeline.h"\n', "spell a project header"),
        "analyses/Loose.cpp": ("\n", "not in a layer folder"),
    }
    failures = []
    with tempfile.TemporaryDirectory() as base:
        for rel, text in clean.items():
            write(base, rel, text)
        write(base, "tool/lsp/Server.h", "#pragma once\n")
        got = include_problems(base) + size_problems(base)
        if got:
            failures.append("clean tree reported: " + "; ".join(got))
        write(base, "analyses/facts/Long.cpp", "x\n" * (MAX_LINES + 1))
        if not any("Long.cpp: 601 lines" in p for p in size_problems(base)):
            failures.append("a 601-line file was not reported")
        for rel, (text, _) in planted.items():
            write(base, rel, text)
        got = include_problems(base)
        for rel, (_, expected) in planted.items():
            if not any(p.startswith(rel) and expected in p for p in got):
                failures.append(f"{rel}: expected a problem containing '{expected}', got {got}")
        if len(got) != len(planted):
            failures.append(f"expected {len(planted)} problems, got {len(got)}: {got}")
    return failures


def main(argv):
    if len(argv) != 3 or argv[1] not in ("includes", "sizes", "self-test"):
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[2])
    check = {"includes": include_problems, "sizes": size_problems, "self-test": self_test}[argv[1]]
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
