// Evaluating launch values as far as the source proves them (see the header).
//
// Internally every integer is an interval [lo, hi] in 128-bit arithmetic that
// is always sound: an unknown value is the whole range of its type. Each bound
// also says whether it is "known", i.e. worth reporting: a bound that only
// comes from the type (0 for an unsigned parameter, INT_MAX for an int) is not
// reported, so an unknown parameter stays "unknown" (with its spelling) rather
// than "0 to 4294967295", while min(n, 40) still reads "at most 40".
#include "facts/ValueEvaluator.h"

#include "clang/AST/APValue.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <utility>

namespace clang::tidy::occlint {

namespace {

using i128 = __int128;

// Magnitudes beyond every 64-bit type: the range of a value with no integer
// type, and the marker of an overflowed bound.
constexpr i128 Universe = static_cast<i128>(1) << 64;
constexpr i128 Huge = static_cast<i128>(1) << 100;

/// An integer value inside the evaluator.
struct IVal {
  i128 lo = -Universe, hi = Universe; // sound bounds, always lo <= hi
  bool loKnown = false, hiKnown = false;
  std::string spelling;
  std::vector<ValueDerivation> derivation;

  bool exact() const { return lo == hi; }
  bool informative() const { return exact() || loKnown || hiKnown; }
};

struct IDim3 {
  std::array<IVal, 3> c;
  bool exact() const { return c[0].exact() && c[1].exact() && c[2].exact(); }
};

struct TypeRange {
  bool valid = false;
  bool isSigned = false;
  unsigned width = 0;
  i128 min = -Universe, max = Universe;
};

bool fitsInt64(i128 V) {
  return V >= static_cast<i128>(INT64_MIN) && V <= static_cast<i128>(INT64_MAX);
}

i128 bitCeilMask(i128 V) { // smallest 2^k - 1 >= V, for V >= 0
  i128 M = 0;
  while (M < V)
    M = (M << 1) | 1;
  return M;
}

void appendUnique(std::vector<ValueDerivation> &To, const std::vector<ValueDerivation> &From) {
  for (const ValueDerivation &D : From) {
    bool Seen = std::any_of(To.begin(), To.end(), [&](const ValueDerivation &T) {
      return T.loc == D.loc && T.text == D.text;
    });
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

EvaluatedValue toPublic(const IVal &V) {
  EvaluatedValue Out;
  if (V.exact() && fitsInt64(V.lo)) {
    Out = EvaluatedValue::exact(static_cast<int64_t>(V.lo));
  } else {
    if (V.loKnown && fitsInt64(V.lo))
      Out.min = static_cast<int64_t>(V.lo);
    if (V.hiKnown && fitsInt64(V.hi))
      Out.max = static_cast<int64_t>(V.hi);
    Out.spelling = V.spelling;
  }
  Out.derivation = V.derivation;
  return Out;
}

std::string describe(const IVal &V) { return toPublic(V).describe(); }

std::string describeDim3(const IDim3 &D) {
  return "dim3(" + describe(D.c[0]) + ", " + describe(D.c[1]) + ", " + describe(D.c[2]) + ")";
}

/// The index (0, 1, 2) of a field named x, y or z of a dim3-like record (one
/// with integer fields x, y and z).
std::optional<unsigned> componentIndex(const FieldDecl &F) {
  const RecordDecl *RD = F.getParent();
  if (!RD || !F.getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  unsigned Found = 0;
  for (const FieldDecl *G : RD->fields())
    if (G->getName() == "x" || G->getName() == "y" || G->getName() == "z")
      ++Found;
  if (Found != 3)
    return std::nullopt;
  StringRef N = F.getName();
  if (N == "x")
    return 0;
  if (N == "y")
    return 1;
  if (N == "z")
    return 2;
  return std::nullopt;
}

/// The fields x, y, z of a dim3-like record, or none.
std::optional<std::array<const FieldDecl *, 3>> dim3Fields(const RecordDecl *RD) {
  if (!RD)
    return std::nullopt;
  std::array<const FieldDecl *, 3> Out{nullptr, nullptr, nullptr};
  for (const FieldDecl *F : RD->fields())
    if (auto I = componentIndex(*F))
      Out[*I] = F;
  if (!Out[0] || !Out[1] || !Out[2])
    return std::nullopt;
  return Out;
}

} // namespace

struct ValueEvaluator::Cache {
  llvm::DenseMap<const Stmt *, std::unique_ptr<ExprMutationAnalyzer>> analyzers;
  llvm::DenseMap<const VarDecl *, bool> mutated;
  llvm::DenseMap<const VarDecl *, IVal> intVars;
  llvm::DenseMap<const VarDecl *, IDim3> dim3Vars;
};

ValueEvaluator::Cache &ValueEvaluator::cache() {
  if (!Cached)
    Cached = std::make_shared<Cache>();
  return *Cached;
}

/// One top-level evaluation: the recursion guards live here.
class ValueEvaluatorImpl {
public:
  ValueEvaluatorImpl(ASTContext &Ctx, ValueEvaluator::Cache &C)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), C(C) {}

  IVal evalInt(const Expr *E);
  IDim3 evalDim3(const Expr *E);
  IVal castTo(IVal V, QualType Dest);

private:
  // Limits: nested expressions, nested variables, and the total work of one
  // top-level evaluation (a chain of variables each read twice is otherwise
  // exponential when a cut-off stops its values from being cached).
  static constexpr unsigned MaxDepth = 200;
  static constexpr unsigned MaxVarDepth = 24;
  static constexpr unsigned MaxSteps = 20000;

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  ValueEvaluator::Cache &C;
  unsigned Depth = 0;
  unsigned Steps = 0;
  unsigned Truncations = 0; // results cut short by a guard: not cached
  llvm::SmallPtrSet<const VarDecl *, 8> Active;

  TypeRange rangeOf(QualType T) const;
  IVal unknownOf(QualType T, std::string Spelling = "") const;
  IVal exactOf(i128 V) const {
    IVal R;
    R.lo = R.hi = V;
    R.loKnown = R.hiKnown = true;
    return R;
  }
  IVal normalize(IVal V, QualType T) const;
  std::optional<i128> fold(const Expr *E) const;
  std::string spellingOf(const Expr *E) const;
  void addMacroNotes(const Expr *E, IVal &V) const;
  bool isMutated(const VarDecl &VD);
  bool hasStableValue(const VarDecl &VD);

  IVal evalIntNode(const Expr *E);
  IVal evalIntCast(const CastExpr *E);
  IVal evalDeclRef(const DeclRefExpr *E);
  IVal evalVar(const VarDecl &VD, QualType UseType);
  IVal evalUnary(const UnaryOperator *E);
  IVal evalBinary(const BinaryOperator *E);
  IVal evalConditional(const AbstractConditionalOperator *E);
  IVal evalCall(const CallExpr *E);
  IVal evalMember(const MemberExpr *E);
  IVal arith(BinaryOperatorKind Op, const IVal &A, const IVal &B, QualType LHSType);

  std::optional<IDim3> evalConstruct(const CXXConstructExpr *E);
  std::optional<IDim3> evalInitList(const InitListExpr *E);
  std::optional<IDim3> evalDim3Var(const DeclRefExpr *E, const std::string &Spelling);
  std::optional<IDim3> foldDim3(const Expr *E) const;
  IDim3 unknownDim3(const std::string &Spelling) const;
};

// ---------------------------------------------------------------------------
// Types, normalization, constants, spellings.

TypeRange ValueEvaluatorImpl::rangeOf(QualType T) const {
  TypeRange R;
  if (T.isNull())
    return R;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>()) {
    QualType Int = ET->getDecl()->getIntegerType();
    if (Int.isNull())
      return R;
    T = Int.getCanonicalType();
  }
  if (T->isBooleanType()) {
    R.valid = true;
    R.width = 1;
    R.min = 0;
    R.max = 1;
    return R;
  }
  if (!T->isIntegerType())
    return R;
  unsigned W = Ctx.getIntWidth(T);
  if (W == 0 || W > 64)
    return R;
  R.valid = true;
  R.width = W;
  R.isSigned = T->isSignedIntegerType();
  if (R.isSigned) {
    R.min = -(static_cast<i128>(1) << (W - 1));
    R.max = (static_cast<i128>(1) << (W - 1)) - 1;
  } else {
    R.min = 0;
    R.max = (static_cast<i128>(1) << W) - 1;
  }
  return R;
}

IVal ValueEvaluatorImpl::unknownOf(QualType T, std::string Spelling) const {
  IVal R;
  TypeRange TR = rangeOf(T);
  R.lo = TR.min;
  R.hi = TR.max;
  R.spelling = std::move(Spelling);
  return R;
}

static i128 wrapTo(i128 V, const TypeRange &R) {
  i128 Mod = static_cast<i128>(1) << R.width;
  V %= Mod;
  if (V < 0)
    V += Mod;
  if (R.isSigned && V > R.max)
    V -= Mod;
  return V;
}

// After an arithmetic operation of type T: unsigned results wrap (only an
// exact result is still known then), signed overflow is undefined so the
// bounds are clamped to the type.
IVal ValueEvaluatorImpl::normalize(IVal V, QualType T) const {
  TypeRange R = rangeOf(T);
  auto Unknown = [&] {
    IVal U = unknownOf(T, V.spelling);
    U.derivation = std::move(V.derivation);
    return U;
  };
  if (!R.valid)
    return Unknown();
  if (V.lo >= R.min && V.hi <= R.max)
    return V;
  if (!R.isSigned) {
    if (V.exact() && V.lo > -Huge && V.lo < Huge && !T->isBooleanType()) {
      V.lo = V.hi = wrapTo(V.lo, R);
      return V;
    }
    return Unknown();
  }
  if (V.lo < R.min) {
    V.lo = R.min;
    V.loKnown = false;
  }
  if (V.hi > R.max) {
    V.hi = R.max;
    V.hiKnown = false;
  }
  if (V.lo > V.hi || V.lo > R.max || V.hi < R.min)
    return Unknown();
  return V;
}

IVal ValueEvaluatorImpl::castTo(IVal V, QualType Dest) {
  TypeRange R = rangeOf(Dest);
  if (!R.valid) {
    IVal U = unknownOf(Dest, V.spelling);
    U.derivation = std::move(V.derivation);
    return U;
  }
  if (R.width == 1 && !R.isSigned && R.max == 1 && Dest->isBooleanType()) {
    // Conversion to bool: nonzero is true.
    bool Zero = V.exact() && V.lo == 0, NonZero = V.lo > 0 || V.hi < 0;
    IVal B = Zero || NonZero ? exactOf(NonZero) : unknownOf(Dest, V.spelling);
    B.derivation = std::move(V.derivation);
    return B;
  }
  if (V.lo >= R.min && V.hi <= R.max)
    return V;
  if (V.exact() && V.lo > -Huge && V.lo < Huge) {
    V.lo = V.hi = wrapTo(V.lo, R);
    V.loKnown = V.hiKnown = true;
    return V;
  }
  IVal U = unknownOf(Dest, V.spelling);
  U.derivation = std::move(V.derivation);
  return U;
}

std::optional<i128> ValueEvaluatorImpl::fold(const Expr *E) const {
  if (!E || E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.isSigned()) {
    if (V.getSignificantBits() > 64)
      return std::nullopt;
    return static_cast<i128>(V.getSExtValue());
  }
  if (V.getActiveBits() > 64)
    return std::nullopt;
  return static_cast<i128>(V.getZExtValue());
}

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
          Notes.push_back({SM.getExpansionLoc(B), "'" + Name.str() + "' expands to " + Desc +
                                                      " (defined on the command line)"});
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

bool ValueEvaluatorImpl::isMutated(const VarDecl &VD) {
  auto Known = C.mutated.find(&VD);
  if (Known != C.mutated.end())
    return Known->second;
  bool Result = true;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (Body) {
    auto &A = C.analyzers[Body];
    if (!A)
      A = std::make_unique<ExprMutationAnalyzer>(*Body, Ctx);
    Result = A->isMutated(&VD);
  }
  C.mutated[&VD] = Result;
  return Result;
}

// One reaching definition: its initializer is its value wherever it is read.
bool ValueEvaluatorImpl::hasStableValue(const VarDecl &VD) {
  if (isa<ParmVarDecl>(VD) || VD.getType()->isReferenceType() ||
      VD.getType().isVolatileQualified())
    return false;
  if (VD.isConstexpr() || VD.getType().isConstQualified())
    return true;
  if (VD.isLocalVarDecl())
    return !isMutated(VD);
  return false; // a modifiable global or static member
}

IVal ValueEvaluatorImpl::evalVar(const VarDecl &VD, QualType UseType) {
  std::string Name = VD.getName().str();
  const VarDecl *Def = &VD;
  const Expr *Init = VD.getAnyInitializer(Def);
  if (!Init || !Def || !hasStableValue(VD))
    return unknownOf(UseType, Name);
  auto Cached = C.intVars.find(Def);
  if (Cached != C.intVars.end())
    return Cached->second;
  if (Active.size() >= MaxVarDepth || !Active.insert(Def).second) {
    ++Truncations;
    return unknownOf(UseType, Name);
  }
  unsigned TruncationsBefore = Truncations;
  IVal Value = evalInt(Init);
  Active.erase(Def);
  IVal Out = Value;
  std::vector<ValueDerivation> Own{
      {Def->getLocation(), "'" + Name + "' is defined here as " + describe(Value)}};
  Out.derivation = mergeDerivations(Own, Value.derivation);
  if (Truncations == TruncationsBefore)
    C.intVars[Def] = Out;
  return Out;
}

IVal ValueEvaluatorImpl::evalDeclRef(const DeclRefExpr *E) {
  const ValueDecl *D = E->getDecl();
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(D)) {
    const llvm::APSInt &V = ECD->getInitVal();
    if ((V.isSigned() && V.getSignificantBits() > 64) || (!V.isSigned() && V.getActiveBits() > 64))
      return unknownOf(E->getType());
    IVal R = exactOf(V.isSigned() ? static_cast<i128>(V.getSExtValue())
                                  : static_cast<i128>(V.getZExtValue()));
    R.derivation.push_back({ECD->getLocation(), "'" + ECD->getName().str() +
                                                    "' is defined here as " + describe(R)});
    return R;
  }
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return evalVar(*VD, E->getType());
  return unknownOf(E->getType(), D->getName().str());
}

// ---------------------------------------------------------------------------
// Integer expressions.

IVal ValueEvaluatorImpl::evalInt(const Expr *E) {
  if (!E)
    return IVal{};
  QualType T = E->getType();
  std::string Spelling = spellingOf(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return unknownOf(T, Spelling);
  if (Depth >= MaxDepth || Steps >= MaxSteps) {
    ++Truncations;
    return unknownOf(T, Spelling);
  }
  ++Depth;
  ++Steps;
  IVal R = evalIntNode(E);
  --Depth;
  if (!R.exact())
    if (std::optional<i128> V = fold(E)) {
      R.lo = R.hi = *V;
      R.loKnown = R.hiKnown = true;
    }
  if (rangeOf(T).valid)
    R = normalize(std::move(R), T);
  if (R.exact())
    R.spelling.clear();
  else if (!Spelling.empty())
    R.spelling = Spelling;
  if (!isa<ImplicitCastExpr, FullExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
           CXXDefaultArgExpr, CXXDefaultInitExpr, SubstNonTypeTemplateParmExpr, OpaqueValueExpr>(E))
    addMacroNotes(E, R);
  return R;
}

IVal ValueEvaluatorImpl::evalIntNode(const Expr *E) {
  QualType T = E->getType();
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return evalInt(P->getSubExpr());
  if (const auto *F = dyn_cast<FullExpr>(E))
    return evalInt(F->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return evalInt(M->getSubExpr());
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return evalInt(B->getSubExpr());
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return evalInt(D->getExpr());
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
    return evalInt(D->getExpr());
  if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
    return O->getSourceExpr() ? evalInt(O->getSourceExpr()) : unknownOf(T);
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
    IVal R = evalInt(S->getReplacement());
    if (R.informative())
      if (const NonTypeTemplateParmDecl *P = S->getParameter())
        if (!P->getName().empty())
          R.derivation = mergeDerivations(
              {{P->getLocation(), "'" + P->getName().str() + "' is defined here as " + describe(R)}},
              R.derivation);
    return R;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() == 1 && T->isIntegralOrEnumerationType() ? evalInt(IL->getInit(0))
                                                                      : unknownOf(T);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evalIntCast(Cast);
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(D);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return evalUnary(U);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return evalBinary(B);
  if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(Cond);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return evalMember(M);
  return unknownOf(T);
}

IVal ValueEvaluatorImpl::evalIntCast(const CastExpr *E) {
  const Expr *Sub = E->getSubExpr();
  QualType T = E->getType();
  switch (E->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
    if (!Sub->getType()->isIntegralOrEnumerationType())
      return unknownOf(T);
    return castTo(evalInt(Sub), T);
  default:
    return unknownOf(T); // floating point, pointers, ...: only a constant fold
  }
}

IVal ValueEvaluatorImpl::evalUnary(const UnaryOperator *E) {
  QualType T = E->getType();
  const Expr *Sub = E->getSubExpr();
  switch (E->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return evalInt(Sub);
  case UO_Minus: {
    IVal A = evalInt(Sub);
    IVal R = A;
    R.lo = -A.hi;
    R.hi = -A.lo;
    R.loKnown = A.hiKnown;
    R.hiKnown = A.loKnown;
    return R;
  }
  case UO_Not: {
    IVal A = evalInt(Sub);
    TypeRange TR = rangeOf(T);
    if (!TR.valid)
      return unknownOf(T);
    IVal R = A;
    if (TR.isSigned) { // ~x == -x - 1
      R.lo = -A.hi - 1;
      R.hi = -A.lo - 1;
    } else { // ~x == max - x
      R.lo = TR.max - A.hi;
      R.hi = TR.max - A.lo;
    }
    R.loKnown = A.hiKnown;
    R.hiKnown = A.loKnown;
    return R;
  }
  case UO_LNot: {
    IVal A = evalInt(Sub);
    IVal R = unknownOf(T);
    R.derivation = A.derivation;
    if (A.exact()) {
      R.lo = R.hi = A.lo == 0;
    } else if (A.lo > 0 || A.hi < 0) {
      R.lo = R.hi = 0;
    } else {
      R.lo = 0;
      R.hi = 1;
    }
    R.loKnown = R.hiKnown = R.exact();
    return R;
  }
  default:
    return unknownOf(T); // ++, --, *, &: not a value the source pins down
  }
}

// Interval arithmetic on sound bounds. The "known" flags follow the bounds
// each result bound was computed from.
IVal ValueEvaluatorImpl::arith(BinaryOperatorKind Op, const IVal &A, const IVal &B,
                               QualType LHSType) {
  IVal R;
  R.derivation = mergeDerivations(A.derivation, B.derivation);
  auto Unknown = [&] {
    R.lo = -Huge;
    R.hi = Huge;
    R.loKnown = R.hiKnown = false;
    return R;
  };
  auto Mul = [](i128 X, i128 Y, i128 Overflow) {
    i128 P;
    if (__builtin_mul_overflow(X, Y, &P))
      return Overflow;
    return P;
  };
  bool NonNeg = A.lo >= 0 && B.lo >= 0;
  bool AllKnown = A.loKnown && A.hiKnown && B.loKnown && B.hiKnown;
  switch (Op) {
  case BO_Add:
    R.lo = A.lo + B.lo;
    R.hi = A.hi + B.hi;
    R.loKnown = A.loKnown && B.loKnown;
    R.hiKnown = A.hiKnown && B.hiKnown;
    return R;
  case BO_Sub:
    R.lo = A.lo - B.hi;
    R.hi = A.hi - B.lo;
    R.loKnown = A.loKnown && B.hiKnown;
    R.hiKnown = A.hiKnown && B.loKnown;
    return R;
  case BO_Mul: {
    if (NonNeg) {
      R.lo = Mul(A.lo, B.lo, Huge);
      R.hi = Mul(A.hi, B.hi, Huge);
      R.loKnown = A.loKnown && B.loKnown;
      R.hiKnown = A.hiKnown && B.hiKnown;
      return R;
    }
    i128 P[4] = {Mul(A.lo, B.lo, Huge), Mul(A.lo, B.hi, Huge), Mul(A.hi, B.lo, Huge),
                 Mul(A.hi, B.hi, Huge)};
    for (i128 X : P)
      if (X == Huge)
        return Unknown();
    R.lo = *std::min_element(P, P + 4);
    R.hi = *std::max_element(P, P + 4);
    R.loKnown = R.hiKnown = AllKnown;
    return R;
  }
  case BO_Div: {
    if (B.lo <= 0 && B.hi >= 0)
      return Unknown(); // the divisor may be 0
    if (NonNeg) {
      R.lo = A.lo / B.hi;
      R.hi = A.hi / B.lo;
      R.loKnown = A.loKnown && B.hiKnown;
      R.hiKnown = A.hiKnown && B.loKnown;
      return R;
    }
    i128 P[4] = {A.lo / B.lo, A.lo / B.hi, A.hi / B.lo, A.hi / B.hi};
    R.lo = *std::min_element(P, P + 4);
    R.hi = *std::max_element(P, P + 4);
    R.loKnown = R.hiKnown = AllKnown;
    return R;
  }
  case BO_Rem: {
    if (B.lo <= 0 && B.hi >= 0)
      return Unknown();
    if (A.exact() && B.exact()) {
      R.lo = R.hi = A.lo % B.lo;
      R.loKnown = R.hiKnown = true;
      return R;
    }
    i128 MinAbs = std::min(B.lo < 0 ? -B.lo : B.lo, B.hi < 0 ? -B.hi : B.hi);
    i128 MaxAbs = std::max(B.lo < 0 ? -B.lo : B.lo, B.hi < 0 ? -B.hi : B.hi);
    if (A.lo >= 0 && A.hi < MinAbs)
      return [&] { IVal S = A; S.derivation = R.derivation; return S; }();
    i128 M = MaxAbs - 1; // |a % b| < |b|, and the sign is a's
    bool BKnown = B.loKnown && B.hiKnown;
    if (A.lo >= 0) {
      R.lo = 0;
      R.loKnown = A.loKnown;
      R.hi = std::min(A.hi, M);
      R.hiKnown = A.hi <= M ? A.hiKnown : BKnown;
    } else if (A.hi <= 0) {
      R.hi = 0;
      R.hiKnown = A.hiKnown;
      R.lo = std::max(A.lo, -M);
      R.loKnown = A.lo >= -M ? A.loKnown : BKnown;
    } else {
      R.lo = std::max(A.lo, -M);
      R.hi = std::min(A.hi, M);
      R.loKnown = A.lo >= -M ? A.loKnown : BKnown;
      R.hiKnown = A.hi <= M ? A.hiKnown : BKnown;
    }
    return R;
  }
  case BO_Shl:
  case BO_Shr: {
    TypeRange L = rangeOf(LHSType);
    if (!L.valid || A.lo < 0 || B.lo < 0 || B.hi >= static_cast<i128>(L.width))
      return Unknown(); // undefined, or a negative value (not bounded here)
    if (Op == BO_Shl) {
      R.lo = Mul(A.lo, static_cast<i128>(1) << static_cast<unsigned>(B.lo), Huge);
      R.hi = Mul(A.hi, static_cast<i128>(1) << static_cast<unsigned>(B.hi), Huge);
      R.loKnown = A.loKnown && B.loKnown;
      R.hiKnown = A.hiKnown && B.hiKnown;
    } else {
      R.lo = A.lo >> static_cast<unsigned>(B.hi);
      R.hi = A.hi >> static_cast<unsigned>(B.lo);
      R.loKnown = A.loKnown && B.hiKnown;
      R.hiKnown = A.hiKnown && B.loKnown;
    }
    return R;
  }
  case BO_And: {
    if (A.exact() && B.exact()) {
      R.lo = R.hi = A.lo & B.lo;
      R.loKnown = R.hiKnown = true;
      return R;
    }
    // x & y lies in [0, y] for y >= 0, whatever x is.
    const IVal *P = nullptr;
    if (NonNeg)
      P = A.hi <= B.hi ? &A : &B;
    else if (A.lo >= 0)
      P = &A;
    else if (B.lo >= 0)
      P = &B;
    if (!P)
      return Unknown();
    R.lo = 0;
    R.hi = P->hi;
    R.loKnown = (A.lo >= 0 && A.loKnown) || (B.lo >= 0 && B.loKnown);
    R.hiKnown = P->hiKnown || (NonNeg && A.hi == B.hi && (A.hiKnown || B.hiKnown));
    return R;
  }
  case BO_Or:
  case BO_Xor: {
    if (A.exact() && B.exact()) {
      R.lo = R.hi = Op == BO_Or ? (A.lo | B.lo) : (A.lo ^ B.lo);
      R.loKnown = R.hiKnown = true;
      return R;
    }
    if (!NonNeg)
      return Unknown();
    R.hi = bitCeilMask(std::max(A.hi, B.hi));
    R.hiKnown = A.hiKnown && B.hiKnown;
    if (Op == BO_Or) { // x | y >= max(x, y)
      bool AFirst = A.lo >= B.lo;
      R.lo = AFirst ? A.lo : B.lo;
      R.loKnown = AFirst ? A.loKnown : B.loKnown;
    } else {
      R.lo = 0;
      R.loKnown = A.loKnown && B.loKnown;
    }
    return R;
  }
  default:
    return Unknown();
  }
}

IVal ValueEvaluatorImpl::evalBinary(const BinaryOperator *E) {
  QualType T = E->getType();
  BinaryOperatorKind Op = E->getOpcode();
  if (Op == BO_Comma)
    return evalInt(E->getRHS());
  if (E->isAssignmentOp() || Op == BO_Cmp || Op == BO_PtrMemD || Op == BO_PtrMemI)
    return unknownOf(T);
  if (!E->getLHS()->getType()->isIntegralOrEnumerationType() ||
      !E->getRHS()->getType()->isIntegralOrEnumerationType())
    return unknownOf(T);
  IVal A = evalInt(E->getLHS());
  if (Op == BO_LAnd || Op == BO_LOr) {
    IVal R = exactOf(0);
    R.derivation = A.derivation;
    bool AFalse = A.exact() && A.lo == 0, ATrue = A.lo > 0 || A.hi < 0;
    if (Op == BO_LAnd && AFalse)
      return R;
    if (Op == BO_LOr && ATrue)
      return [&] { R.lo = R.hi = 1; return R; }();
    IVal B = evalInt(E->getRHS());
    R.derivation = mergeDerivations(A.derivation, B.derivation);
    bool BFalse = B.exact() && B.lo == 0, BTrue = B.lo > 0 || B.hi < 0;
    bool Value;
    if (Op == BO_LAnd && (ATrue && BTrue))
      Value = true;
    else if (Op == BO_LAnd && BFalse)
      Value = false;
    else if (Op == BO_LOr && AFalse && BFalse)
      Value = false;
    else if (Op == BO_LOr && BTrue)
      Value = true;
    else {
      R.lo = 0;
      R.hi = 1;
      R.loKnown = R.hiKnown = false;
      return R;
    }
    R.lo = R.hi = Value;
    return R;
  }
  IVal B = evalInt(E->getRHS());
  if (E->isComparisonOp()) {
    IVal R = exactOf(0);
    R.derivation = mergeDerivations(A.derivation, B.derivation);
    std::optional<bool> V;
    switch (Op) {
    case BO_LT:
      if (A.hi < B.lo) V = true; else if (A.lo >= B.hi) V = false;
      break;
    case BO_GT:
      if (A.lo > B.hi) V = true; else if (A.hi <= B.lo) V = false;
      break;
    case BO_LE:
      if (A.hi <= B.lo) V = true; else if (A.lo > B.hi) V = false;
      break;
    case BO_GE:
      if (A.lo >= B.hi) V = true; else if (A.hi < B.lo) V = false;
      break;
    case BO_EQ:
      if (A.exact() && B.exact() && A.lo == B.lo) V = true;
      else if (A.hi < B.lo || B.hi < A.lo) V = false;
      break;
    case BO_NE:
      if (A.exact() && B.exact() && A.lo == B.lo) V = false;
      else if (A.hi < B.lo || B.hi < A.lo) V = true;
      break;
    default:
      break;
    }
    if (V) {
      R.lo = R.hi = *V;
    } else {
      R.lo = 0;
      R.hi = 1;
      R.loKnown = R.hiKnown = false;
    }
    return R;
  }
  return arith(Op, A, B, E->getLHS()->getType());
}

IVal ValueEvaluatorImpl::evalConditional(const AbstractConditionalOperator *E) {
  IVal Cond = evalInt(E->getCond());
  bool CondTrue = Cond.lo > 0 || Cond.hi < 0, CondFalse = Cond.exact() && Cond.lo == 0;
  if (CondTrue || CondFalse) {
    IVal R = evalInt(CondTrue ? E->getTrueExpr() : E->getFalseExpr());
    R.derivation = mergeDerivations(Cond.derivation, R.derivation);
    return R;
  }
  // The hull of both arms.
  IVal A = evalInt(E->getTrueExpr());
  IVal B = evalInt(E->getFalseExpr());
  IVal R;
  R.derivation = mergeDerivations(Cond.derivation, mergeDerivations(A.derivation, B.derivation));
  R.lo = std::min(A.lo, B.lo);
  R.hi = std::max(A.hi, B.hi);
  R.loKnown = A.lo < B.lo ? A.loKnown : B.lo < A.lo ? B.loKnown : (A.loKnown || B.loKnown);
  R.hiKnown = A.hi > B.hi ? A.hiKnown : B.hi > A.hi ? B.hiKnown : (A.hiKnown || B.hiKnown);
  return R;
}

// min/max: std::min, std::max, ::min, ::max, CUDA's overloads (and its
// umin/umax/llmin/llmax/ullmin/ullmax).
IVal ValueEvaluatorImpl::evalCall(const CallExpr *E) {
  QualType T = E->getType();
  const FunctionDecl *FD = E->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier() || E->getNumArgs() != 2 ||
      !T->isIntegralOrEnumerationType())
    return unknownOf(T);
  StringRef Name = FD->getName();
  bool IsMin = Name == "min" || Name == "umin" || Name == "llmin" || Name == "ullmin";
  bool IsMax = Name == "max" || Name == "umax" || Name == "llmax" || Name == "ullmax";
  if (!IsMin && !IsMax)
    return unknownOf(T);
  const Expr *Args[2] = {E->getArg(0), E->getArg(1)};
  if (!Args[0]->getType()->isIntegralOrEnumerationType() ||
      !Args[1]->getType()->isIntegralOrEnumerationType())
    return unknownOf(T);
  // Both arguments are compared in the result type (CUDA's min(int, unsigned)
  // compares as unsigned).
  IVal A = castTo(evalInt(Args[0]), T);
  IVal B = castTo(evalInt(Args[1]), T);
  IVal R;
  R.derivation = mergeDerivations(A.derivation, B.derivation);
  auto Pick = [](i128 X, bool XK, i128 Y, bool YK, bool Smaller, bool &Known) {
    if (X == Y) {
      Known = XK || YK;
      return X;
    }
    bool TakeX = Smaller ? X < Y : X > Y;
    Known = TakeX ? XK : YK;
    return TakeX ? X : Y;
  };
  R.lo = Pick(A.lo, A.loKnown, B.lo, B.loKnown, IsMin, R.loKnown);
  R.hi = Pick(A.hi, A.hiKnown, B.hi, B.hiKnown, IsMin, R.hiKnown);
  return R;
}

// b.x of a dim3 value.
IVal ValueEvaluatorImpl::evalMember(const MemberExpr *E) {
  QualType T = E->getType();
  const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
  if (!F || E->isArrow())
    return unknownOf(T);
  std::optional<unsigned> Index = componentIndex(*F);
  if (!Index || !dim3Fields(F->getParent()))
    return unknownOf(T);
  IDim3 D = evalDim3(E->getBase());
  return castTo(D.c[*Index], T);
}

// ---------------------------------------------------------------------------
// dim3 values.

IDim3 ValueEvaluatorImpl::unknownDim3(const std::string &Spelling) const {
  IDim3 D;
  static const char *Names[3] = {".x", ".y", ".z"};
  for (unsigned I = 0; I < 3; ++I)
    D.c[I] = unknownOf(Ctx.UnsignedIntTy, Spelling.empty() ? "" : Spelling + Names[I]);
  return D;
}

static const Expr *stripDim3Wrappers(const Expr *E) {
  while (true) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CastExpr>(E);
             C && (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_ConstructorConversion ||
                   C->getCastKind() == CK_LValueToRValue))
      E = C->getSubExpr();
    else
      return E;
  }
}

