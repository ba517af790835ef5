// Where a value comes from: the definitions the evaluator reads (variables
// with one reaching definition, enumerators), the macros a value expands
// from, and how an expression is spelled; each becomes a derivation step
// ("'threads' is defined here as 256") the checks turn into notes.
#include "values/ValueEvaluatorInternals.h"

#include "ast/AstWalker.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <utility>

namespace clang::tidy::occlint {

namespace value_evaluator_detail {

void appendUnique(std::vector<ValueDerivation> &To, const std::vector<ValueDerivation> &From) {
  for (const ValueDerivation &D : From) {
    bool Seen =
        std::any_of(To.begin(), To.end(), [&](const ValueDerivation &T) { return T.loc == D.loc && T.text == D.text; });
    if (!Seen)
      To.push_back(D);
  }
}

std::vector<ValueDerivation> mergeDerivations(const std::vector<ValueDerivation> &A,
                                              const std::vector<ValueDerivation> &B) {
  std::vector<ValueDerivation> Out;
  appendUnique(Out, A);
  appendUnique(Out, B);
  return Out;
}

} // namespace value_evaluator_detail

namespace {

std::string normalizeWhitespace(StringRef Text) {
  std::string Out;
  bool PendingSpace = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    bool LineContinuation = C == '\\' && I + 1 < Text.size() && (Text[I + 1] == '\n' || Text[I + 1] == '\r');
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\v' || C == '\f' || LineContinuation) {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out.push_back(' ');
    PendingSpace = false;
    Out.push_back(C);
  }
  return Out;
}

} // namespace

// ---------------------------------------------------------------------------
// Spellings and macros.

std::string ValueEvaluatorImpl::spellingOf(const Expr *E) const {
  if (!E)
    return "";
  SourceRange SR = E->getSourceRange();
  if (SR.isInvalid())
    return "";
  CharSourceRange CR = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(SR), SM, LO);
  if (CR.isInvalid())
    CR = SM.getExpansionRange(SR);
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(CR, SM, LO, &Invalid);
  if (!Invalid && !Text.empty())
    return normalizeWhitespace(Text);
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  E->printPretty(OS, nullptr, PrintingPolicy(LO));
  return normalizeWhitespace(OS.str());
}

// "'BLOCK' expands to 100" for every macro whose whole expansion is E (also
// through macro arguments: CEIL_DIV(n, BLOCK)), outermost first.
void ValueEvaluatorImpl::addMacroNotes(const Expr *E, IVal &V) const {
  if (!V.informative())
    return;
  SourceLocation Begin = E->getBeginLoc(), End = E->getEndLoc();
  if (!Begin.isMacroID() || !End.isMacroID())
    return;
  std::vector<ValueDerivation> Notes;
  std::string Desc = describe(V);
  std::vector<std::pair<SourceLocation, SourceLocation>> Work{{Begin, End}};
  for (unsigned Guard = 0; !Work.empty() && Guard < 64; ++Guard) {
    auto [B, En] = Work.back();
    Work.pop_back();
    if (!B.isMacroID() || !En.isMacroID())
      continue;
    SourceLocation BUp, EUp;
    if (!SM.isAtStartOfImmediateMacroExpansion(B, &BUp))
      continue;
    unsigned Len = Lexer::MeasureTokenLength(SM.getSpellingLoc(En), SM, LO);
    if (Len == 0 || !SM.isAtEndOfImmediateMacroExpansion(En.getLocWithOffset(Len), &EUp))
      continue;
    bool ArgB = SM.isMacroArgExpansion(B), ArgEn = SM.isMacroArgExpansion(En);
    if (ArgB != ArgEn)
      continue;
    if (!ArgB) {
      // The whole body of one macro expansion.
      if (SM.getFileID(B) != SM.getFileID(En))
        continue;
      StringRef Name = Lexer::getImmediateMacroName(B, SM, LO);
      if (!Name.empty()) {
        // A macro from the command line (-DNAME=4) has no place in a file:
        // the note goes to where it is used instead, and says so.
        const SourceLocation Defined = SM.getSpellingLoc(B);
        if (SM.getFilename(Defined).empty() || SM.isWrittenInBuiltinFile(Defined) ||
            SM.isWrittenInCommandLineFile(Defined))
          Notes.push_back(
              {SM.getExpansionLoc(B), "'" + Name.str() + "' expands to " + Desc + " (defined on the command line)"});
        else
          Notes.push_back({Defined, "'" + Name.str() + "' expands to " + Desc});
      }
      Work.push_back({BUp, EUp});
      continue;
    }
    // One whole macro argument: it may be the whole body of the macro it is
    // passed to, and its tokens may come from a macro expanded inside it.
    if (BUp != EUp)
      continue;
    Work.push_back({SM.getImmediateSpellingLoc(B), SM.getImmediateSpellingLoc(En)});
    Work.push_back({BUp, EUp});
  }
  if (Notes.empty())
    return;
  std::reverse(Notes.begin(), Notes.end());
  V.derivation = mergeDerivations(Notes, V.derivation);
}

