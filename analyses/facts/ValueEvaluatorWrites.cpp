// Reads of an assigned local or parameter (ReachingWrites.h): the value of
// the assignment that reaches the read (`block_size = f(block_size);` before
// the launch), or the incoming value when every assignment comes after it.
// Without this a variable the function assigns anywhere stays "modified
// after its definition".
#include "facts/ValueEvaluatorInternals.h"

namespace clang::tidy::occlint {

std::optional<IVal> ValueEvaluatorImpl::evalAfterWrites(const VarDecl &VD, const DeclRefExpr *Use) {
  if (!VD.getType()->isIntegralOrEnumerationType() || VD.getType()->isReferenceType() ||
      VD.getType().isVolatileQualified() || !(isa<ParmVarDecl>(VD) || (VD.isLocalVarDecl() && !VD.isStaticLocal())))
    return std::nullopt;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return std::nullopt;
  std::unique_ptr<BodyWrites> &Writes = C.bodyWrites[Body];
  if (!Writes) {
    std::unique_ptr<StatementParents> &Parents = C.parentMaps[Body];
    if (!Parents)
      Parents = std::make_unique<StatementParents>(*Body);
    Writes = std::make_unique<BodyWrites>(*Body, *Parents, SM);
  }
  if (!Writes->assigned(VD))
    return std::nullopt; // never assigned: read as before
  const ReachingWrite Reaching = Writes->reachingWrite(VD, *Use);
  switch (Reaching.kind) {
  case ReachingWrite::Kind::NotKnown:
    return std::nullopt;
  case ReachingWrite::Kind::Incoming:
    if (const auto *P = dyn_cast<ParmVarDecl>(&VD))
      return evalParam(*P, Use->getType(), /*WrittenAfter=*/true);
    return evalVar(VD, Use->getType(), /*Incoming=*/true);
  case ReachingWrite::Kind::Assignment:
    break;
  }
  const BinaryOperator *Assignment = Reaching.assignment;
  const std::string Name = VD.getName().str();
  if (Active.size() + ActiveWrites.size() >= MaxVarDepth || !ActiveWrites.insert(Assignment).second) {
    ++Truncations;
    return unknownOf(Use->getType(), Name);
  }
  IVal Value = castTo(evalInt(Assignment->getRHS()), VD.getType());
  ActiveWrites.erase(Assignment);
  std::vector<ValueDerivation> Own{
      {SM.getExpansionLoc(Assignment->getBeginLoc()), "'" + Name + "' is set here to " + describe(Value)}};
  Value.derivation = mergeDerivations(Own, Value.derivation);
  if (!Value.exact())
    Value.spelling = Name;
  return castTo(std::move(Value), Use->getType());
}

} // namespace clang::tidy::occlint
