// A compiler for the launcher's tests: a shell script named nvcc (or clang++)
// that behaves like one as far as occlint-wrap can tell. What it prints and
// does is read from files next to its bin/ directory, so a test changes it
// between runs:
//   stdout.txt        printed on stdout
//   stderr.txt        printed on stderr first (host compiler output, ptxas warnings)
//   ptxas.txt         printed on stderr next, when the command has -Xptxas -v (or -Xcuda-ptxas -v)
//   tail.txt          printed on stderr last
//   includes.txt      the files named in the -MF dependency file besides the source
//   status.txt        its exit status (default 0)
//   signal.txt        when present, it ends with this signal (kill -SIG $$)
//   no-depfile        when present, it writes no dependency file
//   sleep.txt         when present, it writes its pid to started.txt and becomes
//                     `sleep <seconds>` (a compile that takes long: for signals)
// It writes the -o object and the -MF dependency file like a compiler does.
#pragma once

#include "TestFiles.h"

#include <filesystem>
#include <string>

namespace occlint::testing {

inline std::string writeFakeCompiler(const ScratchDir &Dir, const std::string &Name = "nvcc") {
  namespace fs = std::filesystem;
  const std::string Script = R"SH(#!/bin/sh
here=$(cd "$(dirname "$0")/.." && pwd)
out=; dep=; src=; verbose=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift ;;
    -MF) dep=$2; shift ;;
    -MT) shift ;;
    -Xptxas|-Xcuda-ptxas) case ",$2," in *,-v,*) verbose=1 ;; esac; shift ;;
    -*) ;;
    *) src=$1 ;;
  esac
  shift
done
if [ -f "$here/sleep.txt" ]; then echo $$ > "$here/started.txt"; exec sleep "$(cat "$here/sleep.txt")"; fi
[ -f "$here/stdout.txt" ] && cat "$here/stdout.txt"
[ -f "$here/stderr.txt" ] && cat "$here/stderr.txt" >&2
[ -n "$verbose" ] && [ -f "$here/ptxas.txt" ] && cat "$here/ptxas.txt" >&2
[ -f "$here/tail.txt" ] && cat "$here/tail.txt" >&2
if [ -n "$dep" ] && [ ! -f "$here/no-depfile" ]; then
  printf '%s: %s' "$out" "$src" > "$dep"
  [ -f "$here/includes.txt" ] && while read -r f; do printf ' \\\n  %s' "$f" >> "$dep"; done < "$here/includes.txt"
  printf '\n' >> "$dep"
fi
[ -n "$out" ] && echo object > "$out"
[ -f "$here/signal.txt" ] && kill -"$(cat "$here/signal.txt")" $$
exit "$(cat "$here/status.txt" 2>/dev/null || echo 0)"
)SH";
  std::string Path = Dir.write("bin/" + Name, Script);
  fs::permissions(Path, fs::perms::owner_all);
  return Path;
}

} // namespace occlint::testing
