// The symbolic run of a kernel's body that the async-pipeline facts share
// (pipelines/AsyncPipelineHazards.h has the model): statements in source order,
// the integer locals followed (pipelines/KernelLocals.h), a loop whose condition
// is a constant run for its trips, a loop whose condition is not known run
// for a fixed number of "steady" trips with the guards of copies taken, a loop
// without async operations or barriers read once. A call to a function of
// the program whose body holds async operations (a tile loader) runs that
// body with its parameters bound to the arguments: integers as values,
// pointers and references as the places they name. What the run does at an
// async operation, a declaration (or a pointer's assignment) and a read is
// the subclass's:
// AsyncPipelineHazards.cpp (early reads, premature reuse) and
// AsyncPipelineOffsets.cpp (the stage offsets of a ring at computed
// addresses). A private header of those files.
#pragma once

#include "pipelines/AsyncOperations.h"
#include "pipelines/KernelLocals.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// Thrown where the model stops (caught by the run's owner): the reason goes
/// into AsyncPipelineFacts::hazardsNotModelled / stagesUnknown.
struct NotModelled {
  std::string why;
};

/// A shared address: the buffer and the byte offset every thread adds the same.
struct UniformAddress {
  const VarDecl *buffer = nullptr;
  int64_t offset = 0;
  /// The bytes the threads add to it, over the block's threads, when the run
  /// knows the block (KernelLocals::setBlock) and every thread term is bounded.
  std::optional<ValueRange> threadBytes = ValueRange{};
};

/// Shared addresses taken apart into a buffer and a uniform byte offset
/// (KernelLocals::linear: the part of each index that is the same in every
/// thread), through subscripts, pointer arithmetic, a converted shared
/// address plus bytes (__cvta_generic_to_shared(p) + off) and locals that
/// hold such an address. A thread-dependent byte offset added to a converted
/// address (a swizzle) is assumed to stay within the stage
/// (docs/async-pipelines.md, section 3).
class UniformAddresses {
public:
  UniformAddresses(ASTContext &Ctx, KernelLocals &Locals, bool (*IsBuffer)(const VarDecl &))
      : Ctx(Ctx), Locals(Locals), IsBuffer(IsBuffer) {}

  /// A local declared with Init: an alias when Init is an address.
  void declared(const VarDecl &VD, const Expr &Init) {
    if (std::optional<UniformAddress> A = of(&Init))
      Aliases[&VD] = *A;
    else
      Aliases.erase(&VD);
  }