IDim3 ValueEvaluatorImpl::evalDim3(const Expr *E) {
  if (!E)
    return unknownDim3("");
  std::string Spelling = spellingOf(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return unknownDim3(Spelling);
  if (Depth >= MaxDepth || Steps >= MaxSteps) {
    ++Truncations;
    return unknownDim3(Spelling);
  }
  const Expr *Inner = stripDim3Wrappers(E);
  if (Inner->getType()->isIntegralOrEnumerationType()) {
    IDim3 D;
    D.c[0] = castTo(evalInt(Inner), Ctx.UnsignedIntTy);
    D.c[1] = D.c[2] = exactOf(1);
    return D;
  }
  ++Depth;
  ++Steps;
  std::optional<IDim3> D;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner))
    D = evalConstruct(CE);
  else if (const auto *IL = dyn_cast<InitListExpr>(Inner))
    D = evalInitList(IL);
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Inner))
    D = evalDim3Var(DRE, Spelling);
  --Depth;
  if (!D || !D->exact())
    if (std::optional<IDim3> Folded = foldDim3(Inner)) {
      for (unsigned I = 0; I < 3; ++I)
        if (D)
          Folded->c[I].derivation = D->c[I].derivation;
      D = std::move(Folded);
    }
  if (!D)
    return unknownDim3(Spelling);
  return *D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalConstruct(const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (!Ctor)
    return std::nullopt;
  if (Ctor->isCopyOrMoveConstructor() && E->getNumArgs() >= 1)
    return evalDim3(E->getArg(0));
  auto Fields = dim3Fields(Ctor->getParent());
  if (!Fields)
    return std::nullopt;
  // Which argument each of x, y, z is: from the constructor's member
  // initializers (x(vx), ...), else by position for a type named dim3.
  std::array<std::optional<unsigned>, 3> ArgOf;
  std::array<const Expr *, 3> ConstInit{nullptr, nullptr, nullptr};
  bool Mapped = false;
  const FunctionDecl *DefFD = nullptr;
  if (Ctor->isDefined(DefFD))
    if (const auto *Def = dyn_cast<CXXConstructorDecl>(DefFD)) {
      Mapped = true;
      for (unsigned I = 0; I < 3; ++I) {
        const CXXCtorInitializer *Found = nullptr;
        for (const CXXCtorInitializer *Init : Def->inits())
          if (Init->isMemberInitializer() && Init->getMember() == (*Fields)[I])
            Found = Init;
        const Expr *InitE = Found ? Found->getInit() : nullptr;
        if (!InitE) {
          Mapped = false;
          break;
        }
        const Expr *Stripped = InitE->IgnoreParenImpCasts();
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Stripped))
          if (const auto *Parm = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
            ArgOf[I] = Parm->getFunctionScopeIndex();
            continue;
          }
        if (fold(InitE)) {
          ConstInit[I] = InitE;
          continue;
        }
        Mapped = false;
        break;
      }
    }
  if (!Mapped) {
    if (Ctor->getParent()->getName() != "dim3" || E->getNumArgs() > 3)
      return std::nullopt;
    for (unsigned I = 0; I < 3; ++I) {
      ArgOf[I] = I;
      ConstInit[I] = nullptr;
    }
  }
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    QualType FT = (*Fields)[I]->getType();
    if (ConstInit[I]) {
      D.c[I] = castTo(exactOf(*fold(ConstInit[I])), FT);
      continue;
    }
    unsigned A = *ArgOf[I];
    if (A >= E->getNumArgs()) {
      if (Mapped)
        return std::nullopt;
      D.c[I] = exactOf(1); // dim3's defaults
      continue;
    }
    const Expr *Arg = E->getArg(A);
    if (!Arg->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    D.c[I] = castTo(evalInt(Arg), FT);
  }
  return D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalInitList(const InitListExpr *E) {
  const InitListExpr *Semantic = E->isSemanticForm() ? E : E->getSemanticForm();
  if (!Semantic)
    return std::nullopt;
  const auto *RD = Semantic->getType()->getAsRecordDecl();
  auto Fields = dim3Fields(RD);
  if (!Fields)
    return std::nullopt;
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    unsigned Index = (*Fields)[I]->getFieldIndex();
    if (Index >= Semantic->getNumInits())
      return std::nullopt;
    D.c[I] = castTo(evalInt(Semantic->getInit(Index)), (*Fields)[I]->getType());
  }
  return D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalDim3Var(const DeclRefExpr *E,
                                                     const std::string &Spelling) {
  const auto *VD = dyn_cast<VarDecl>(E->getDecl());
  if (!VD)
    return std::nullopt;
  const VarDecl *Def = VD;
  const Expr *Init = VD->getAnyInitializer(Def);
  IDim3 Out;
  if (!Init || !Def || !hasStableValue(*VD))
    return unknownDim3(Spelling);
  auto Cached = C.dim3Vars.find(Def);
  if (Cached != C.dim3Vars.end()) {
    Out = Cached->second;
  } else {
    if (Active.size() >= MaxVarDepth || !Active.insert(Def).second) {
      ++Truncations;
      return unknownDim3(Spelling);
    }
    unsigned TruncationsBefore = Truncations;
    IDim3 Value = evalDim3(Init);
    Active.erase(Def);
    std::vector<ValueDerivation> Own{
        {Def->getLocation(), "'" + VD->getName().str() + "' is defined here as " + describeDim3(Value)}};
    Out = Value;
    for (IVal &V : Out.c)
      V.derivation = mergeDerivations(Own, V.derivation);
    if (Truncations == TruncationsBefore)
      C.dim3Vars[Def] = Out;
  }
  static const char *Names[3] = {".x", ".y", ".z"};
  for (unsigned I = 0; I < 3; ++I)
    if (!Out.c[I].exact() && !Spelling.empty())
      Out.c[I].spelling = Spelling + Names[I];
  return Out;
}

