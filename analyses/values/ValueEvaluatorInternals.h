// The value evaluator's private vocabulary, shared by its ValueEvaluator*.cpp
// files and by nothing else: the internal interval value (IVal, IDim3), the
// cache kept between evaluations, and ValueEvaluatorImpl, one top-level
// evaluation, whose member functions are defined across these files:
//   ValueEvaluator.cpp             the public entry points; IVal to EvaluatedValue
//   ValueEvaluatorIntervals.cpp    the integer domain: type ranges, interval arithmetic
//   ValueEvaluatorIntegers.cpp     the walk over an integer expression
//   ValueEvaluatorDim3.cpp         dim3 values: constructors, braces, members
//   ValueEvaluatorDerivations.cpp  where a value comes from: definitions, macros, spellings
//   ValueEvaluatorWrites.cpp       reads of assigned locals (ReachingWrites.h)
//   ValueEvaluatorMembers.cpp      members assigned one by one (dim3 block; block.x = 96)
//   ValueEvaluatorContext.cpp      frames, guards (ValueGuards.h), call arguments, variants
//   ValueEvaluatorHelpers.cpp      one-return helpers (ceil_div); the host interpreter
//                                  for longer ones (HostFunctionRunner.h)
//   ValueEvaluatorLambdas.cpp      parameters of a local lambda that launches
//   ValueEvaluatorRangeFor.cpp     the variable of a range-for over constants
//   ValueEvaluatorDevice.cpp       what the host asks the device: properties, occupancy API
//
// Internally every integer is an interval [lo, hi] in 128-bit arithmetic that
// is always sound: an unknown value is the whole range of its type. Each bound
// also says whether it is "known", i.e. worth reporting: a bound that only
// comes from the type (0 for an unsigned parameter, INT_MAX for an int) is not
// reported, so an unknown parameter stays "unknown" (with its spelling) rather
// than "0 to 4294967295", while min(n, 40) still reads "at most 40".
#pragma once

#include "values/ReachingWrites.h"
#include "values/ValueEvaluator.h"
#include "values/ValueGuards.h"

#include "values/ReadOnlyUses.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

namespace value_evaluator_detail {

using i128 = __int128;

// Magnitudes beyond every 64-bit type: the range of a value with no integer
// type, and the marker of an overflowed bound.
inline constexpr i128 Universe = static_cast<i128>(1) << 64;
inline constexpr i128 Huge = static_cast<i128>(1) << 100;

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

/// Appends each step of From that To does not hold yet (ValueEvaluatorDerivations.cpp).
void appendUnique(std::vector<ValueDerivation> &To, const std::vector<ValueDerivation> &From);
/// A's steps, then B's, without duplicates (ValueEvaluatorDerivations.cpp).
std::vector<ValueDerivation> mergeDerivations(const std::vector<ValueDerivation> &A,
                                              const std::vector<ValueDerivation> &B);
/// The hull of two values: the lower of the lower bounds and the higher of
/// the higher ones, each known as the bound it comes from is (both when they
/// are equal and either is), and both derivations (ValueEvaluatorIntegers.cpp).
IVal hullOf(const IVal &A, const IVal &B);
/// Sorts Members, drops repeats, and gives the exact range from the first
/// to the last; Members must not be empty (ValueEvaluatorIntegers.cpp).
IVal membersHull(std::vector<i128> &Members);
/// The index (0, 1, 2) of a field named x, y or z of a dim3-like record (one
/// with integer fields x, y and z) (ValueEvaluatorDim3.cpp).
std::optional<unsigned> componentIndex(const FieldDecl &F);
/// The fields x, y, z of a dim3-like record, or none (ValueEvaluatorDim3.cpp).
std::optional<std::array<const FieldDecl *, 3>> dim3Fields(const RecordDecl *RD);
/// The public form of an internal value (ValueEvaluator.cpp).
EvaluatedValue toPublic(const IVal &V);
/// toPublic(V).describe() (ValueEvaluator.cpp).
std::string describe(const IVal &V);

} // namespace value_evaluator_detail

