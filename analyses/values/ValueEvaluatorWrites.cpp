// Reads of an assigned local or parameter (ReachingWrites.h): the value of
// the assignment that reaches the read (`block_size = f(block_size);` before
// the launch), of a clamp when its condition is decided (`if (block_size <
// 256) block_size = 256;`), of the arms of an if-else chain or the label
// groups of a switch that assign it in every arm (those that can run: one
// value, or one of a set a variant picks from), or the incoming value when no write comes before
// the read. Without this a variable the function assigns anywhere stays
// "modified after its definition".
#include "values/ValueEvaluatorInternals.h"

#include <algorithm>

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

std::string nameOf(WrittenPlace Place) {
  return Place.var->getName().str() + (Place.field ? "." + Place.field->getName().str() : "");
}

QualType typeOf(WrittenPlace Place) { return Place.field ? Place.field->getType() : Place.var->getType(); }

} // namespace

IVal ValueEvaluatorImpl::evalIncoming(WrittenPlace Place, const ReachingWrite &Reaching, QualType UseType) {
  if (Place.field)
    return evalMemberInitial(*Place.var, *Place.field, UseType);
  const VarDecl &VD = *Place.var;
  ReadingVia Scope(ReadVia, VD, Reaching);
  return isa<ParmVarDecl>(VD) ? evalParam(cast<ParmVarDecl>(VD), UseType, /*WrittenAfter=*/true)
                              : evalVar(VD, UseType, /*Incoming=*/true);
}

// The value of a read through the write that reaches it: spelled by the
// place when not exact, refined by the guards that the same write reaches
// (a variable's; guards are not kept for members).
IVal ValueEvaluatorImpl::throughWrite(WrittenPlace Place, const ReachingWrite &Reaching, IVal Value, QualType UseType) {
  if (!Value.exact())
    Value.spelling = nameOf(Place);
  if (Place.field)
    return castTo(std::move(Value), UseType);
  ReadingVia Scope(ReadVia, *Place.var, Reaching);
  return castTo(refineByGuards(*Place.var, std::move(Value)), UseType);
}

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

std::optional<IVal> ValueEvaluatorImpl::evalAfterWrites(WrittenPlace Place, const Stmt &Position, QualType UseType) {
  const VarDecl &VD = *Place.var;
  if (!Place.field &&
      (!VD.getType()->isIntegralOrEnumerationType() || VD.getType()->isReferenceType() ||
       VD.getType().isVolatileQualified() || !(isa<ParmVarDecl>(VD) || (VD.isLocalVarDecl() && !VD.isStaticLocal()))))
    return std::nullopt;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return std::nullopt;
  const BodyWrites &Writes = writesIn(*Body);
  if (!Place.field && !Writes.assigned(VD))
    return std::nullopt; // never assigned: read as before
  const ReachingWrite Reaching = Writes.reachingWrite(Place, Position);
  const std::string Name = nameOf(Place);
  switch (Reaching.kind) {
  case ReachingWrite::Kind::NotKnown:
    return std::nullopt;
  case ReachingWrite::Kind::Incoming:
    return evalIncoming(Place, Reaching, UseType);
  case ReachingWrite::Kind::Branches:
    return evalArmWrites(Place, Reaching, Writes, UseType);
  case ReachingWrite::Kind::Cases:
    return evalCaseWrites(Place, Reaching, Writes, UseType);
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
      Value = evalAfterWrites(Place, *Clamp, typeOf(Place));
      if (!Value)
        Value = Place.field            ? unknownOf(typeOf(Place), Name)
                : isa<ParmVarDecl>(VD) ? evalParam(cast<ParmVarDecl>(VD), VD.getType())
                                       : evalVar(VD, VD.getType());
      Value->derivation = mergeDerivations(
          Value->derivation, {{SM.getExpansionLoc(Clamp->getBeginLoc()),
                               "'" + Name + "' keeps " + describe(*Value) + " here (the condition does not hold)"}});
    }
  }
  if (Taken) {
    IVal Assigned = castTo(evalInt(Assignment->getRHS()), typeOf(Place));
    Assigned.derivation = mergeDerivations(
        {{SM.getExpansionLoc(Assignment->getBeginLoc()), "'" + Name + "' is set here to " + describe(Assigned)}},
        Assigned.derivation);
    Value = std::move(Assigned);
  }
  ActiveWrites.erase(Assignment);
  return throughWrite(Place, Reaching, std::move(*Value), UseType);
}

// `if (n < 1024) threads = 128; else if (n < 8192) threads = 256; else
// threads = 512;`: the conditions are decided in turn, and the arms that can
// run are joined (joinWrites).
std::optional<IVal> ValueEvaluatorImpl::evalArmWrites(WrittenPlace Place, const ReachingWrite &Reaching,
                                                      const BodyWrites &Writes, QualType UseType) {
  const std::vector<const BinaryOperator *> Arms = Writes.armWrites(Place, *Reaching.condition);
  std::vector<const BinaryOperator *> Possible;
  std::vector<ValueDerivation> Steps;
  const IfStmt *If = Reaching.condition;
  for (size_t Arm = 0; If && Arm + 1 < Arms.size(); ++Arm) {
    IVal Condition = evalInt(If->getCond());
    const bool Holds = Condition.lo > 0 || Condition.hi < 0, Fails = Condition.exact() && Condition.lo == 0;
    if (Holds || Fails)
      Steps = mergeDerivations(Steps, Condition.derivation);
    if (!Fails)
      Possible.push_back(Arms[Arm]);
    if (Holds)
      break;
    If = dyn_cast<IfStmt>(If->getElse());
  }
  if (!If)
    Possible.push_back(Arms.back()); // no condition held: the final else
  return joinWrites(Place, Reaching, Possible, Steps, Reaching.condition, UseType);
}