// A constant dim3 (e.g. returned by a constexpr function).
std::optional<IDim3> ValueEvaluatorImpl::foldDim3(const Expr *E) const {
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  const auto *RD = E->getType()->getAsCXXRecordDecl();
  auto Fields = dim3Fields(RD);
  if (!Fields)
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || !R.Val.isStruct())
    return std::nullopt;
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    unsigned Index = (*Fields)[I]->getFieldIndex();
    if (Index >= R.Val.getStructNumFields())
      return std::nullopt;
    const APValue &F = R.Val.getStructField(Index);
    if (!F.isInt())
      return std::nullopt;
    const llvm::APSInt &V = F.getInt();
    if (V.getActiveBits() > 63)
      return std::nullopt;
    D.c[I] = exactOf(V.isSigned() ? static_cast<i128>(V.getSExtValue())
                                  : static_cast<i128>(V.getZExtValue()));
  }
  return D;
}

// ---------------------------------------------------------------------------
// The public interface.

EvaluatedValue EvaluatedValue::exact(int64_t V) {
  EvaluatedValue R;
  R.min = V;
  R.max = V;
  return R;
}

EvaluatedValue EvaluatedValue::range(std::optional<int64_t> Min, std::optional<int64_t> Max) {
  EvaluatedValue R;
  R.min = Min;
  R.max = Max;
  return R;
}