using value_evaluator_detail::appendUnique;
using value_evaluator_detail::componentIndex;
using value_evaluator_detail::describe;
using value_evaluator_detail::dim3Fields;
using value_evaluator_detail::Huge;
using value_evaluator_detail::hullOf;
using value_evaluator_detail::i128;
using value_evaluator_detail::IDim3;
using value_evaluator_detail::IVal;
using value_evaluator_detail::membersHull;
using value_evaluator_detail::mergeDerivations;
using value_evaluator_detail::toPublic;
using value_evaluator_detail::TypeRange;
using value_evaluator_detail::Universe;

/// A variable's value and what reading it taught (EvaluationTrace), as kept
/// between evaluations.
template <typename Value> struct CachedValue {
  Value value;
  /// What reading the value taught (replayed on every use; `infeasible` is
  /// not kept: the guards of each use decide it).
  EvaluationTrace learnt;
};

struct ValueEvaluator::Cache {
  llvm::DenseMap<const Stmt *, std::unique_ptr<ExprMutationAnalyzer>> analyzers;
  // Per function body: the parents of its statements (ValueGuards.h).
  llvm::DenseMap<const Stmt *, std::unique_ptr<StatementParents>> parentMaps;
  llvm::DenseMap<const VarDecl *, bool> mutated;
  // Per function body: whether it holds a cast that can drop const from an
  // object (ValueEvaluatorDerivations.cpp, castsAwayConst).
  llvm::DenseMap<const Stmt *, bool> castsAwayConst;
  // Per body: the variables it only reads (values/ReadOnlyUses.h).
  llvm::DenseMap<const Stmt *, std::unique_ptr<ReadOnlyUses>> readOnlyUses;
  // Per function body: the assignments of its integer variables (ReachingWrites.h).
  llvm::DenseMap<const Stmt *, std::unique_ptr<BodyWrites>> bodyWrites;
  // Per function body: what its lambdas capture by reference
  // (ValueEvaluatorDerivations.cpp, mutatedBeyondReferenceCaptures).
  struct CapturesByReference {
    llvm::DenseSet<const VarDecl *> variables;
    llvm::DenseSet<const Expr *> explicitCaptures;
  };
  llvm::DenseMap<const Stmt *, std::optional<CapturesByReference>> capturesByReference;
  // Per range-for loop variable: its loop (ValueEvaluatorRangeFor.cpp).
  llvm::DenseMap<const VarDecl *, const CXXForRangeStmt *> rangeForLoops;
  // Per lambda (its closure class): its calls in the function that defines
  // it, when they are all its calls (ValueEvaluatorLambdas.cpp).
  llvm::DenseMap<const CXXRecordDecl *, std::optional<std::vector<const CallExpr *>>> lambdaCalls;
  // Values that do not depend on a context: variables read without guards,
  // bindings or picks.
  // Read without a frame, and in frame 0 of a context with no guards.
  llvm::DenseMap<const VarDecl *, CachedValue<IVal>> intVars, intVarsInFrame;
  llvm::DenseMap<const VarDecl *, CachedValue<IDim3>> dim3Vars, dim3VarsInFrame;
  // The one device query call that fills a variable (null: none, or more
  // than one, or the variable is also used otherwise).
  llvm::DenseMap<const VarDecl *, const CallExpr *> deviceQueryFillers;
  // A global's one write `G = <device value>` and the property or attribute
  // it writes ("multiProcessorCount"); a null write when it has none, or
  // more than one, or is used otherwise.
  struct GlobalDeviceWrite {
    const BinaryOperator *write = nullptr;
    std::string what;
  };
  llvm::DenseMap<const VarDecl *, GlobalDeviceWrite> globalDeviceWrites;
  // The conditions of ?: that pick arms together, by profile (conditionKey).
  llvm::DenseMap<unsigned, llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, const Expr *>, 1>> conditionKeys;
};

