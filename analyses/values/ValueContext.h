// Where a launch's values are read, for the value evaluator: the function
// the launch is written in, the calls that lead to it (a helper called with
// constants), and which member of a finite set of values each variant takes
// (a case label among several, an element of a constant array).
//
// The evaluator refines a variable by the guards around the point where it is
// read (inside `case 512:` of `switch (threads)`, or under
// `if (threads == 256)`, `threads` is exact), binds a parameter of a frame to
// the argument of the call in the next frame out, and, where a value is one
// of several, takes the member the context picks. What it cannot decide
// alone it reports as an OpenChoice: the launch analysis (LaunchVariants.h)
// then enumerates the choice, within bounds, as separate variants.
#pragma once

#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::occlint {

/// One function on the way to a launch.
struct ValueFrame {
  /// Whose parameters and local variables are read in this frame.
  const FunctionDecl *function = nullptr;
  /// The statement the values are read at: the launch in frame 0, the call
  /// of the previous frame's function in the others (a CallExpr).
  const Stmt *at = nullptr;
};

/// What the occupancy API needs of a kernel: its resources as ptxas reported
/// them (no report: no answer) and its dynamic shared memory opt-in.
struct KernelModel {
  ::occlint::KernelResources resources;
  std::optional<int64_t> optinDynamicSharedMem;
};

struct ValueContext {
  /// frames[0] holds the launch; frames[k + 1].at calls frames[k].function.
  /// Empty: no context at all (values as the whole function sees them).
  std::vector<ValueFrame> frames;
  /// The member a variant takes of a finite set, by (the set's key, frame).
  std::map<std::pair<const void *, unsigned>, unsigned> picks;
  /// The GPU the values are read for: device properties
  /// (cudaGetDeviceProperties, cudaDeviceGetAttribute) and the occupancy API
  /// answer per GPU. Null: those values are unknown (and say so in the trace).
  const ::occlint::TargetGpu *target = nullptr;
  /// A kernel's resources for the occupancy API; empty or nullopt: unknown.
  std::function<std::optional<KernelModel>(const FunctionDecl &Kernel)> kernelModel;
};

/// Something the evaluator could not decide alone and a caller could
/// enumerate.
struct OpenChoice {
  enum class Kind {
    /// A parameter of the outermost frame's function: its callers would bind it.
    Callers,
    /// A value that is one of `count` members of a set (picks[{key, frame}]).
    SetMember,
  };
  Kind kind = Kind::Callers;
  unsigned frame = 0;
  const void *key = nullptr;
  unsigned count = 0;
  /// The parameter read (Callers).
  const ParmVarDecl *parameter = nullptr;
};

/// What one evaluation learnt besides its value.
struct EvaluationTrace {
  /// The first choice that would have refined the value.
  std::optional<OpenChoice> choice;
  /// The first choice of a set member met, also when `choice` is another
  /// (callers to bind): what the launch analysis enumerates when those
  /// callers cannot be (none in the file), since each member of such a set
  /// (the arms of `big ? 256 : 128`) is the value for some argument.
  std::optional<OpenChoice> setChoice;
  /// Why the value is not exact, for --verbose and JSON ("parameter
  /// 'threads' of launch_fill, called with a runtime value at x.cu:40");
  /// the first reason met. Empty when there is none to give.
  std::string unknownReason;
  /// A guard contradicts a value read: in this context the statement cannot
  /// be reached.
  bool infeasible = false;
  /// A value read depends on the GPU (a device property, the occupancy API)
  /// and the context named none: evaluate again per target.
  bool needsTarget = false;
  /// A value read is one element of a constant array that a loop walks
  /// (`int block_sizes[] = {32, 64, ...}; ... block_sizes[j]`), taken by the
  /// context's pick: the array. Benchmark code tries each element in turn,
  /// so each one is deliberate (the launch checks read this, LaunchSite
  /// values.blockSweep / gridSweep).
  const VarDecl *sweptArray = nullptr;
};

} // namespace clang::tidy::occlint