EvaluatedValue EvaluatedValue::unknown(std::string Spelling) {
  EvaluatedValue R;
  R.spelling = std::move(Spelling);
  return R;
}

std::string EvaluatedValue::describe() const {
  if (isExact())
    return std::to_string(*min);
  if (min && max)
    return std::to_string(*min) + " to " + std::to_string(*max);
  if (max)
    return "at most " + std::to_string(*max);
  if (min)
    return "at least " + std::to_string(*min);
  if (!spelling.empty())
    return spelling;
  return "unknown";
}

// Components are dim3's unsigned integers: a missing lower bound is 0.
EvaluatedValue EvaluatedDim3::product() const {
  std::vector<ValueDerivation> Steps = derivation();
  EvaluatedValue Out;
  bool AnyUnknown = false;
  for (const EvaluatedValue &V : xyz)
    AnyUnknown |= V.isUnknown();
  if (!AnyUnknown) {
    auto Product = [&](bool UseMax) -> std::optional<int64_t> {
      i128 P = 1;
      for (const EvaluatedValue &V : xyz) {
        const std::optional<int64_t> &B = UseMax ? V.max : V.min;
        if (!B || *B < 0)
          return std::nullopt;
        if (__builtin_mul_overflow(P, static_cast<i128>(*B), &P) || !fitsInt64(P))
          return std::nullopt;
      }
      return static_cast<int64_t>(P);
    };
    Out.min = Product(false);
    Out.max = Product(true);
  }
  if (!Out.isExact()) {
    std::vector<std::string> Parts;
    for (const EvaluatedValue &V : xyz)
      if (!V.isExact() || V.exactValue() != 1)
        Parts.push_back(V.isExact() ? std::to_string(V.exactValue())
                                    : (V.spelling.empty() ? V.describe() : V.spelling));
    std::string Spelling;
    for (std::string &Part : Parts) {
      if (Parts.size() > 1 && Part.find(' ') != std::string::npos)
        Part = "(" + Part + ")";
      Spelling += (Spelling.empty() ? "" : " * ") + Part;
    }
    Out.spelling = Spelling;
  }
  Out.derivation = std::move(Steps);
  return Out;
}

std::vector<ValueDerivation> EvaluatedDim3::derivation() const {
  std::vector<ValueDerivation> Out;
  for (const EvaluatedValue &V : xyz)
    appendUnique(Out, V.derivation);
  return Out;
}

EvaluatedValue ValueEvaluator::evaluateInteger(const Expr &E) {
  ValueEvaluatorImpl Impl(Ctx, cache());
  if (!E.getType()->isIntegralOrEnumerationType() && !E.isTypeDependent())
    return EvaluatedValue::unknown(toPublic(Impl.evalInt(&E)).spelling);
  return toPublic(Impl.evalInt(&E));
}

EvaluatedDim3 ValueEvaluator::evaluateDim3(const Expr &E) {
  ValueEvaluatorImpl Impl(Ctx, cache());
  IDim3 D = Impl.evalDim3(&E);
  EvaluatedDim3 Out;
  for (unsigned I = 0; I < 3; ++I)
    Out.xyz[I] = toPublic(D.c[I]);
  return Out;
}

} // namespace clang::tidy::occlint
