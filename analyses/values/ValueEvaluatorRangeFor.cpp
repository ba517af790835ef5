// The variable of a range-for over a list of constants, or over a constant
// array, read in the loop's body:
//
//   for (int threads : {64, 128, 256})
//     kernel<<<blocks, threads>>>(...);
//
// takes each element in turn: a set of values, one variant per element,
// picked like the elements of a constant array read at a loop's index
// (ValueEvaluatorContext.cpp, evalSubscript). A sweep: benchmark code tries
// each block size in turn, so each element is deliberate (the trace names the
// loop variable as the swept value, EvaluationTrace::sweptArray).
//
// Only what is certain: the variable is an integer taken by value (or a
// reference to const) that the body does not modify, the list's elements are
// all exact, and an array walked is one whose elements cannot change.
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

const CXXForRangeStmt *loopDeclaring(const Stmt *S, const VarDecl &VD) {
  if (!S)
    return nullptr;
  if (const auto *Loop = dyn_cast<CXXForRangeStmt>(S); Loop && Loop->getLoopVariable() == &VD)
    return Loop;
  for (const Stmt *Child : S->children())
    if (const CXXForRangeStmt *Found = loopDeclaring(Child, VD))
      return Found;
  return nullptr;
}

} // namespace

std::optional<IVal> ValueEvaluatorImpl::evalRangeForElement(const VarDecl &VD, QualType UseType) {
  QualType T = VD.getType();
  if (const auto *Ref = T->getAs<ReferenceType>()) {
    if (!Ref->getPointeeType().isConstQualified())
      return std::nullopt;
    T = Ref->getPointeeType();
  }
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  if (!T->isIntegralOrEnumerationType() || T.isVolatileQualified() || !FD || !FD->getBody())
    return std::nullopt;
  const std::string Name = "'" + VD.getName().str() + "'";
  if (!VD.getType()->isReferenceType() && isMutated(VD)) {
    recordReason(Name + " is modified in the body of its range-for loop");
    return unknownOf(UseType, VD.getName().str());
  }
  auto [Known, New] = C.rangeForLoops.try_emplace(&VD, nullptr);
  if (New)
    Known->second = loopDeclaring(FD->getBody(), VD); // a walk of the body, once per loop variable
  const CXXForRangeStmt *Loop = Known->second;
  const Expr *Range = Loop && Loop->getRangeInit() ? Loop->getRangeInit()->IgnoreImplicit() : nullptr;
  if (const auto *List = dyn_cast_or_null<CXXStdInitializerListExpr>(Range))
    Range = List->getSubExpr()->IgnoreImplicit();
  // The elements, and the frame they are read in (an array's own).
  std::vector<const Expr *> Elements;
  const VarDecl *Array = nullptr;
  if (const auto *List = dyn_cast_or_null<InitListExpr>(Range)) {
    Elements.assign(List->inits().begin(), List->inits().end());
  } else if (const auto *ArrayRef = dyn_cast_or_null<DeclRefExpr>(Range)) {
    Array = dyn_cast<VarDecl>(ArrayRef->getDecl());
    const InitListExpr *List = Array ? stableArrayElements(*Array) : nullptr;
    if (!List) {
      recordReason(Name + " walks an array whose elements are not known constants");
      return unknownOf(UseType, VD.getName().str());
    }
    const uint64_t Size = Ctx.getAsConstantArrayType(Array->getType())->getSize().getZExtValue();
    for (uint64_t I = 0; Size <= 256 && I < Size; ++I)
      Elements.push_back(I < List->getNumInits() ? List->getInit(unsigned(I)) : List->getArrayFiller());
  }
  if (Elements.empty() || std::find(Elements.begin(), Elements.end(), nullptr) != Elements.end()) {
    recordReason(Name + " is the variable of a range-for over values that are not a list of constants");
    return unknownOf(UseType, VD.getName().str());
  }
  const unsigned LoopFrame = frameOf(VD);
  const unsigned Saved = Frame;
  Frame = Array ? frameOf(*Array) : LoopFrame;
  std::vector<i128> Members;
  bool AllExact = true;
  for (const Expr *Element : Elements) {
    IVal V = castTo(evalInt(Element), T);
    AllExact = AllExact && V.exact();
    Members.push_back(V.lo);
  }
  Frame = Saved;
  if (!AllExact) {
    recordReason(Name + " takes the elements of a list that are not all known");
    return unknownOf(UseType, VD.getName().str());
  }
  IVal Hull = membersHull(Members);
  const std::string Of = Array ? "of '" + Array->getName().str() + "'" : "of the loop's list";
  if (Members.size() == 1) {
    Hull.derivation.push_back({VD.getLocation(), Name + " is " + describe(Hull) + ", each element " + Of});
    return castTo(refineByGuards(VD, std::move(Hull)), UseType);
  }
  Hull.derivation.push_back({VD.getLocation(), Name + " takes the " + std::to_string(Members.size()) + " values " +
                                                   describe(Hull) + " " + Of + " in turn"});
  if (LoopFrame != NoFrame && Context.picks.count({Loop, LoopFrame}) && Trace && !Trace->sweptArray)
    Trace->sweptArray = &VD; // this variant takes one element
  IVal Picked = pickMember(Loop, Members, Hull, VD.getLocation(), Name, LoopFrame);
  return castTo(refineByGuards(VD, std::move(Picked)), UseType);
}

} // namespace clang::tidy::occlint
