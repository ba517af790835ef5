#!/usr/bin/env python3
"""Adds a new occlint check, after clang-tidy's add_new_check.py.

  scripts/add_new_check.py NAME [--severity warning|error|remark]
                                [--off-by-default] [--summary TEXT]

NAME is the check's name, cuda-<group>-<what> (cuda-launch-odd-grid). It writes

  analyses/checks/<Class>.h    the class, with its declaration (name,
                               severity, default on/off, precedence row)
  analyses/checks/<Class>.cpp  checkFacts(): a first finding on every kernel,
                               to be replaced by the rule
  docs/checks/NAME.md          the check's page (embedded in the binary)
  test-inputs/checks/NAME.cu   a test input with inline expectations

and registers the check: a line in analyses/checks/CheckRegistry.cpp's list
and a row in the two check tables (docs/checks/README.md, README.md), which
tests/checks/CheckRegistryTest.cpp holds against the declaration. What is left
by hand is in docs/adding-a-check.md: the rule (<Class>.cpp), its test input
and its page. Run from anywhere inside the checkout; nothing is overwritten.
Exit status: 0 written, 1 refused (a bad name, the check exists), 2 bad usage.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = re.compile(r"^cuda-[a-z][a-z0-9]*(-[a-z0-9]+)+$")
MARKER = "      // add_new_check.py: new checks above this line\n"


def class_name(name):
    """cuda-launch-odd-grid -> LaunchOddGridCheck"""
    return "".join(part.capitalize() for part in name.split("-")[1:]) + "Check"


def header(name, cls, severity, on, summary):
    sev = severity.capitalize()
    default = "OnByDefault" if on else "OffByDefault"
    return f"""// {name}: {summary}
// docs/checks/{name}.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {{

class {cls} : public OcclintCheck {{
public:
  static constexpr CheckDeclaration Declaration{{"{name}", CheckSeverity::{sev}, {default}}};
  {cls}(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {{}}

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;
}};

}} // namespace clang::tidy::occlint
"""


def source(name, cls, severity):
    level = {"error": "Error", "warning": "Warning", "remark": "Remark"}[severity]
    return f"""#include "checks/{cls}.h"

namespace clang::tidy::occlint {{

// The facts every check shares (facts/TranslationUnitFacts.h): the kernels,
// the launches with their evaluated values, their occupancy on each target.
// A first finding on every kernel, so that the new check runs end to end;
// replace it with the rule.
void {cls}::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {{
  for (const auto &Kernel : Facts.kernels)
    diag(Kernel->decl->getLocation(), "kernel '%0' on %1", DiagnosticIDs::{level})
        << Kernel->displayName << Facts.arch;
}}

}} // namespace clang::tidy::occlint
"""


def page(name, summary):
    return f"""# {name}

{summary[0].upper() + summary[1:]}.

## What it reports

One {{severity}} per kernel and parsed arch, at the kernel's name:

```
kernel '<kernel>' on <arch>
```

## Options

The options every check shares (`Targets`, `PtxasLog`): [the index](README.md).
"""


def test_input(name, cls, severity):
    return f"""// Test input for {name} (analyses/checks/{cls}.cpp).
// RUN-ARGS: --gpu=H100 --checks=-*,{name} --no-compile
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {{ // expect-{severity} {{{{kernel 'scale' on sm_90}}}} [{name}]
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}}

void run(float *x, int n) {{ scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n); }}
"""


def insert_row(path, row, prefix):
    """Inserts `row` after the last row of the first table whose rows start
    with `prefix` (the check table; a page may have other tables of checks)."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    first = next((i for i, l in enumerate(lines) if l.startswith(prefix)), None)
    if first is None:
        raise SystemExit(f"add_new_check: no check table in {path}")
    last = first
    while last + 1 < len(lines) and lines[last + 1].startswith(prefix):
        last += 1
    lines.insert(last + 1, row)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def register(cls):
    path = os.path.join(ROOT, "analyses/checks/CheckRegistry.cpp")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if MARKER not in text:
        raise SystemExit(f"add_new_check: {path} has lost its marker line '{MARKER.strip()}'")
    text = text.replace(MARKER, f"      entry<{cls}>(),\n" + MARKER)
    includes = list(re.finditer(r'#include "checks/[A-Za-z]+Check\.h"\n', text))
    text = text[:includes[-1].end()] + f'#include "checks/{cls}.h"\n' + text[includes[-1].end():]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name")
    parser.add_argument("--severity", choices=("warning", "error", "remark"), default="warning")
    parser.add_argument("--off-by-default", action="store_true")
    parser.add_argument("--summary", default="what the check finds, in one line")
    args = parser.parse_args(argv[1:])
    name, severity, on = args.name, args.severity, not args.off_by_default
    summary = args.summary.rstrip(".")
    if not NAME.match(name):
        print(f"add_new_check: '{name}' is not a check name: cuda-<group>-<what>, lower case, "
              "words joined by '-' (cuda-launch-odd-grid)", file=sys.stderr)
        return 1
    cls = class_name(name)
    files = {
        f"analyses/checks/{cls}.h": header(name, cls, severity, on, summary),
        f"analyses/checks/{cls}.cpp": source(name, cls, severity),
        f"docs/checks/{name}.md": page(name, summary).replace("{severity}", severity),
        f"test-inputs/checks/{name}.cu": test_input(name, cls, severity),
    }
    for rel in files:
        if os.path.exists(os.path.join(ROOT, rel)):
            print(f"add_new_check: {rel} exists: {name} is already a check (nothing written)", file=sys.stderr)
            return 1
    for rel, text in files.items():
        with open(os.path.join(ROOT, rel), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {rel}")
    register(cls)
    print("registered it in analyses/checks/CheckRegistry.cpp")
    shown_severity = "**error**" if severity == "error" else severity
    default = "on" if on else "**off** in occlint"
    insert_row(os.path.join(ROOT, "docs/checks/README.md"),
               f"| `{name}` | {shown_severity} | {summary} | {default} | [doc]({name}.md) |\n", "| `cuda-")
    notes = [w for w in (severity if severity != "warning" else "", "" if on else "off by default") if w]
    first = f"`{name}`" + (f" ({', '.join(notes)})" if notes else "")
    insert_row(os.path.join(ROOT, "README.md"),
               f"| {first} | {summary} | [doc](docs/checks/{name}.md) |\n", "| `cuda-")
    print("added its rows to docs/checks/README.md and README.md")
    print(f"left to write: the rule (analyses/checks/{cls}.cpp), its test input "
          f"(test-inputs/checks/{name}.cu) and its page (docs/checks/{name}.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
