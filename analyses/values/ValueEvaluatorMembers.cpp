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
//
// A parameter's members are its caller's object's, read at the call:
//
//   static void launch(const LaunchShape &shape) {   // or by value
//     kernel<<<shape.blocks, shape.threads>>>(p);
//   }
//   LaunchShape big{216, 800};
//   launch(big);                   // (216, 800)
//   launch(LaunchShape{432, 864}); // (432, 864)
//
// A by-value parameter is a local object of its function (its own writes
// are followed); a reference to const cannot be written through. The
// members of a const global with an initializer are its initializer's.
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

IVal ValueEvaluatorImpl::evalMemberInitial(const VarDecl &Object, const FieldDecl &Field, QualType UseType) {
  if (const auto *P = dyn_cast<ParmVarDecl>(&Object))
    return evalParamMember(*P, Field, UseType, /*WrittenAfter=*/true); // no write before the read
  const std::string Name = Object.getName().str() + "." + Field.getName().str();
  std::optional<IVal> Set = evalMemberOfInitializer(Object.getInit(), Field, Name);
  if (!Set)
    return unknownOf(UseType, Name);
  IVal Value = std::move(*Set);
  Value.derivation = mergeDerivations(
      {{SM.getExpansionLoc(Object.getLocation()), "'" + Name + "' is defined here as " + describe(Value)}},
      Value.derivation);
  return castTo(std::move(Value), UseType);
}

std::optional<IVal> ValueEvaluatorImpl::evalMemberOfInitializer(const Expr *Init, const FieldDecl &Field,
                                                                const std::string &Name) {
  Init = Init ? Init->IgnoreImplicit() : nullptr;
  if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr()->IgnoreImplicit();
  if (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(Init); Cast && isa<InitListExpr>(Cast->getSubExpr()))
    Init = Cast->getSubExpr(); // `Shape{288, 432}`
  if (!Init) {
    recordReason("'" + Name + "' is not initialized at its definition");
    return std::nullopt;
  }
  IVal Value;
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  if (const std::optional<unsigned> Index = componentIndex(Field); Index && dim3Fields(Field.getParent())) {
    Value = castTo(evalDim3(Init).c[*Index], Field.getType()); // dim3 b; dim3 b(96); dim3 b{96, 2};
  } else if (const auto *List = dyn_cast<InitListExpr>(Init)) {
    const InitListExpr *Semantic = List->isSemanticForm() ? List : List->getSemanticForm();
    const unsigned Index = Field.getFieldIndex();
    if (!Semantic || Index >= Semantic->getNumInits()) {
      recordReason("'" + Name + "' is not set by the braced initializer");
      return std::nullopt;
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
      return std::nullopt;
    }
    Value = castTo(evalInt(Field.getInClassInitializer()), Field.getType());
  } else if (std::optional<IVal> Initialized =
                 Construct ? evalConstructorInitializer(*Construct, Field) : std::nullopt) {
    Value = std::move(*Initialized);
  } else {
    recordReason("'" + Name + "' is set by a constructor of '" + Field.getParent()->getName().str() + "'");
    return std::nullopt;
  }
  if (!Value.exact())
    Value.spelling = Name;
  return Value;
}

namespace {

/// Whether a constructor's body leaves Field as its initializer set it: the
/// body names no `this` but to read or write other members (a method call,
/// `*this` handed on, or Field named at all could change it).
bool bodyLeavesField(const Stmt &S, const FieldDecl &Field) {
  if (const auto *Member = dyn_cast<MemberExpr>(&S);
      Member && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return Member->getMemberDecl() != &Field;
  if (isa<CXXThisExpr, CXXMemberCallExpr>(&S))
    return false;
  for (const Stmt *Child : S.children())
    if (Child && !bodyLeavesField(*Child, Field))
      return false;
  return true;
}

} // namespace

// A user-written constructor's member initializer (`Range(int b, int e) :
// begin(b), end(e), tpb(N) {}`): its value when it reads only what the
// evaluator knows without the constructor's arguments (constants, template
// arguments; a constructor parameter stays unknown), and the body leaves
// the member alone.
std::optional<IVal> ValueEvaluatorImpl::evalConstructorInitializer(const CXXConstructExpr &Construct,
                                                                   const FieldDecl &Field) {
  const FunctionDecl *Definition = nullptr;
  if (!Construct.getConstructor()->hasBody(Definition))
    return std::nullopt;
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition);
  if (!Ctor || Ctor->isDelegatingConstructor() ||
      Ctor->getParent()->getCanonicalDecl() != Field.getParent()->getCanonicalDecl() || !Ctor->getBody() ||
      !bodyLeavesField(*Ctor->getBody(), Field))
    return std::nullopt;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (Init->getMember() != &Field)
      continue;
    const Expr *E = Init->getInit()->IgnoreImplicit();
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
      E = Default->getExpr();
    if (const auto *List = dyn_cast<InitListExpr>(E); List && List->getNumInits() == 1)
      E = List->getInit(0); // tpb{N}
    if (const auto *Paren = dyn_cast<ParenListExpr>(E); Paren && Paren->getNumExprs() == 1)
      E = Paren->getExpr(0);
    IVal Value = castTo(evalInt(E), Field.getType());
    if (!Value.exact())
      return std::nullopt;
    Value.derivation = mergeDerivations(
        Value.derivation, {{SM.getExpansionLoc(Init->getSourceLocation()),
                            "'" + Field.getName().str() + "' is initialized here to " + describe(Value)}});
    return Value;
  }
  return std::nullopt;
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
  return evalObjectMember(*Object, *Field, E, E.getType());
}