/// One top-level evaluation: the recursion guards live here.
class ValueEvaluatorImpl {
public:
  ValueEvaluatorImpl(ASTContext &Ctx, ValueEvaluator::Cache &C, const ValueContext &Context, EvaluationTrace &Trace);

  IVal evalInt(const Expr *E);
  IDim3 evalDim3(const Expr *E);
  IVal castTo(IVal V, QualType Dest);

private:
  // Limits: nested expressions, nested variables, and the total work of one
  // top-level evaluation (a chain of variables each read twice is otherwise
  // exponential when a cut-off stops its values from being cached).
  static constexpr unsigned MaxDepth = 200;
  static constexpr unsigned MaxVarDepth = 24;
  /// The most calls of a lambda whose arguments are a parameter's set (the
  /// launch analysis's set bound).
  static constexpr unsigned MaxLambdaCalls = 8;
  static constexpr unsigned MaxSteps = 20000;

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  ValueEvaluator::Cache &C;
  unsigned Depth = 0;
  unsigned Steps = 0;
  unsigned Truncations = 0; // results cut short by a guard: not cached
  llvm::SmallPtrSet<const VarDecl *, 8> Active;
  // The helpers being evaluated at their calls, innermost last, each with
  // its parameters' values (ValueEvaluatorHelpers.cpp).
  struct HelperFrame {
    const FunctionDecl *function = nullptr;
    std::vector<std::pair<const ParmVarDecl *, IVal>> arguments;
  };
  static constexpr unsigned MaxHelperDepth = 4;
  std::vector<HelperFrame> Helpers;

  // The context (ValueContext.h): the frame values are read in now (NoFrame:
  // none, as without a context), the guards of each frame, and whether the
  // values read are the same in every context (then the shared cache holds them).
  static constexpr unsigned NoFrame = ~0u;
  const ValueContext &Context;
  EvaluationTrace *Trace;
  unsigned Frame = NoFrame;
  bool ContextFree = true;
  std::map<unsigned, std::vector<GuardFact>> GuardsOfFrame;
  std::map<std::pair<const VarDecl *, unsigned>, CachedValue<IVal>> FrameInts;
  std::map<std::pair<const VarDecl *, unsigned>, CachedValue<IDim3>> FrameDim3s;