// `switch (kind) { case Small: threads = 128; break; default: threads = 256; }`:
// the label group the selector's value takes when it is known, else every
// group whose labels the selector's range holds, and the default's (a switch
// with no default names every enumerator: BodyWrites::caseWrites).
std::optional<IVal> ValueEvaluatorImpl::evalCaseWrites(WrittenPlace Place, const ReachingWrite &Reaching,
                                                       const BodyWrites &Writes, QualType UseType) {
  const SwitchStmt &Switch = *Reaching.selector;
  const std::vector<CaseWrite> Groups = Writes.caseWrites(Place, Switch);
  const IVal Selector = evalInt(Switch.getCond());
  std::vector<const BinaryOperator *> Possible;
  const BinaryOperator *Default = nullptr, *Matched = nullptr;
  auto Add = [&](const BinaryOperator *Assignment) {
    if (std::find(Possible.begin(), Possible.end(), Assignment) == Possible.end())
      Possible.push_back(Assignment);
  };
  for (const CaseWrite &Group : Groups)
    for (const SwitchCase *Label : Group.labels) {
      const auto *Case = dyn_cast<CaseStmt>(Label);
      if (!Case) {
        Default = Group.assignment;
        continue;
      }
      const std::optional<i128> Value = fold(Case->getLHS());
      if (!Value)
        Add(Group.assignment); // a label that does not fold: it may be taken
      else if (Selector.exact() && *Value == Selector.lo)
        Matched = Group.assignment;
      else if (!Selector.exact() && *Value >= Selector.lo && *Value <= Selector.hi)
        Add(Group.assignment);
    }
  std::vector<ValueDerivation> Steps;
  if (Selector.exact()) {
    if (!Matched && !Default) {
      // Every enumerator has a label and none is this value (a cast).
      recordReason("'" + nameOf(Place) + "' is set by no label of the switch at " + where(Switch.getBeginLoc()) +
                   " for the value " + describe(Selector));
      return unknownOf(UseType, nameOf(Place));
    }
    Possible = {Matched ? Matched : Default};
    Steps = Selector.derivation;
  } else if (Default) {
    Add(Default);
  }
  return joinWrites(Place, Reaching, Possible, Steps, &Switch, UseType);
}

// The value of a read that one of several assignments reaches (the arms of
// an if-else chain or the label groups of a switch that can run): one of
// them; or, when each gives a known value, a set a variant picks from, keyed
// by the statement so that every read after it takes the same one; else the
// hull, and the reason.
std::optional<IVal> ValueEvaluatorImpl::joinWrites(WrittenPlace Place, const ReachingWrite &Reaching,
                                                   const std::vector<const BinaryOperator *> &Possible,
                                                   const std::vector<ValueDerivation> &Steps, const Stmt *Key,
                                                   QualType UseType) {
  const std::string Name = nameOf(Place);
  if (Possible.empty()) {
    recordReason("'" + Name + "' is set by none of the branches at " + where(Key->getBeginLoc()) + " here");
    return unknownOf(UseType, Name);
  }
  std::vector<IVal> Values;
  std::vector<const BinaryOperator *> Entered; // this read's, in ActiveWrites
  auto Leave = [&] {
    for (const BinaryOperator *Assignment : Entered)
      ActiveWrites.erase(Assignment);
  };
  for (const BinaryOperator *Assignment : Possible) {
    if (Active.size() + ActiveWrites.size() >= MaxVarDepth || !ActiveWrites.insert(Assignment).second) {
      ++Truncations;
      Leave();
      return unknownOf(UseType, Name);
    }
    Entered.push_back(Assignment);
    IVal Assigned = castTo(evalInt(Assignment->getRHS()), typeOf(Place));
    Assigned.derivation = mergeDerivations(
        {{SM.getExpansionLoc(Assignment->getBeginLoc()), "'" + Name + "' is set here to " + describe(Assigned)}},
        mergeDerivations(Steps, Assigned.derivation));
    Values.push_back(std::move(Assigned));
  }
  Leave();
  const SourceLocation At = SM.getExpansionLoc(Key->getBeginLoc());
  IVal Value;
  const bool AllExact = std::all_of(Values.begin(), Values.end(), [](const IVal &V) { return V.exact(); });
  if (Values.size() == 1) {
    Value = std::move(Values.front());
  } else if (AllExact) {
    std::vector<i128> Members;
    for (const IVal &V : Values)
      Members.push_back(V.lo);
    IVal Hull = membersHull(Members);
    Hull.derivation = Steps;
    Value = Members.size() == 1 ? Values.front()
                                : pickMember(Key, Members, Hull, At, "'" + Name + "'", frameOf(*Place.var));
    if (Value.exact() && Members.size() > 1)
      for (const IVal &V : Values)
        if (V.lo == Value.lo) {
          Value.derivation = mergeDerivations(V.derivation, Value.derivation);
          break;
        }
  } else {
    Value = Values.front();
    for (size_t I = 1; I < Values.size(); ++I)
      Value = hullOf(Value, Values[I]);
    recordReason("'" + Name + "' is set in " + std::to_string(Possible.size()) + " branches at " + where(At) +
                 ", not all to values known here");
  }
  return throughWrite(Place, Reaching, std::move(Value), UseType);
}

} // namespace clang::tidy::occlint
