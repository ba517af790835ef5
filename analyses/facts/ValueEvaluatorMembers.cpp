// Members of a local object the function only reads and assigns member by
// member (ReachingWrites.h):
//
//   dim3 block;            // (1, 1, 1)
//   block.x = 96;          // the write a read of block.x sees
//   kernel<<<grid, block>>>(p);
//
//   LaunchShape shape{160, 264};           // braced: the members in order
//   LaunchShape other;                     // implicit constructor: the
//   kernel<<<other.blocks, other.threads>>>(p); // default member initializers
//
// Each member is a place of its own: its writes are followed as a local's
// are, and with none before the read it has the value the object's
// definition gives it. An object whose address is taken, passed by
// modifiable reference, assigned as a whole or whose methods are called is
// not followed (its members are unknown, with the reason).
#include "facts/ValueEvaluatorInternals.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

IVal ValueEvaluatorImpl::evalMemberInitial(const VarDecl &Object, const FieldDecl &Field, QualType UseType) {
  const std::string Name = Object.getName().str() + "." + Field.getName().str();
  const Expr *Init = Object.getInit() ? Object.getInit()->IgnoreImplicit() : nullptr;
  if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr()->IgnoreImplicit();
  if (!Init) {
    recordReason("'" + Name + "' is not initialized at its definition");
    return unknownOf(UseType, Name);
  }
  IVal Value;
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  if (const std::optional<unsigned> Index = componentIndex(Field); Index && dim3Fields(Field.getParent())) {
    Value = castTo(evalDim3(Init).c[*Index], Field.getType()); // dim3 b; dim3 b(96); dim3 b{96, 2};
  } else if (const auto *List = dyn_cast<InitListExpr>(Init)) {
    const InitListExpr *Semantic = List->isSemanticForm() ? List : List->getSemanticForm();
    const unsigned Index = Field.getFieldIndex();
    if (!Semantic || Index >= Semantic->getNumInits()) {
      recordReason("'" + Name + "' is not set by the braced initializer of '" + Object.getName().str() + "'");
      return unknownOf(UseType, Name);
    }
    const Expr *Element = Semantic->getInit(Index);
    if (isa<ImplicitValueInitExpr>(Element))
      Value = exactOf(0); // `Shape s{};`: value-initialized
    else if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Element))
      Value = castTo(evalInt(Default->getExpr()), Field.getType());
    else
      Value = castTo(evalInt(Element), Field.getType());
  } else if (Construct && Construct->getConstructor()->isDefaultConstructor() &&
             !Construct->getConstructor()->isUserProvided()) {
    // The implicit default constructor: the default member initializer.
    if (!Field.hasInClassInitializer()) {
      recordReason("'" + Name + "' is not initialized at its definition");
      return unknownOf(UseType, Name);
    }
    Value = castTo(evalInt(Field.getInClassInitializer()), Field.getType());
  } else {
    recordReason("'" + Name + "' is set by a constructor of '" + Field.getParent()->getName().str() + "'");
    return unknownOf(UseType, Name);
  }
  Value.derivation = mergeDerivations({{SM.getExpansionLoc(Object.getLocation()),
                                        "'" + Name + "' is defined here as " + describe(Value)}},
                                      Value.derivation);
  if (!Value.exact())
    Value.spelling = Name;
  return castTo(std::move(Value), UseType);
}

const BodyWrites *ValueEvaluatorImpl::memberWritesOf(const VarDecl &Object) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Object.getParentFunctionOrMethod());
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  return Body && isFollowedObject(&Object) ? &writesIn(*Body) : nullptr;
}

std::optional<IVal> ValueEvaluatorImpl::evalMemberPlace(const VarDecl &Object, const FieldDecl &Field,
                                                        const Stmt &Position, QualType UseType) {
  const BodyWrites *Writes = memberWritesOf(Object);
  if (!Writes)
    return std::nullopt;
  const std::string Name = Object.getName().str() + "." + Field.getName().str();
  if (!Writes->tracked({Object, &Field})) {
    recordReason("'" + Name + "' is a member of '" + Object.getName().str() +
                 "', which is used in a way not followed (its address taken, a method called, passed by "
                 "modifiable reference, assigned or modified as a whole)");
    return unknownOf(UseType, Name);
  }
  if (std::optional<IVal> Value = evalAfterWrites({Object, &Field}, Position, UseType))
    return Value;
  recordReason("'" + Name + "' is set in a loop, a nested block or under a condition not followed");
  return unknownOf(UseType, Name);
}

std::optional<IVal> ValueEvaluatorImpl::evalLocalMember(const MemberExpr &E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E.getBase()->IgnoreParenImpCasts());
  const auto *Object = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *Field = dyn_cast<FieldDecl>(E.getMemberDecl());
  if (E.isArrow() || !Object || !Field)
    return std::nullopt;
  return evalMemberPlace(*Object, *Field, E, E.getType());
}

} // namespace clang::tidy::occlint