  /// The buffer and uniform byte offset an address expression names.
  std::optional<UniformAddress> of(const Expr *E) {
    int64_t Offset = 0;
    std::optional<ValueRange> Bytes = ValueRange{};
    const auto AddBytes = [&Bytes](std::optional<ValueRange> R, int64_t Scale) {
      Bytes = rangeSum(Bytes, rangeScaled(R, Scale));
    };
    for (int Depth = 0; E && Depth < 32; ++Depth) {
      E = peelAddress(E);
      if (!E)
        return std::nullopt;
      if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
        std::optional<LinearValue> I = Locals.linear(S->getIdx());
        // An inner index that is not a sum (a swizzled column, `(lane * 8 +
        // ...) % 32`) and differs between threads stays within its row when
        // the access is in bounds: no uniform bytes.
        const bool InnerIndex = isa<ArraySubscriptExpr>(S->getBase()->IgnoreParenImpCasts());
        if (!I && InnerIndex && Locals.dependsOnThread(S->getIdx()))
          I = LinearValue{0, true, withinRow(*S)};
        if (!I)
          return std::nullopt;
        Offset += I->uniform * sizeOf(S->getType());
        AddBytes(I->threadRange, sizeOf(S->getType()));
        E = S->getBase();
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
        const Expr *L = B->getLHS(), *R = B->getRHS();
        const bool LeftPointer = L->getType()->isPointerType() || L->getType()->isArrayType();
        const bool RightPointer = R->getType()->isPointerType() || R->getType()->isArrayType();
        if (LeftPointer || RightPointer) {
          const Expr *Ptr = LeftPointer ? L : R, *Count = LeftPointer ? R : L;
          std::optional<LinearValue> N = Locals.linear(Count);
          if (!N)
            return std::nullopt;
          const int64_t Scale = (B->getOpcode() == BO_Sub ? -1 : 1) * sizeOf(Ptr->getType()->getPointeeType());
          Offset += N->uniform * Scale;
          AddBytes(N->threadRange, Scale);
          E = Ptr;
          continue;
        }
        // Integer addresses (a converted shared address plus bytes): the side
        // that holds the address, the other side's uniform bytes.
        const bool AddressLeft = holdsAddress(L);
        if (!AddressLeft && !holdsAddress(R))
          return std::nullopt;
        const Expr *Bytes = AddressLeft ? R : L;
        const int64_t Sign = B->getOpcode() == BO_Sub ? -1 : 1;
        if (std::optional<LinearValue> N = Locals.linear(Bytes)) {
          Offset += Sign * N->uniform;
          AddBytes(N->threadRange, Sign);
        } else if (!Locals.dependsOnThread(Bytes)) {
          return std::nullopt; // a uniform offset not known
        } else {
          AddBytes(Locals.range(Bytes), Sign); // a thread-dependent swizzle within the stage
        }
        E = AddressLeft ? L : R;
        continue;
      }
      if (const auto *Call = dyn_cast<CallExpr>(E);
          Call && Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isPointerType()) {
        E = Call->getArg(0); // __cvta_generic_to_shared(p)
        continue;
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        if (!VD)
          return std::nullopt;
        if (auto It = Aliases.find(VD); It != Aliases.end()) {
          AddBytes(It->second.threadBytes, 1);
          return UniformAddress{It->second.buffer, It->second.offset + Offset, Bytes};
        }
        if (IsBuffer(*VD))
          return UniformAddress{VD, Offset, Bytes};
        return std::nullopt;
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// Whether S mentions a buffer or a local holding an address into one.
  bool holdsAddress(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && (Aliases.count(VD) || IsBuffer(*VD)))
        return true;
    for (const Stmt *Child : S->children())
      if (holdsAddress(Child))
        return true;
    return false;
  }

private:
  // An inner index that stays within its row: [0, the row's elements - 1].
  std::optional<ValueRange> withinRow(const ArraySubscriptExpr &S) {
    if (std::optional<ValueRange> R = Locals.range(S.getIdx()))
      return R;
    const auto *Row = Ctx.getAsConstantArrayType(S.getBase()->IgnoreParenImpCasts()->getType());
    if (!Row || Row->getSize().isZero())
      return std::nullopt;
    return ValueRange{0, int64_t(Row->getSize().getZExtValue()) - 1};
  }

  int64_t sizeOf(QualType T) const {
    return T->isIncompleteType() || T->isDependentType() ? 0 : Ctx.getTypeSizeInChars(T).getQuantity();
  }

  ASTContext &Ctx;
  KernelLocals &Locals;
  bool (*IsBuffer)(const VarDecl &);
  std::map<const VarDecl *, UniformAddress> Aliases;
};

class PipelineRun {
public:
  PipelineRun(ASTContext &Ctx, int SteadyTrips) : Ctx(Ctx), Locals(Ctx), SteadyTrips(SteadyTrips) {}
  virtual ~PipelineRun() = default;

  void run(const Stmt *Body) {
    try {
      exec(Body);
    } catch (const Returned &) {
      // The kernel returned on a path the run had decided: nothing follows.
    }
  }

  /// Binds the kernel's integer parameters to the values a launch passes
  /// (nullopt: not known), for a run of that launch; such a run follows
  /// loops of known trips up to 4096 (StepLimit still bounds the work).
  void bindParameters(const FunctionDecl &Kernel, const std::vector<std::optional<int64_t>> &Values) {
    for (unsigned I = 0; I < Kernel.getNumParams() && I < Values.size(); ++I)
      if (Values[I] && Kernel.getParamDecl(I)->getType()->isIntegerType())
        Locals.assign(Kernel.getParamDecl(I), Values[I], nullptr);
    KnownTripLimit = 4096;
  }

  /// Whether the run knew every condition it met: every loop ran its exact
  /// trips, every branch was decided, no side of a role split or thread
  /// condition was assumed. What such a run finds happens in every run of
  /// the kernel with those values.
  bool exact() const { return Exact; }

protected:
  /// An async operation (or a block barrier) statement S.
  virtual void operate(const Stmt &S, const std::vector<AsyncOperation> &Ops) = 0;
  /// A local that is not an integer, declared with Init, or assigned Init
  /// (a pointer into the ring, a barrier's address, a parameter bound to an
  /// argument).
  virtual void declared(const VarDecl &VD, const Expr &Init) = 0;
  /// The reads in S.
  virtual void scan(const Stmt *S) = 0;
  /// A trip of a loop whose condition is not known begins (Trip from 0).
  virtual void steadyTrip(int Trip) {}
  /// Whether a loop without async operations is read with its counter at its
  /// first value (a ring at computed offsets: the stage of what it reads comes
  /// from the uniform offset, and the loop walks sub-tiles of one stage) rather
  /// than with the counter unknown.
  virtual bool readsComputeLoopsAtTheirFirstTrip() const { return false; }
  /// Whether a branch on the thread (`if (warp == 0) produce(); else
  /// consume();`) whose sides hold async operations is run as two roles, each
  /// side once from the same locals (roles(1), roles(2), then roles(0) when
  /// both are done), rather than stop the model. Only a subclass that orders
  /// the roles by what it models (a block-scope cuda::pipeline) says yes.
  virtual bool runsRoles() const { return false; }
  virtual void role(int Which) {}