  /// The frame a variable of a function is read in: the current one when the
  /// variable is the current frame's, NoFrame otherwise.
  unsigned frameOf(const VarDecl &VD) const;
  const std::vector<GuardFact> &guardsOf(unsigned F);
  void recordChoice(const OpenChoice &Choice);
  void recordReason(std::string Reason);
  std::string where(SourceLocation Loc) const;
  /// V refined by the guards around the frame's statement that speak of VD
  /// (for a variable read through ReadVia, only those its write reaches).
  IVal refineByGuards(const VarDecl &VD, IVal V);
  IVal pickMember(const void *Key, const std::vector<i128> &Members, IVal Hull, SourceLocation Loc,
                  const std::string &What, unsigned InFrame);
  /// A variable's cached value read in frame F: from the shared cache when
  /// it cannot depend on the context, else from this evaluation's.
  const CachedValue<IVal> *cachedInt(const VarDecl *Def, unsigned F);
  void cacheInt(const VarDecl *Def, unsigned F, CachedValue<IVal> Entry);
  const CachedValue<IDim3> *cachedDim3(const VarDecl *Def, unsigned F);
  void cacheDim3(const VarDecl *Def, unsigned F, CachedValue<IDim3> Entry);
  /// Records what a (cached) variable's evaluation taught.
  void replay(const EvaluationTrace &Learnt);
  /// A variable filled by a device query (cudaGetDeviceProperties,
  /// cudaDeviceGetAttribute, the occupancy API): its value for the context's
  /// target, or nullopt when VD is not such a variable
  /// (ValueEvaluatorDevice.cpp). `Field`: the member read of a struct.
  std::optional<IVal> deviceQueryValue(const VarDecl &VD, const FieldDecl *Field, QualType UseType);
  const CallExpr *deviceQueryFiller(const VarDecl &VD);
  /// A global written once, from a device property or attribute, besides a
  /// constant initializer (`cuda_num_SMs = prop.multiProcessorCount;` in a
  /// setup function): the target's value, assumed written before it is
  /// read; nullopt when VD is not such a global (ValueEvaluatorDevice.cpp).
  std::optional<IVal> globalDeviceValue(const VarDecl &VD, QualType UseType);
  const ValueEvaluator::Cache::GlobalDeviceWrite &globalDeviceWrite(const VarDecl &VD);
  /// A parameter read in a context, shared by integer and dim3 parameters
  /// (ValueEvaluatorContext.cpp): `argument` is the call's argument when the
  /// next frame out binds it; `readable` is false when the parameter stays
  /// unknown whatever its callers pass (no frame, a reference, a volatile, or
  /// modified by its function), the reason recorded.
  struct ParamBinding {
    const Expr *argument = nullptr;
    unsigned frame = NoFrame;
    bool readable = false;
    std::string function; // the parameter's function, by name
    std::string of;       // "parameter 'n' of 'f'"
  };
  /// WrittenAfter: the read sees the argument though the function assigns
  /// the parameter later (ReachingWrites.h), so that it modifies it does
  /// not make the parameter unreadable.
  ParamBinding bindParameter(const ParmVarDecl &P, bool WrittenAfter = false);
  /// Evaluates the bound argument in the caller's frame (`Eval` gets it).
  template <class EvalFn> auto evalArgument(const ParamBinding &B, EvalFn Eval) {
    const unsigned Saved = Frame;
    Frame = B.frame + 1;
    auto Value = Eval(B.argument);
    Frame = Saved;
    return Value;
  }
  /// The step a bound parameter adds to its value's derivation, and the
  /// reason when the caller's argument is not known ("called with a runtime
  /// value at x.cu:40").
  /// `Read`: what the value is of, when not the parameter itself
  /// (`cfg.threads` of a parameter `cfg`).
  ValueDerivation callStep(const ParmVarDecl &P, const ParamBinding &B, const std::string &Value, bool ValueKnown,
                           const std::string &Read = {});
  /// An unbound parameter: its callers are the choice that could settle it.
  void openCallers(const ParmVarDecl &P, const ParamBinding &B);
  IVal evalParam(const ParmVarDecl &P, QualType UseType, bool WrittenAfter = false);
  /// The value a read of an assigned local or parameter sees at Position
  /// (the read, or the statement it is read just before): the value of the
  /// assignment that reaches it, of a clamp whose condition is decided, or
  /// the variable's incoming value when no write comes before
  /// (ReachingWrites.h); nullopt when the variable is not assigned or the
  /// rule cannot tell (ValueEvaluatorWrites.cpp).
  std::optional<IVal> evalAfterWrites(WrittenPlace Place, const Stmt &Position, QualType UseType);
  /// The value a place starts with: the variable's (its argument, its
  /// initializer), or the member's in the object's initializer.
  IVal evalIncoming(WrittenPlace Place, const ReachingWrite &Reaching, QualType UseType);
  IVal throughWrite(WrittenPlace Place, const ReachingWrite &Reaching, IVal Value, QualType UseType);
  /// A member of a local object as its definition sets it: the element of a
  /// braced initializer, the dim3 constructor's argument, the default member
  /// initializer under an implicit constructor; of a parameter, as its
  /// caller's argument gives it (ValueEvaluatorMembers.cpp).
  IVal evalMemberInitial(const VarDecl &Object, const FieldDecl &Field, QualType UseType);
  /// The member Field (of Field's type) as the expression Init that creates
  /// its object sets it (a braced list, a constructor call); nullopt, the
  /// reason recorded, when Init does not set it in a way followed.
  std::optional<IVal> evalMemberOfInitializer(const Expr *Init, const FieldDecl &Field, const std::string &Name);
  /// Field as a user-written constructor's member initializer sets it, when
  /// exact without the constructor's arguments and its body leaves Field
  /// alone; else nullopt (ValueEvaluatorMembers.cpp).
  std::optional<IVal> evalConstructorInitializer(const CXXConstructExpr &Construct, const FieldDecl &Field);
  /// `obj.m` of an object whose members are followed: a local object the
  /// function only reads and assigns member by member (ReachingWrites.h), a
  /// parameter (by value, or by reference to const) bound to its caller's
  /// object, a const global with an initializer; nullopt when it is none.
  std::optional<IVal> evalLocalMember(const MemberExpr &E);
  std::optional<IVal> evalObjectMember(const VarDecl &Object, const FieldDecl &Field, const Stmt &Position,
                                       QualType UseType);
  /// A member of a parameter: the same member of the argument its caller
  /// passes (ValueEvaluatorMembers.cpp).
  IVal evalParamMember(const ParmVarDecl &P, const FieldDecl &Field, QualType UseType, bool WrittenAfter);
  /// The member Field of the object an argument names or creates.
  IVal evalMemberOfArgument(const Expr &Arg, const FieldDecl &Field, QualType UseType);
  /// The member Field of the local object Object read at Position: through
  /// its writes, or unknown with the reason; nullopt when Object's members
  /// are not followed at all (not a local object: isFollowedObject).
  std::optional<IVal> evalMemberPlace(const VarDecl &Object, const FieldDecl &Field, const Stmt &Position,
                                      QualType UseType);
  /// The writes of the function that owns Object, when Object is a local
  /// object whose members are followed; else null.
  const BodyWrites *memberWritesOf(const VarDecl &Object);
  /// evalAfterWrites for a read an if-else chain's arms reach
  /// (ReachingWrite::Kind::Branches).
  std::optional<IVal> evalArmWrites(WrittenPlace Place, const ReachingWrite &Reaching, const BodyWrites &Writes,
                                    QualType UseType);
  /// The same for a switch's label groups (ReachingWrite::Kind::Cases).
  std::optional<IVal> evalCaseWrites(WrittenPlace Place, const ReachingWrite &Reaching, const BodyWrites &Writes,
                                     QualType UseType);
  /// One value of the writes that can reach the read (Possible), keyed by
  /// the statement that holds them when a variant picks one.
  std::optional<IVal> joinWrites(WrittenPlace Place, const ReachingWrite &Reaching,
                                 const std::vector<const BinaryOperator *> &Possible,
                                 const std::vector<ValueDerivation> &Steps, const Stmt *Key, QualType UseType);
  /// The writes of a function body, built on first use and kept.
  const BodyWrites &writesIn(const Stmt &Body);
  llvm::SmallPtrSet<const BinaryOperator *, 4> ActiveWrites;
  // Assigned variables being read, and the write each read sees: a guard
  // applies to the value only where the same write reaches the guard.
  llvm::DenseMap<const VarDecl *, ReachingWrite> ReadVia;
  const Expr *boundArgument(const ParmVarDecl &P) const;
  IVal evalSubscript(const ArraySubscriptExpr *E);
  /// A parameter of a lambda defined and called in the current frame's
  /// function: the arguments of its calls there (ValueEvaluatorLambdas.cpp);
  /// nullopt when P is not such a lambda's.
  std::optional<IVal> evalLambdaParameter(const ParmVarDecl &P, QualType UseType, bool WrittenAfter);
  const std::optional<std::vector<const CallExpr *>> &lambdaCallsIn(const FunctionDecl &Enclosing,
                                                                    const CXXRecordDecl &Closure);
  /// The braced initializer (its semantic form) of a constant array whose
  /// elements cannot change, or null (ValueEvaluatorContext.cpp).
  const InitListExpr *stableArrayElements(const VarDecl &Array);
  /// The variable of a range-for over constants, read in the loop: one of
  /// the elements (a set a variant picks from); nullopt when VD is not an
  /// integer such loop variable (ValueEvaluatorRangeFor.cpp).
  std::optional<IVal> evalRangeForElement(const VarDecl &VD, QualType UseType);
  /// A call of a helper whose body is one return statement, evaluated with
  /// its parameters bound to the call's arguments (ValueEvaluatorHelpers.cpp);
  /// nullopt when the callee is not such a helper.
  std::optional<IVal> evalHelperCall(const CallExpr *E);
  /// The same for a helper returning a dim3 (one return statement only);
  /// nullopt, the reason recorded, when the callee is not such a helper.
  std::optional<IDim3> evalDim3HelperCall(const CallExpr *E);
  /// The definition of a non-member function E calls with all its
  /// parameters, or null.
  const FunctionDecl *helperDefinition(const CallExpr *E) const;
  bool helperBeingEvaluated(const FunctionDecl &Def) const;
  /// Binds Def's parameters (values or references to const, integers) to
  /// E's arguments as a new helper frame; the arguments' derivation, or
  /// nullopt (nothing pushed) when a parameter is of another kind.
  std::optional<std::vector<ValueDerivation>> pushHelperArguments(const CallExpr *E, const FunctionDecl &Def);
  /// A helper that is not one return statement (or is recursive), run on
  /// its exact arguments (HostFunctionRunner.h); nullopt when an argument
  /// is not exact or the run stops (its reason recorded).
  std::optional<IVal> runHelperCall(const CallExpr *E, const FunctionDecl &Def);
  /// The argument a parameter of a helper being evaluated is bound to.
  const IVal *helperArgument(const ParmVarDecl &P) const;

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
  bool castsAwayConst(const Stmt &Body);
  const ReadOnlyUses &readOnlyUses(const Stmt &Body);
  bool mutatedBeyondReferenceCaptures(const VarDecl &VD, const Stmt &Body, ExprMutationAnalyzer &Analyzer);
  bool hasStableValue(const VarDecl &VD);

