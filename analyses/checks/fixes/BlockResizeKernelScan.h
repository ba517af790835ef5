// The walk over a kernel's body that checks conditions (a) and (b) of the
// block-resize safety rule (BlockResizeSafety.h), shared by its two source
// files: BlockResizeKernel.cpp (variables, guards, statements) and
// BlockResizeExpressions.cpp (expressions: accesses, calls). The walk carries
// the guards `idx < n` known to hold (an enclosing `if`, `&&`, `?:`, or an
// earlier `if (idx >= n) return;` in the same block) and whether it is inside
// a grid-stride loop, and stops at the first construct it cannot prove safe.
#pragma once

#include "ast/CudaIndexPatterns.h"
#include "checks/fixes/BlockResizeSafety.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::occlint::resize {

constexpr unsigned MaxCallDepth = 8;
using ParamSet = std::set<const ParmVarDecl *>;

/// What a callee does across threads, judged by its name (or namespace):
/// "a barrier", "a warp intrinsic", "an atomic", ...; "" for nothing known.
std::string communicationKind(const FunctionDecl &FD);
/// An integer type (not bool) of at least 32 bits.
bool isWideInteger(QualType T, ASTContext &Ctx);
/// The variable E names (parentheses and implicit casts stripped), or null.
const VarDecl *referencedVar(const Expr *E);
/// A `return;`, or a block that ends with one.
bool alwaysReturns(const Stmt *S);

class KernelScan {
public:
  KernelScan(const FunctionDecl &Fn, ASTContext &Ctx, bool Callee, std::set<const FunctionDecl *> &Visited,
             unsigned Depth)
      : Fn(Fn), Ctx(Ctx), SM(Ctx.getSourceManager()), Callee(Callee), Visited(Visited), Depth(Depth) {}

  KernelResizeFacts run();
  const std::string &failure() const { return Failed; }

private:
  struct Scope {
    ParamSet guards;                    // n such that idx < n holds here
    const VarDecl *strideVar = nullptr; // inside a grid-stride loop: its variable
    const Stmt *strideBody = nullptr;   // and its body
    bool innerLoop = false;             // inside a loop or switch nested in the grid-stride loop
  };

  bool fail(std::string Why) {
    if (Failed.empty())
      Failed = std::move(Why);
    return false;
  }
  void collectVariables(const Stmt *Body);
  bool isReadOnly(const VarDecl *VD) const { return !NonReads.count(VD); }
  bool isIndex(const Expr *E) const;
  /// Whether S reads the thread's index, a built-in variable, or a local in ThreadValues.
  bool mentionsThreadValue(const Stmt *S) const;
  /// Outside every guard (and grid-stride loop) of a kernel: code the extra
  /// threads of a larger block run.
  bool runsForExtraThreads(const Scope &Sc) const { return !Callee && Sc.guards.empty() && !Sc.strideVar; }
  const ParmVarDecl *bound(const Expr *E) const {
    const ParmVarDecl *P = integerParameter(E, Ctx);
    return P && isReadOnly(P) ? P : nullptr;
  }
  ParamSet guardsOf(const Expr *Cond) const;
  ParamSet exitGuardsOf(const Expr *Cond) const;
  static Scope with(const Scope &Sc, const ParamSet &More) {
    Scope Out = Sc;
    Out.guards.insert(More.begin(), More.end());
    return Out;
  }

  bool visit(const Stmt *S, const Scope &Sc);
  bool visitExpr(const Expr *E, const Scope &Sc);
  bool visitCompound(const CompoundStmt &CS, const Scope &Sc);
  bool visitDecl(const Decl *D, const Scope &Sc);
  bool visitLoop(const Stmt *Loop, const Expr *Cond, const Scope &Sc);
  bool matchGridStride(const ForStmt &FS, const VarDecl *&Var, const ParmVarDecl *&Bound) const;
  bool visitDeclRef(const DeclRefExpr &Ref);
  bool visitAccess(const Expr *Base, const Expr *Index, const Expr &Whole, const Scope &Sc);
  bool visitCall(const CallExpr &CE, const Scope &Sc);
  bool visitConstruct(const CXXConstructExpr &CE, const Scope &Sc);
  bool visitCallee(const FunctionDecl *FD, const std::string &Name);
  bool isLibrary(const FunctionDecl &FD) const {
    return FD.getBuiltinID() != 0 || SM.isInSystemHeader(SM.getExpansionLoc(FD.getLocation()));
  }
  bool checkCarried(const Expr *Target, const Scope &Sc);

  const FunctionDecl &Fn;
  ASTContext &Ctx;
  const SourceManager &SM;
  const bool Callee; // a function the kernel calls: no global memory access at all
  std::set<const FunctionDecl *> &Visited;
  const unsigned Depth;

  std::unique_ptr<ParentMap> Parents;
  std::set<const VarDecl *> IndexVars, StrideVars;
  // Locals whose value depends on the thread (assigned from the index, a
  // built-in variable, or another such local): outside the guard, the extra
  // threads of a larger block hold values there that no thread held before.
  std::set<const VarDecl *> ThreadValues;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> NonReads; // uses other than a plain read
  std::string Failed;
  std::optional<ParamSet> Bounds; // the guards common to every guarded access
  ParamSet StrideBounds;
  unsigned GuardedAccesses = 0, StrideAccesses = 0, IndexUses = 0;
  std::string IndexName = "blockIdx.x * blockDim.x + threadIdx.x";
};

} // namespace clang::tidy::occlint::resize
