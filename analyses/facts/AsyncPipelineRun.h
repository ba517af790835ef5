// The symbolic run of a kernel's body that the async-pipeline facts share
// (facts/AsyncPipelineHazards.h has the model): statements in source order,
// the integer locals followed (facts/KernelLocals.h), a loop whose condition
// is a constant run for its trips, a loop whose condition is not known run
// for a fixed number of "steady" trips with the guards of copies taken, a loop
// without async operations or barriers read once. What the run does at an
// async operation, a declaration and a read is the subclass's:
// AsyncPipelineHazards.cpp (early reads, premature reuse) and
// AsyncPipelineOffsets.cpp (the stage offsets of a ring at computed
// addresses). A private header of those files.
#pragma once

#include "facts/AsyncOperations.h"
#include "facts/KernelLocals.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// Thrown where the model stops (caught by the run's owner): the reason goes
/// into AsyncPipelineFacts::hazardsNotModelled / stagesUnknown.
struct NotModelled {
  std::string why;
};

class PipelineRun {
public:
  PipelineRun(ASTContext &Ctx, int SteadyTrips) : Ctx(Ctx), Locals(Ctx), SteadyTrips(SteadyTrips) {}
  virtual ~PipelineRun() = default;

  void run(const Stmt *Body) { exec(Body); }

protected:
  /// An async operation (or a block barrier) statement S.
  virtual void operate(const Stmt &S, const std::vector<AsyncOperation> &Ops) = 0;
  /// A local that is not an integer, declared with Init (a pointer into the ring).
  virtual void declared(const VarDecl &VD, const Expr &Init) = 0;
  /// The reads in S.
  virtual void scan(const Stmt *S) = 0;
  /// A trip of a loop whose condition is not known begins (Trip from 0).
  virtual void steadyTrip(int Trip) {}

  ASTContext &Ctx;
  KernelLocals Locals;
  int LoopDepth = 0;
  int SteadyLoopDepth = 0; // loops whose condition is not known, around the statement run

private:
  bool holdsAsyncOrBarrier(const Stmt *S) {
    if (!S)
      return false;
    if (auto It = HoldsCache.find(S); It != HoldsCache.end())
      return It->second;
    bool Holds = !recogniseAsyncOperations(*S, Ctx).empty();
    for (const Stmt *Child : S->children())
      if (!Holds && holdsAsyncOrBarrier(Child))
        Holds = true;
    HoldsCache[S] = Holds;
    return Holds;
  }

  void exec(const Stmt *S) {
    if (!S)
      return;
    if (++Steps > StepLimit)
      throw NotModelled{"the body is too large to run in the pipeline model"};
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : C->body())
        exec(Child);
      return;
    }
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      for (const Decl *Dcl : D->decls())
        if (const auto *VD = dyn_cast<VarDecl>(Dcl); VD && VD->getInit()) {
          scan(VD->getInit());
          if (VD->getType()->isIntegerType())
            Locals.assign(VD, Locals.eval(VD->getInit()), VD->getInit());
          declared(*VD, *VD->getInit());
        }
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      exec(F->getInit());
      loop(F->getCond(), F->getBody(), F->getInc());
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      loop(W->getCond(), W->getBody(), nullptr);
      return;
    }
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      exec(Do->getBody());
      loop(Do->getCond(), Do->getBody(), nullptr);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      exec(If->getInit());
      scan(If->getCond());
      std::optional<int64_t> Cond = Locals.eval(If->getCond());
      if (Cond) {
        exec(*Cond ? If->getThen() : If->getElse());
        return;
      }
      const bool Then = holdsAsyncOrBarrier(If->getThen()), Else = holdsAsyncOrBarrier(If->getElse());
      if (Locals.dependsOnThread(If->getCond())) {
        if (Then || Else)
          throw NotModelled{"an async operation or a barrier depends on the thread (a warp-specialised pipeline)"};
        exec(If->getThen()); // reads under a thread's condition are still reads
        exec(If->getElse());
        return;
      }
      // Not known and the same for every thread: the steady state takes the
      // guard of a copy (`k + 1 < tiles`), and leaves the body of an early exit.
      if (Else)
        throw NotModelled{"an async operation or a barrier is under a condition that is not known"};
      if (Then && holdsWaitCommitOrBarrier(If->getThen()))
        throw NotModelled{"a wait, commit or barrier is under a condition that is not known"};
      if (isa<ReturnStmt>(If->getThen()) || isa<BreakStmt>(If->getThen()) || isa<ContinueStmt>(If->getThen()))
        return;
      exec(If->getThen());
      return;
    }
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) ||
        isa<SwitchStmt>(S)) {
      if (holdsAsyncOrBarrier(S))
        throw NotModelled{"control flow the pipeline model does not follow"};
      if (LoopDepth > 0 && !isa<ReturnStmt>(S))
        throw NotModelled{"a jump inside the pipelined loop"};
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      operate(*Asm, recogniseAsyncOperations(*Asm, Ctx));
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      statementExpr(E);
      return;
    }
    for (const Stmt *Child : S->children())
      exec(Child);
  }

  bool holdsWaitCommitOrBarrier(const Stmt *S) {
    if (!S)
      return false;
    for (const AsyncOperation &O : recogniseAsyncOperations(*S, Ctx))
      if (O.kind != AsyncEventKind::Copy)
        return true;
    for (const Stmt *Child : S->children())
      if (holdsWaitCommitOrBarrier(Child))
        return true;
    return false;
  }

  void loop(const Expr *Cond, const Stmt *Body, const Expr *Inc) {
    if (!holdsAsyncOrBarrier(Body)) {
      // A compute loop: its reads, once (its counter unknown).
      scan(Cond);
      Locals.forgetAssignedIn(Body);
      Locals.forgetAssignedIn(Inc);
      exec(Body);
      Locals.forgetAssignedIn(Body);
      Locals.forgetAssignedIn(Inc);
      return;
    }
    ++LoopDepth;
    for (int Trip = 0;; ++Trip) {
      scan(Cond);
      std::optional<int64_t> Known = Cond ? Locals.eval(Cond) : std::optional<int64_t>(1);
      if (Known && !*Known)
        break;
      if (!Known && Trip >= SteadyTrips)
        break;
      if (Trip >= 64)
        throw NotModelled{"a loop with async operations runs more than 64 known trips"};
      if (!Known)
        steadyTrip(Trip);
      SteadyLoopDepth += !Known;
      exec(Body);
      SteadyLoopDepth -= !Known;
      if (Inc) {
        scan(Inc);
        Locals.assignments(Inc);
      }
    }
    --LoopDepth;
  }

  // An expression statement: its async operations (a call at its top), its
  // reads of the ring, then its assignments.
  void statementExpr(const Expr *E) {
    std::vector<AsyncOperation> Ops = recogniseAsyncOperations(*E->IgnoreParenImpCasts(), Ctx);
    if (!Ops.empty()) {
      // The copy's own destination is not a read.
      operate(*E, Ops);
      return;
    }
    if (holdsAsyncOrBarrier(E))
      throw NotModelled{"an async operation nested in an expression"};
    scan(E);
    Locals.assignments(E);
  }


  llvm::DenseMap<const Stmt *, bool> HoldsCache;
  const int SteadyTrips;
  size_t Steps = 0;
  static constexpr size_t StepLimit = 200000; // statements run, all trips together
};

} // namespace clang::tidy::occlint