  IVal evalIntNode(const Expr *E);
  IVal evalIntCast(const CastExpr *E);
  IVal evalDeclRef(const DeclRefExpr *E);
  /// Incoming: the read sees the initializer though the variable is
  /// assigned later (ReachingWrites.h).
  IVal evalVar(const VarDecl &VD, QualType UseType, bool Incoming = false);
  IVal evalUnary(const UnaryOperator *E);
  IVal evalBinary(const BinaryOperator *E);
  IVal evalConditional(const AbstractConditionalOperator *E);
  const void *conditionKey(const AbstractConditionalOperator &E);
  bool readsOnlyStableValues(const Expr *E);
  IVal evalCall(const CallExpr *E);
  IVal evalMember(const MemberExpr *E);
  IVal arith(BinaryOperatorKind Op, const IVal &A, const IVal &B, QualType LHSType);

  std::optional<IDim3> evalConstruct(const CXXConstructExpr *E);
  std::optional<IDim3> evalInitList(const InitListExpr *E);
  std::optional<IDim3> evalDim3Var(const DeclRefExpr *E, const std::string &Spelling);
  /// A local dim3 whose members are followed one by one (ReachingWrites.h),
  /// read at Use; nullopt when VD is not one (ValueEvaluatorDim3.cpp).
  std::optional<IDim3> evalDim3Members(const DeclRefExpr &Use, const VarDecl &VD);
  std::optional<IDim3> foldDim3(const Expr *E) const;
  IDim3 unknownDim3(const std::string &Spelling) const;
};

} // namespace clang::tidy::occlint
