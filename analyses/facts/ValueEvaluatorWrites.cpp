// Reads of an assigned local or parameter (ReachingWrites.h): the value of
// the assignment that reaches the read (`block_size = f(block_size);` before
// the launch), of a clamp when its condition is decided (`if (block_size <
// 256) block_size = 256;`), or the incoming value when no write comes before
// the read. Without this a variable the function assigns anywhere stays
// "modified after its definition".
#include "facts/ValueEvaluatorInternals.h"

namespace clang::tidy::occlint {

namespace {

/// Sets the write a variable is read through for a scope, and puts back
/// the one of an enclosing read.
class ReadingVia {
public:
  ReadingVia(llvm::DenseMap<const VarDecl *, ReachingWrite> &Map, const VarDecl &VD, const ReachingWrite &Write)
      : Map(Map), VD(VD) {
    auto It = Map.find(&VD);
    if (It != Map.end())
      Saved = It->second;
    Map[&VD] = Write;
  }
  ~ReadingVia() {
    if (Saved)
      Map[&VD] = *Saved;
    else
      Map.erase(&VD);
  }

private:
  llvm::DenseMap<const VarDecl *, ReachingWrite> &Map;
  const VarDecl &VD;
  std::optional<ReachingWrite> Saved;
};

} // namespace

const BodyWrites &ValueEvaluatorImpl::writesIn(const Stmt &Body) {
  std::unique_ptr<BodyWrites> &Writes = C.bodyWrites[&Body];
  if (!Writes) {
    std::unique_ptr<StatementParents> &Parents = C.parentMaps[&Body];
    if (!Parents)
      Parents = std::make_unique<StatementParents>(Body);
    Writes = std::make_unique<BodyWrites>(Body, *Parents, SM);
  }
  return *Writes;
}

std::optional<IVal> ValueEvaluatorImpl::evalAfterWrites(const VarDecl &VD, const Stmt &Position, QualType UseType) {
  if (!VD.getType()->isIntegralOrEnumerationType() || VD.getType()->isReferenceType() ||
      VD.getType().isVolatileQualified() || !(isa<ParmVarDecl>(VD) || (VD.isLocalVarDecl() && !VD.isStaticLocal())))
    return std::nullopt;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return std::nullopt;
  const BodyWrites &Writes = writesIn(*Body);
  if (!Writes.assigned(VD))
    return std::nullopt; // never assigned: read as before
  const ReachingWrite Reaching = Writes.reachingWrite(VD, Position);
  const std::string Name = VD.getName().str();
  switch (Reaching.kind) {
  case ReachingWrite::Kind::NotKnown:
    return std::nullopt;
  case ReachingWrite::Kind::Incoming: {
    ReadingVia Scope(ReadVia, VD, Reaching);
    return isa<ParmVarDecl>(VD) ? evalParam(cast<ParmVarDecl>(VD), UseType, /*WrittenAfter=*/true)
                                : evalVar(VD, UseType, /*Incoming=*/true);
  }
  case ReachingWrite::Kind::Assignment:
  case ReachingWrite::Kind::Conditional:
    break;
  }
  const BinaryOperator *Assignment = Reaching.assignment;
  if (Active.size() + ActiveWrites.size() >= MaxVarDepth || !ActiveWrites.insert(Assignment).second) {
    ++Truncations;
    return unknownOf(UseType, Name);
  }
  std::optional<IVal> Value;
  bool Taken = true;
  if (const IfStmt *Clamp = Reaching.condition) {
    IVal Condition = evalInt(Clamp->getCond());
    if (!Condition.exact()) {
      recordReason("'" + Name + "' is set under a condition at " + where(Clamp->getBeginLoc()) +
                   " that is not known here");
      ActiveWrites.erase(Assignment);
      return unknownOf(UseType, Name);
    }
    Taken = Condition.lo != 0;
    if (!Taken) {
      // The value that reaches the if.
      Value = evalAfterWrites(VD, *Clamp, VD.getType());
      if (!Value)
        Value = isa<ParmVarDecl>(VD) ? evalParam(cast<ParmVarDecl>(VD), VD.getType())
                                     : evalVar(VD, VD.getType());
      Value->derivation = mergeDerivations(
          Value->derivation, {{SM.getExpansionLoc(Clamp->getBeginLoc()),
                               "'" + Name + "' keeps " + describe(*Value) + " here (the condition does not hold)"}});
    }
  }
  if (Taken) {
    IVal Assigned = castTo(evalInt(Assignment->getRHS()), VD.getType());
    Assigned.derivation = mergeDerivations({{SM.getExpansionLoc(Assignment->getBeginLoc()),
                                             "'" + Name + "' is set here to " + describe(Assigned)}},
                                           Assigned.derivation);
    Value = std::move(Assigned);
  }
  ActiveWrites.erase(Assignment);
  if (!Value->exact())
    Value->spelling = Name;
  ReadingVia Scope(ReadVia, VD, Reaching);
  return castTo(refineByGuards(VD, std::move(*Value)), UseType);
}

} // namespace clang::tidy::occlint