  /// Where L shows in the kernel's own body: L itself, or inside a called
  /// function the kernel's call that led there (a finding names the line the
  /// kernel's reader sees; the helper's line is the same for every caller).
  SourceLocation inKernel(SourceLocation L) const { return CallDepth > 0 ? OutermostCall : L; }

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
    HoldsCache[S] = false; // a recursive call does not hold what it is still being asked
    bool Holds = !recogniseAsyncOperations(*S, Ctx).empty();
    if (const FunctionDecl *Callee = followedCallee(S); !Holds && Callee)
      Holds = holdsAsyncOrBarrier(Callee->getBody());
    for (const Stmt *Child : S->children())
      if (!Holds && holdsAsyncOrBarrier(Child))
        Holds = true;
    HoldsCache[S] = Holds;
    return Holds;
  }

  // The definition S calls when the run follows it: a call to a function of
  // the program (programFunctionCalled, the rule the facts collect by), not
  // an operator.
  const FunctionDecl *followedCallee(const Stmt *S) const {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || isa<CXXOperatorCallExpr>(Call))
      return nullptr;
    return programFunctionCalled(*Call, Ctx);
  }

  // E (Top: E without parentheses and casts) as one step of the pipeline:
  // async operations at its top (`bar.arrive()`, a copy), or a call to a
  // function of the program that holds some. Runs it and says whether it was.
  bool runStep(const Expr &E, const Expr *Top) {
    if (std::vector<AsyncOperation> Ops = recogniseAsyncOperations(*Top, Ctx); !Ops.empty()) {
      operate(E, Ops); // the copy's own destination is not a read
      return true;
    }
    if (const FunctionDecl *Callee = followedCallee(Top); Callee && holdsAsyncOrBarrier(Callee->getBody())) {
      runCallee(*cast<CallExpr>(Top), *Callee);
      return true;
    }
    return false;
  }

  // Runs Callee's body for Call: pointer and reference parameters get the
  // places the arguments name (declared()); the others are values, read
  // here, and an integer's value is followed.
  void runCallee(const CallExpr &Call, const FunctionDecl &Callee) {
    if (CallDepth >= 4)
      throw NotModelled{"async operations more than 4 calls deep"};
    if (returnsEarly(Callee.getBody()))
      throw NotModelled{"a called function with async operations returns before its end"};
    if (Call.getNumArgs() != Callee.getNumParams())
      throw NotModelled{"a called function's default arguments"};
    for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
      const ParmVarDecl *Param = Callee.getParamDecl(I);
      const Expr *Arg = Call.getArg(I);
      const QualType T = Param->getType();
      if (T->isReferenceType() && T.getNonReferenceType()->isIntegerType())
        throw NotModelled{"a called function takes an integer by reference"};
      if (T->isPointerType() || T->isReferenceType()) {
        declared(*Param, *Arg); // an address handed to the callee is bound, not read
        continue;
      }
      scan(Arg); // a value: read here (f(ring[s][i]))
      if (T->isIntegerType())
        Locals.assign(Param, Locals.eval(Arg), Arg);
    }
    if (CallDepth == 0)
      OutermostCall = Call.getBeginLoc();
    ++CallDepth;
    exec(Callee.getBody());
    --CallDepth;
  }

  static bool returnsEarly(const Stmt *Body) {
    const auto *C = dyn_cast_or_null<CompoundStmt>(Body);
    const Stmt *Last = C && !C->body_empty() ? C->body_back() : nullptr;
    std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S))
        return false;
      if (isa<ReturnStmt>(S))
        return S != Last;
      for (const Stmt *Child : S->children())
        if (Walk(Child))
          return true;
      return false;
    };
    return Walk(Body);
  }

  // `front = back;`: a local that is not an integer takes a new place.
  void pointerAssignments(const Expr *E) {
    const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!B)
      return;
    if (B->getOpcode() == BO_Comma) {
      pointerAssignments(B->getLHS());
      pointerAssignments(B->getRHS());
      return;
    }
    if (B->getOpcode() != BO_Assign)
      return;
    if (const VarDecl *VD = KernelLocals::localOf(B->getLHS()); VD && !VD->getType()->isIntegerType())
      declared(*VD, *B->getRHS());
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
          // `auto token = bar.arrive();`: the step, then the local.
          const Expr *Init = VD->getInit()->IgnoreImplicit();
          if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init); Construct && Construct->getNumArgs() == 1)
            Init = Construct->getArg(0)->IgnoreImplicit();
          // `float v = loadAndScale(...)`: the step runs, the local's value is not followed.
          if (runStep(*Init, Init)) {
            if (VD->getType()->isIntegerType())
              Locals.assign(VD, std::nullopt, nullptr);
            continue;
          }
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
      Exact = false;
      const bool Then = holdsAsyncOrBarrier(If->getThen()), Else = holdsAsyncOrBarrier(If->getElse());
      if (Locals.dependsOnThread(If->getCond())) {
        if ((Then || Else) && runsRoles() && InRole == 0) {
          runRoles(*If);
          return;
        }
        if (Then || Else)
          throw NotModelled{"an async operation or a barrier depends on the thread (a warp-specialised pipeline)"};
        ++UndecidedDepth; // reads under a thread's condition are still reads
        exec(If->getThen());
        exec(If->getElse());
        --UndecidedDepth;
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
      ++UndecidedDepth; // a return in there (`{ ...; return; }`) leaves only some runs
      exec(If->getThen());
      --UndecidedDepth;
      return;
    }
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) || isa<SwitchStmt>(S)) {
      if (holdsAsyncOrBarrier(S))
        throw NotModelled{"control flow the pipeline model does not follow"};
      if (LoopDepth > 0 && !isa<ReturnStmt>(S))
        throw NotModelled{"a jump inside the pipelined loop"};
      // A return every run reaches (not under a condition that is not known,
      // a thread's or the block's, nor on one side of a split, nor a called
      // function's last statement) ends the run: `if (tiles < 4) return;`
      // with tiles = 2 runs nothing after it.
      if (isa<ReturnStmt>(S) && CallDepth == 0 && UndecidedDepth == 0 && InRole == 0)
        throw Returned{};
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      std::vector<AsyncOperation> Ops = recogniseAsyncOperations(*Asm, Ctx);
      if (Ops.empty())
        scan(Asm); // another instruction: a load from shared memory reads (ldmatrix)
      else
        operate(*Asm, Ops);
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      statementExpr(E);
      return;
    }
    for (const Stmt *Child : S->children())
      exec(Child);
  }

  // The two sides of a role split, each from the locals before the branch;
  // what either side assigns is not known after it.
  void runRoles(const IfStmt &If) {
    Exact = false;
    const KernelLocals Before = Locals;
    InRole = 1;
    role(1);
    exec(If.getThen());
    Locals.restore(Before);
    InRole = 2;
    role(2);
    exec(If.getElse());
    Locals.restore(Before);
    Locals.forgetAssignedIn(If.getThen());
    Locals.forgetAssignedIn(If.getElse());
    InRole = 0;
    role(0);
  }

  bool holdsWaitCommitOrBarrier(const Stmt *S, int Depth = 0) {
    if (!S)
      return false;
    for (const AsyncOperation &O : recogniseAsyncOperations(*S, Ctx))
      if (O.kind != AsyncEventKind::Copy)
        return true;
    if (const FunctionDecl *Callee = followedCallee(S);
        Callee && Depth < 4 && holdsWaitCommitOrBarrier(Callee->getBody(), Depth + 1))
      return true;
    for (const Stmt *Child : S->children())
      if (holdsWaitCommitOrBarrier(Child, Depth))
        return true;
    return false;
  }

  void loop(const Expr *Cond, const Stmt *Body, const Expr *Inc) {
    if (!holdsAsyncOrBarrier(Body)) {
      // A compute loop: its reads, once (its counter unknown, or at its
      // first value where the subclass asks for it).
      if (Cond) {
        const std::optional<int64_t> First = Locals.eval(Cond);
        Exact &= First && *First; // it surely runs its first trip
      }
      scan(Cond);
      Locals.forgetAssignedIn(Body);
      if (!readsComputeLoopsAtTheirFirstTrip())
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
      if (Trip >= KnownTripLimit)
        throw NotModelled{"a loop with async operations runs more than " + std::to_string(KnownTripLimit) +
                          " known trips"};
      if (!Known) {
        steadyTrip(Trip);
        Exact = false;
      }
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
    if (runStep(*E, E->IgnoreParenImpCasts()))
      return;
    if (holdsAsyncOrBarrier(E))
      throw NotModelled{"an async operation nested in an expression"};
    scan(E);
    Locals.assignments(E);
    pointerAssignments(E);
  }

  llvm::DenseMap<const Stmt *, bool> HoldsCache;
  const int SteadyTrips;
  int InRole = 0; // inside a side of a role split (1 or 2)
  struct Returned {};
  int CallDepth = 0;      // called functions being run
  int UndecidedDepth = 0; // inside a branch whose condition is not known (its body run)
  int KnownTripLimit = 64;
  bool Exact = true;
  SourceLocation OutermostCall; // the kernel's call that led to them
  size_t Steps = 0;
  static constexpr size_t StepLimit = 200000; // statements run, all trips together
};

} // namespace clang::tidy::occlint
