#include "pipelines/AsyncPipelineReads.h"
#include "ast/SharedMemoryVariables.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::occlint {

RingReads::RingReads(ASTContext &Ctx, const AsyncPipelineFacts &Pipeline)
    : PipelineRun(Ctx, 2 * *Pipeline.stages + 3), Ring(Pipeline.ringVariables.begin(), Pipeline.ringVariables.end()),
      Stages(*Pipeline.stages), OffsetRing(Pipeline.offsetRingBuffers.begin(), Pipeline.offsetRingBuffers.end()),
      OffsetBase(Pipeline.offsetRingBase), StageBytes(Pipeline.offsetRingStride),
      Addresses(Ctx, Locals, isSharedMemoryVariable) {}

void RingReads::holdsPlace(const VarDecl &VD, const Expr &Init) {
  if (!OffsetRing.empty()) {
    Addresses.declared(VD, Init);
    return;
  }
  if (VD.getType()->isIntegerType())
    return;
  if (std::optional<Region> R = regionOf(&Init))
    Aliases[&VD] = *R;
  else
    Aliases.erase(&VD);
}

// The region an address or an lvalue names: the ring variable, its stage,
// and the text past the stage index.
std::optional<Region> RingReads::regionOf(const Expr *E) {
  std::vector<const Expr *> Indices; // outermost first
  std::string Offsets;
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = peelAddress(E);
    if (!E)
      return std::nullopt;
    if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase(); // a member of an element: the element's place
      continue;
    }
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      Indices.insert(Indices.begin(), S->getIdx());
      E = S->getBase();
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
      const bool LeftIsPointer = B->getLHS()->getType()->isPointerType() || B->getLHS()->getType()->isArrayType();
      Offsets += "+" + text(LeftIsPointer ? B->getRHS() : B->getLHS());
      E = LeftIsPointer ? B->getLHS() : B->getRHS();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isPointerType()) {
      E = Call->getArg(0); // __cvta_generic_to_shared(p) and the like
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (!VD)
        return std::nullopt;
      if (auto It = Aliases.find(VD); It != Aliases.end()) {
        Region R = It->second;
        for (const Expr *I : Indices)
          R.within += "[" + text(I) + "]";
        R.within += Offsets;
        return R;
      }
      if (!Ring.count(VD))
        return std::nullopt;
      if (Indices.empty())
        return std::nullopt; // the whole ring: not one stage
      std::optional<int64_t> Stage = Locals.eval(Indices.front());
      if (!Stage)
        throw NotModelled{"the stage index '" + text(Indices.front()) + "' is not known in the pipeline model"};
      Region R;
      R.buffer = VD;
      R.stage = ((*Stage % Stages) + Stages) % Stages;
      for (size_t I = 1; I < Indices.size(); ++I)
        R.within += "[" + text(Indices[I]) + "]";
      R.within += Offsets;
      return R;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

// A ring at computed offsets: the stage an address falls in, from its
// uniform byte offset. Who reads what is not told apart here (the thread
// parts of two addresses are not compared): every read counts as one of
// other threads' copies, so a block barrier must separate them.
std::optional<Region> RingReads::offsetRegionOf(const Expr *E) {
  std::optional<UniformAddress> A = Addresses.of(E);
  if (!A || !OffsetRing.count(A->buffer) || A->offset < OffsetBase || StageBytes <= 0)
    return std::nullopt;
  Region R;
  R.buffer = A->buffer;
  R.stage = ((A->offset - OffsetBase) / StageBytes) % Stages;
  R.within = "read";
  return R;
}

// The reads of a ring at computed offsets in S: subscripts and
// dereferences of a ring buffer, and the address operands of an inline PTX
// shared-memory load (ldmatrix, ld.shared). An address taken (&) is not a read.
void RingReads::scanOffsets(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
    return;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    const std::string Text = Asm->generateAsmString(Ctx);
    if (Text.find("ldmatrix") != std::string::npos || Text.find("ld.shared") != std::string::npos)
      for (const Expr *In : Asm->inputs())
        if (Addresses.holdsAddress(In))
          if (std::optional<Region> R = offsetRegionOf(In))
            read(*R, Asm->getBeginLoc());
    return;
  }
  // A stage's address handed to a function (wmma::load_matrix_sync(frag,
  // &smem[row][col], ld), a load helper given a converted address, a
  // helper that sums the tile) is read by it; a conversion of one pointer
  // to an address (__cvta_generic_to_shared(p), a helper returning the
  // shared address as an integer or a pointer) is not.
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const QualType Result = Call->getType();
    const bool Conversion = Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isPointerType() &&
                            (Result->isPointerType() || Result->isIntegerType());
    if (!Conversion)
      for (const Expr *Arg : Call->arguments())
        if (Addresses.holdsAddress(Arg))
          if (std::optional<Region> R = offsetRegionOf(Arg))
            read(*R, Arg->getBeginLoc());
  }
  const auto *U = dyn_cast<UnaryOperator>(S);
  if (isa<ArraySubscriptExpr>(S) || (U && U->getOpcode() == UO_Deref)) {
    const Expr *E = cast<Expr>(S);
    if (!E->getType()->isArrayType()) // a whole row is an address, not a read
      if (std::optional<Region> R = offsetRegionOf(E)) {
        read(*R, E->getBeginLoc());
        return;
      }
  }
  for (const Stmt *Child : S->children())
    scanOffsets(Child);
}

// E as written (once per expression: every trip reads the same text).
const std::string &RingReads::text(const Expr *E) {
  auto [It, New] = Texts.try_emplace(E);
  if (New) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange Range = CharSourceRange::getTokenRange(SM.getExpansionRange(E->getSourceRange()).getAsRange());
    It->second = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  }
  return It->second;
}

// Every read of the ring in E: the outermost subscript (or the alias) that
// names a region; an address handed to a call reads the whole stage.
void RingReads::scan(const Stmt *S) {
  if (!OffsetRing.empty()) {
    scanOffsets(S);
    return;
  }
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      if (std::optional<Region> R = regionOf(Sub)) {
        read(*R, E->getBeginLoc());
        for (const Stmt *Child : S->children())
          scanIndices(Child);
        return;
      }
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && Aliases.count(VD)) {
        Region R = Aliases[VD];
        R.within += "*";
        read(R, E->getBeginLoc());
        return;
      }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      for (const Expr *Arg : Call->arguments())
        if (Arg->getType()->isPointerType())
          if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Arg->IgnoreParenImpCasts()))
            if (std::optional<Region> R = regionOf(Sub); R && Sub->getType()->isArrayType()) {
              R->within += "*";
              read(*R, Arg->getBeginLoc());
            }
    }
  }
  for (const Stmt *Child : S->children())
    scan(Child);
}

// The indices of a subscript can read the ring too (rarely).
void RingReads::scanIndices(const Stmt *S) {
  if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(S)) {
    scan(Sub->getIdx());
    scanIndices(Sub->getBase());
  }
}

} // namespace clang::tidy::occlint