// ---------------------------------------------------------------------------
// Variables.

namespace {

/// The variables lambdas of a function body capture by reference, and the
/// expressions of those captures written out (`[&threads]`: the capture,
/// not a use).
class ReferenceCaptures : public AstWalker {
public:
  bool visitStmt(Stmt *S) override {
    const auto *L = dyn_cast<LambdaExpr>(S);
    if (!L)
      return true;
    for (unsigned I = 0; I < L->capture_size(); ++I) {
      const LambdaCapture &Capture = L->capture_begin()[I];
      if (!Capture.capturesVariable() || Capture.getCaptureKind() != LCK_ByRef)
        continue;
      if (const auto *VD = dyn_cast<VarDecl>(Capture.getCapturedVar()))
        Found.variables.insert(VD);
      if (Capture.isExplicit())
        Found.explicitCaptures.insert(L->capture_init_begin()[I]);
    }
    return true;
  }
  ValueEvaluator::Cache::CapturesByReference Found;
};

/// The uses of one variable in a function body, lambda bodies included.
class VariableUses : public AstWalker {
public:
  explicit VariableUses(const VarDecl &VD) : VD(VD) {}
  bool visitStmt(Stmt *S) override {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == &VD)
      Uses.push_back(Ref);
    return true;
  }
  const VarDecl &VD;
  std::vector<const DeclRefExpr *> Uses;
};

} // namespace

// Clang's ExprMutationAnalyzer takes a capture by reference (`[&]`) for a
// modification, whatever the lambda does with it. Such a variable is
// modified only when one of its uses is, the lambda bodies' included: each
// use is asked on its own. The captures are collected once per body; only a
// variable captured by reference has its uses walked.
bool ValueEvaluatorImpl::mutatedBeyondReferenceCaptures(const VarDecl &VD, const Stmt &Body,
                                                        ExprMutationAnalyzer &Analyzer) {
  std::optional<ValueEvaluator::Cache::CapturesByReference> &Captures = C.capturesByReference[&Body];
  if (!Captures) {
    ReferenceCaptures Walk;
    Walk.traverseStmt(&Body);
    Captures = std::move(Walk.Found);
  }
  if (!Captures->variables.count(&VD))
    return true; // modified some other way
  VariableUses Walk(VD);
  Walk.traverseStmt(&Body);
  for (const DeclRefExpr *Use : Walk.Uses)
    if (!Captures->explicitCaptures.count(Use) && Analyzer.isMutated(Use))
      return true;
  return false;
}

namespace {

// An explicit cast to a reference or pointer whose target is not const:
// const_cast, or a C-style, functional or reinterpret cast (static_cast
// cannot drop const). Conservative: it need not drop const to count.
class ConstDroppingCasts : public AstWalker {
public:
  bool visitStmt(Stmt *S) override {
    const auto *E = dyn_cast<ExplicitCastExpr>(S);
    if (!E)
      return true;
    if (isa<CXXConstCastExpr>(E)) {
      Found = true;
    } else if (isa<CStyleCastExpr, CXXFunctionalCastExpr, CXXReinterpretCastExpr>(E)) {
      const QualType To = E->getTypeAsWritten();
      if ((To->isReferenceType() && !To.getNonReferenceType().isConstQualified()) ||
          (To->isPointerType() && !To->getPointeeType().isConstQualified()))
        Found = true;
    }
    return !Found;
  }
  bool Found = false;
};

// A const object that has no mutable member, of a type known here: it
// cannot be modified through its name but by a cast that drops the const.
bool constWithoutMutableMembers(const VarDecl &VD, const ASTContext &Ctx) {
  const QualType T = VD.getType().getNonReferenceType();
  if (T->isDependentType() || !T.isConstQualified())
    return false;
  const auto *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  return !RD || (RD->hasDefinition() && !RD->hasMutableFields());
}

} // namespace

bool ValueEvaluatorImpl::castsAwayConst(const Stmt &Body) {
  auto [It, Inserted] = C.castsAwayConst.try_emplace(&Body, false);
  if (Inserted) {
    ConstDroppingCasts Walk;
    Walk.traverseStmt(&Body);
    It->second = Walk.Found;
  }
  return It->second;
}

const ReadOnlyUses &ValueEvaluatorImpl::readOnlyUses(const Stmt &Body) {
  std::unique_ptr<ReadOnlyUses> &Uses = C.readOnlyUses[&Body];
  if (!Uses)
    Uses = std::make_unique<ReadOnlyUses>(Body);
  return *Uses;
}

