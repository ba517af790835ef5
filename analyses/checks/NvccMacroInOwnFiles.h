// nvcc defines __NVCC__ (as 1) in everything it compiles; Clang does not.
// Code picks its headers by it (`#ifdef __NVCC__ <cuda.h> #else
// <hip/hip_runtime.h>`), so a Clang parse without it reads the branch nvcc
// never compiles, or fails on a header that is not there. Libraries test it
// too (libcu++'s compiler detection, nv/target, cooperative groups) and then
// use nvcc-only builtins that Clang lacks, so it cannot simply be predefined.
//
// Where the build compiles the file with nvcc (occlint's command translation
// passes -D<NvccBuildMarker>), the project's own files see __NVCC__ defined
// as nvcc defines it and every other file does not. Own files: the main file,
// and what an own file includes with quotes that is found next to it (Clang's
// first lookup for a quoted include, also `"../common/util.h"`). A header
// found through an include path (-I, -isystem, the toolkit) is a library's.
// docs/nvcc-parity.md.
#pragma once

namespace clang {
class Preprocessor;
} // namespace clang

namespace clang::tidy::occlint {

/// The macro occlint's parse command defines when the build's compiler is
/// nvcc (lint/CudaCompilationDatabase.cpp).
inline constexpr const char NvccBuildMarker[] = "__OCCLINT_NVCC_BUILD__";

class NvccMacroInOwnFiles {
public:
  /// From now on, PP defines __NVCC__ while it reads an own file of an nvcc
  /// build and undefines it elsewhere. Every check's registerPPCallbacks calls
  /// this; a preprocessor gets it once.
  static void install(Preprocessor &PP);
};

} // namespace clang::tidy::occlint
