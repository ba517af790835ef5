// A thread's global index along one dimension, blockIdx.d * blockDim.d +
// threadIdx.d, compared with a bound (`if (i < n)`). Which blocks such a
// bound splits depends on the launch: with the grid and the block known from
// every launch of the kernel and the bound an exact value there, a block is
// split only where the bound falls inside it (n not a multiple of the block
// and below the grid's extent). The barrier check then knows whether the miss
// is real for the launches it sees, as it does for `threadIdx.x < 64`.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <optional>

namespace clang::tidy::occlint {

struct GlobalIndex {
  unsigned dim = 0; // 0, 1, 2 for x, y, z
  /// A constant written in place of blockDim.d (`blockIdx.x * 256 +
  /// threadIdx.x`): the index is a global one only when it equals the block's
  /// extent along d.
  std::optional<int64_t> blockFactor;
};

/// The locals that `S` uses other than by reading their value (assignment,
/// increment, address taken, reference bound, anything else).
llvm::DenseSet<const VarDecl *> localsWrittenIn(const Stmt &S);

/// The locals of a function that nothing writes after their initialisation:
/// every use is a read of the value (no assignment, increment, address taken,
/// reference bound, or anything else the walk does not know as a read).
class UnwrittenLocals {
public:
  explicit UnwrittenLocals(const FunctionDecl &FD);
  bool contains(const VarDecl *VD) const { return Unwritten.contains(VD); }

private:
  llvm::DenseSet<const VarDecl *> Unwritten;
};

/// `blockIdx.d * blockDim.d + threadIdx.d`, each operation's operands in
/// either order, through parentheses and integer conversions to at least 32
/// bits; or a local initialised with it that `Locals` says is never written
/// again.
std::optional<GlobalIndex> globalIndexOf(const Expr *E, const ASTContext &Ctx, const UnwrittenLocals *Locals);

/// With `Grid` blocks of `Block` threads along the dimension (global indices
/// 0 .. Grid * Block - 1), whether some block has threads on both sides of
/// `g Op Bound` (Op one of <, <=, >, >=, with g on the left).
bool globalBoundSplitsABlock(BinaryOperatorKind Op, int64_t Bound, int64_t Block, int64_t Grid);

} // namespace clang::tidy::occlint