bool ValueEvaluatorImpl::isMutated(const VarDecl &VD) {
  auto Known = C.mutated.find(&VD);
  if (Known != C.mutated.end())
    return Known->second;
  bool Result = true;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  // A reference to a const object (llama.cpp's `const mmq_args &args`) is
  // answered without Clang's ExprMutationAnalyzer, which walks the body for
  // every use of the variable: once per instantiation of a helper template,
  // most of `occlint -p`'s time past the parse on such code. Through the
  // name alone, only a cast can modify such an object; a body with one is
  // asked as before.
  if (Body && constWithoutMutableMembers(VD, Ctx) && !castsAwayConst(*Body)) {
    Result = false;
  } else if (Body && readOnlyUses(*Body).onlyRead(VD)) {
    // A variable whose every use is a plain read needs no analysis either
    // (values/ReadOnlyUses.h: one walk per body, where the analyzer's cost
    // grows with the uses times the body).
    Result = false;
  } else if (Body) {
    auto &A = C.analyzers[Body];
    if (!A)
      A = std::make_unique<ExprMutationAnalyzer>(*Body, Ctx);
    Result = A->isMutated(&VD);
    if (Result)
      Result = mutatedBeyondReferenceCaptures(VD, *Body, *A);
  }
  C.mutated[&VD] = Result;
  return Result;
}

// One reaching definition: its initializer is its value wherever it is read.
bool ValueEvaluatorImpl::hasStableValue(const VarDecl &VD) {
  if (isa<ParmVarDecl>(VD) || VD.getType()->isReferenceType() || VD.getType().isVolatileQualified())
    return false;
  if (VD.isConstexpr() || VD.getType().isConstQualified())
    return true;
  if (VD.isLocalVarDecl())
    return !isMutated(VD);
  return false; // a modifiable global or static member
}

IVal ValueEvaluatorImpl::evalVar(const VarDecl &VD, QualType UseType, bool Incoming) {
  std::string Name = VD.getName().str();
  if (VD.isCXXForRangeDecl())
    if (std::optional<IVal> Element = evalRangeForElement(VD, UseType))
      return *Element;
  const VarDecl *Def = &VD;
  const Expr *Init = VD.getAnyInitializer(Def);
  const bool Stable = Incoming || hasStableValue(VD);
  if (VD.getType()->isIntegralOrEnumerationType() && !Stable)
    if (std::optional<IVal> Queried = deviceQueryValue(VD, nullptr, UseType))
      return refineByGuards(VD, *Queried);
  if (VD.getType()->isIntegralOrEnumerationType() && VD.hasGlobalStorage() && !VD.isLocalVarDecl() && !Stable)
    if (std::optional<IVal> Global = globalDeviceValue(VD, UseType))
      return refineByGuards(VD, *Global);
  if (!Init || !Def || !Stable) {
    if (VD.isLocalVarDecl())
      recordReason(Init ? "'" + Name + "' is modified after its definition"
                        : "'" + Name + "' is declared without an initializer and set later");
    else
      recordReason("'" + Name + "' is a global that can change");
    return unknownOf(UseType, Name);
  }
  const unsigned VarFrame = frameOf(VD);
  if (const CachedValue<IVal> *Cached = cachedInt(Def, VarFrame)) {
    replay(Cached->learnt);
    return refineByGuards(VD, Cached->value);
  }
  if (Active.size() >= MaxVarDepth || !Active.insert(Def).second) {
    ++Truncations;
    return unknownOf(UseType, Name);
  }
  unsigned TruncationsBefore = Truncations;
  // What reading this variable teaches is kept with its value.
  EvaluationTrace Mine;
  EvaluationTrace *Outer = Trace;
  const unsigned SavedFrame = Frame;
  Trace = &Mine;
  Frame = VarFrame;
  IVal Value = evalInt(Init);
  Frame = SavedFrame;
  Trace = Outer;
  Active.erase(Def);
  replay(Mine);
  IVal Out = Value;
  std::vector<ValueDerivation> Own{{Def->getLocation(), "'" + Name + "' is defined here as " + describe(Value)}};
  Out.derivation = mergeDerivations(Own, Value.derivation);
  if (Truncations == TruncationsBefore)
    cacheInt(Def, VarFrame, {Out, Mine});
  return refineByGuards(VD, Out);
}

IVal ValueEvaluatorImpl::evalDeclRef(const DeclRefExpr *E) {
  const ValueDecl *D = E->getDecl();
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(D)) {
    const llvm::APSInt &V = ECD->getInitVal();
    if ((V.isSigned() && V.getSignificantBits() > 64) || (!V.isSigned() && V.getActiveBits() > 64))
      return unknownOf(E->getType());
    IVal R = exactOf(V.isSigned() ? static_cast<i128>(V.getSExtValue()) : static_cast<i128>(V.getZExtValue()));
    R.derivation.push_back({ECD->getLocation(), "'" + ECD->getName().str() + "' is defined here as " + describe(R)});
    return R;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    if (const IVal *Bound = helperArgument(*P))
      return castTo(*Bound, E->getType());
    if (std::optional<IVal> Written = evalAfterWrites(*P, *E, E->getType()))
      return *Written;
    return evalParam(*P, E->getType());
  }
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (std::optional<IVal> Written = evalAfterWrites(*VD, *E, E->getType()))
      return *Written;
    return evalVar(*VD, E->getType());
  }
  return unknownOf(E->getType(), D->getName().str());
}

} // namespace clang::tidy::occlint