namespace {

/// A parameter that reads its caller's object without a copy the function
/// could write: a reference to a const, non-volatile class object.
bool isConstReferenceToObject(const ParmVarDecl &P) {
  const auto *Ref = P.getType()->getAs<LValueReferenceType>();
  if (!Ref)
    return false;
  const QualType Object = Ref->getPointeeType();
  return Object.isConstQualified() && !Object.isVolatileQualified() && Object->getAsCXXRecordDecl();
}

/// A global whose value is its initializer: const (or constexpr), not
/// volatile, with no mutable member.
const VarDecl *constantGlobalObject(const VarDecl &VD) {
  if (VD.getParentFunctionOrMethod() || !VD.getType().isConstQualified() || VD.getType().isVolatileQualified())
    return nullptr;
  const auto *Class = VD.getType()->getAsCXXRecordDecl();
  if (!Class || Class->isUnion() || !Class->hasDefinition() || Class->hasMutableFields())
    return nullptr;
  const VarDecl *Def = VD.getDefinition();
  return Def && Def->getInit() ? Def : nullptr;
}

/// The object an argument passes, through the copies that pass it: a
/// by-value parameter's implicit copy constructor, temporaries, conversions
/// that keep the value.
const Expr *passedObject(const Expr &Arg) {
  const Expr *E = Arg.IgnoreImplicit()->IgnoreParens();
  while (const auto *Copy = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = Copy->getConstructor();
    if (!Ctor->isCopyOrMoveConstructor() || Ctor->isUserProvided() || Copy->getNumArgs() != 1)
      break;
    E = Copy->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  return E;
}

} // namespace

std::optional<IVal> ValueEvaluatorImpl::evalObjectMember(const VarDecl &Object, const FieldDecl &Field,
                                                         const Stmt &Position, QualType UseType) {
  if (const auto *P = dyn_cast<ParmVarDecl>(&Object); P && isConstReferenceToObject(*P))
    return evalParamMember(*P, Field, UseType, /*WrittenAfter=*/false);
  if (const VarDecl *Global = constantGlobalObject(Object))
    return evalMemberInitial(*Global, Field, UseType);
  return evalMemberPlace(Object, Field, Position, UseType);
}

// `cfg.threads` of a parameter `cfg`: the argument of the call that binds it
// names or creates an object, whose member is read there (in the caller's
// frame: a local object through its writes, a braced list's element, the
// caller's own parameter through its callers).
IVal ValueEvaluatorImpl::evalParamMember(const ParmVarDecl &P, const FieldDecl &Field, QualType UseType,
                                         bool WrittenAfter) {
  const std::string Name = P.getName().str() + "." + Field.getName().str();
  const ParamBinding B = bindParameter(P, WrittenAfter);
  if (!B.readable)
    return unknownOf(UseType, Name);
  if (!B.argument) {
    openCallers(P, B);
    return unknownOf(UseType, Name);
  }
  IVal V = evalArgument(B, [&](const Expr *Arg) { return evalMemberOfArgument(*Arg, Field, Field.getType()); });
  V.derivation = mergeDerivations(V.derivation, {callStep(P, B, describe(V), V.informative(), Name)});
  if (!V.exact())
    V.spelling = Name;
  return castTo(std::move(V), UseType);
}

IVal ValueEvaluatorImpl::evalMemberOfArgument(const Expr &Arg, const FieldDecl &Field, QualType UseType) {
  const Expr *Passed = passedObject(Arg);
  const std::string Object = spellingOf(&Arg);
  const std::string Name = (isa<DeclRefExpr>(Passed) ? Object : "(" + Object + ")") + "." + Field.getName().str();
  const auto *Class = Passed->getType()->getAsCXXRecordDecl();
  if (!Class || Class->getCanonicalDecl() != Field.getParent()->getCanonicalDecl()) {
    recordReason("'" + Name + "' is read through a conversion of '" + Object + "'");
    return unknownOf(UseType, Name);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Passed))
    if (const auto *Object = dyn_cast<VarDecl>(Ref->getDecl()))
      if (std::optional<IVal> Value = evalObjectMember(*Object, Field, *Ref, UseType))
        return *Value;
  if (isa<InitListExpr, CXXConstructExpr, CXXFunctionalCastExpr>(Passed)) {
    std::optional<IVal> Value = evalMemberOfInitializer(Passed, Field, Name);
    if (!Value)
      return unknownOf(UseType, Name);
    return castTo(std::move(*Value), UseType);
  }
  recordReason("'" + Name + "' is a member of '" + Object + "', passed at " + where(Arg.getBeginLoc()) +
               ", an object not followed (not a local object, a parameter, a constant or a braced list)");
  return unknownOf(UseType, Name);
}

} // namespace clang::tidy::occlint
