// Internal to the compile command translator: the flag tables. nvcc's options
// (what each one does and which take a value) and how a host compiler flag
// (-Xcompiler item, or an unknown flag -forward-unknown-to-host-compiler sends
// on) is treated. Defined in NvccFlagTable.cpp.
#pragma once

#include <string>

namespace occlint::translator_detail {

// ---------------------------------------------------------------------------
// Host compiler flags (-Xcompiler items, and unknown flags that
// -forward-unknown-to-host-compiler sends to the host compiler).

enum class HostKind { Pass, PassWithValue, Drop, DropWithValue };

HostKind classifyHostFlag(const std::string &F);

// ---------------------------------------------------------------------------
// nvcc's options.

enum class Act {
  Arch,
  Code,
  Gencode,
  MaxRReg,
  Rdc,
  DeviceC,
  Xcompiler,
  Xptxas,
  LinkTimeOpt, // -dlto: device code left to the device link (dropped and listed)
  Define,
  Undef,
  Include,
  SysInclude,
  PreInclude,
  Optimize,
  Lang,
  Std,
  TemplBacktrace,
  TemplDepth,
  Ftz,
  DefaultStream,
  FastMath,
  NoExceptions,
  Pass,        // passed to Clang spelled as OptInfo::Clang
  DeviceDebug, // -G
  NoteDrop,    // dropped, with OptInfo::Note
  Drop,        // dropped and listed
  Silent,      // dropped, not listed (output and dependency files)
  OptionsFile, // only reached when expansion left it (cannot happen); silent
};

enum class Val {
  None,
  Any,   // the next argument, whatever it is
  Bool,  // the next argument only if it is true/false
  Level, // the next argument only if it looks like an optimization level (-O 3)
  Kind,  // the next argument only if it does not start with '-' (-Werror <kind>)
};

struct OptInfo {
  Act A;
  Val V;
  const char *Clang = nullptr; // Act::Pass
  const char *Note = nullptr;  // Act::NoteDrop
};

// The entry for an option name without its dashes and value ("arch",
// "gpu-architecture", "D"); nullptr when nvcc has no such option.
const OptInfo *lookupOption(const std::string &Name);

// --options-file / -optf (the name without its dashes).
bool isOptionsFileFlag(const std::string &Name);

} // namespace occlint::translator_detail
