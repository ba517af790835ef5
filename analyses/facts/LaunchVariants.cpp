// Enumerating a launch's variants (see the header): a worklist of contexts,
// each evaluated; a context whose block or dynamic shared memory is still not
// exact and that met an open choice (a parameter of its outermost function, a
// member of a finite set) is replaced by one context per option, within the
// bounds.
#include "facts/LaunchVariants.h"

#include <deque>
#include <set>
#include <string>
#include <tuple>

namespace clang::tidy::occlint {

namespace {

struct Pending {
  ValueContext context;
  std::vector<const CallExpr *> chain;
};

// Evaluates the launch's written values in `Context`; the choice that could
// refine the block (first) or the dynamic shared memory, and in SetFallback
// (when given) the first set whose member that value's reading met. With
// both exact, the callers that could bind the grid (`GridOnly` set): a
// grid its callers give (`run(q, 784)`, the sizes main passes) tells the
// launch checks whether a limit can bind at all (issue 47).
std::optional<OpenChoice> evaluateIn(LaunchSite &Site, const ValueContext &Context, ValueEvaluator &Values,
                                     bool &Infeasible, bool &NeedsTarget,
                                     std::optional<OpenChoice> *SetFallback = nullptr, bool *GridOnly = nullptr) {
  EvaluationTrace Grid, Block, Smem;
  if (Site.gridExpr)
    Site.grid = Values.evaluateDim3(*Site.gridExpr, Context, &Grid);
  if (Site.blockExpr)
    Site.block = Values.evaluateDim3(*Site.blockExpr, Context, &Block);
  if (Site.dynamicSharedMemExpr)
    Site.dynamicSharedMem = Values.evaluateInteger(*Site.dynamicSharedMemExpr, Context, &Smem);
  Site.gridUnknownReason = Site.grid.isExact() ? "" : Grid.unknownReason;
  Site.blockUnknownReason = Site.block.isExact() ? "" : Block.unknownReason;
  Site.dynamicSharedMemUnknownReason = Site.dynamicSharedMem.isExact() ? "" : Smem.unknownReason;
  Site.values.gridSweep = Site.grid.isExact() ? Grid.sweptArray : nullptr;
  Site.values.blockSweep = Site.block.isExact() ? Block.sweptArray : nullptr;
  Infeasible = Grid.infeasible || Block.infeasible || Smem.infeasible;
  NeedsTarget |= Grid.needsTarget || Block.needsTarget || Smem.needsTarget;
  if (!Site.block.isExact() && Block.choice) {
    if (SetFallback)
      *SetFallback = Block.setChoice;
    return Block.choice;
  }
  if (!Site.dynamicSharedMem.isExact() && Smem.choice) {
    if (SetFallback)
      *SetFallback = Smem.setChoice;
    return Smem.choice;
  }
  if (GridOnly && Site.block.isExact() && Site.dynamicSharedMem.isExact() && !Site.grid.isExact() && Grid.choice &&
      Grid.choice->kind == OpenChoice::Kind::Callers) {
    *GridOnly = true;
    return Grid.choice;
  }
  return std::nullopt;
}

// The integer arguments the launch's own function pins down. Evaluated in
// that context only: a value that a caller of a helper gives is not the
// launch's for every call, and the variants are enumerated for the block,
// not for the arguments.
std::vector<std::optional<int64_t>> argumentValuesIn(const LaunchSite &Site, const ValueContext &Context,
                                                     ValueEvaluator &Values) {
  std::vector<std::optional<int64_t>> Out(Site.argumentExprs.size());
  if (!Site.kernel || Site.argumentExprs.size() != Site.kernel->getNumParams())
    return {};
  for (size_t I = 0; I < Out.size(); ++I) {
    const ParmVarDecl *Param = Site.kernel->getParamDecl(I);
    const Expr *Arg = Site.argumentExprs[I];
    if (!Arg || !Param->getType()->isIntegralOrEnumerationType())
      continue;
    if (const EvaluatedValue V = Values.evaluateInteger(*Arg, Context, nullptr); V.isExact())
      Out[I] = V.exactValue();
  }
  return Out;
}

// The parameter of its function that the call `At` calls through, if any.
const ParmVarDecl *parameterCalledAt(const Stmt *At) {
  const auto *Call = dyn_cast_or_null<CallExpr>(At);
  const auto *Callee = Call ? dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()) : nullptr;
  return Callee ? dyn_cast<ParmVarDecl>(Callee->getDecl()) : nullptr;
}

// The parameter through which frame `Frame`'s function calls the next
// frame's (a function handed to it), if any. Frame 0 holds the launch, not
// a call.
const ParmVarDecl *handingParameter(const ValueContext &Context, unsigned Frame) {
  return Frame == 0 ? nullptr : parameterCalledAt(Context.frames[Frame].at);
}

// The callers of frame `Frame`'s function that lead to the launch. When that
// frame calls the next one in through the parameter `Via`, only the callers
// that hand it that very function do. Any other caller hands over another
// function: one that can hold the next frame's function would take its
// address, and then that function's callers were not all visible
// (CallSiteIndex::callersAllVisible) and the set is already incomplete.
std::vector<CallSite> callersLeadingOn(const ValueContext &Context, unsigned Frame, const ParmVarDecl *Via,
                                       CallSiteIndex &Calls) {
  const FunctionDecl &Fn = *Context.frames[Frame].function;
  std::vector<CallSite> Sites = Calls.callsOf(Fn);
  if (!Via)
    return Sites;
  // A lambda in the driver calling the driver's parameter: the index below
  // is the driver's, not the lambda's (whose calls are not followed anyway).
  if (Via->getDeclContext() != &Fn)
    return {};
  const FunctionDecl &Handed = *Context.frames[Frame - 1].function;
  std::erase_if(Sites, [&](const CallSite &C) {
    return !CallSiteIndex::passesFunction(*C.call, Via->getFunctionScopeIndex(), Handed);
  });
  return Sites;
}

std::string functionName(const FunctionDecl *F) { return F ? "'" + F->getNameAsString() + "'" : "a function"; }

// The values that tell two variants apart (their findings would be the same).
using VariantKey = std::tuple<std::string, std::string, std::string>;
VariantKey keyOf(const LaunchSite &S) {
  return {S.grid.product().describe(),
          S.block.xyz[0].describe() + "," + S.block.xyz[1].describe() + "," + S.block.xyz[2].describe(),
          S.dynamicSharedMem.describe()};
}

} // namespace

std::vector<LaunchSite> launchVariants(const LaunchSite &Site, ValueEvaluator &Values, CallSiteIndex &Calls,
                                       const ValueContext &Base) {
  bool NeedsTarget = false;
  // Every result says whether it still needs a target.
  auto Mark = [&](std::vector<LaunchSite> Sites) {
    for (LaunchSite &S : Sites)
      S.needsTarget = NeedsTarget && !Base.target;
    return Sites;
  };
  if (!Site.caller || !Site.call) {
    LaunchSite S = Site; // no function to give a context: the values as written
    S.argumentValues = argumentValuesIn(S, Base, Values);
    bool Infeasible = false;
    evaluateIn(S, Base, Values, Infeasible, NeedsTarget);
    S.values.blockComplete = S.values.complete && S.block.isExact();
    return Mark({S});
  }
  std::deque<Pending> Work;
  ValueContext Start;
  Start.frames = {ValueFrame{Site.caller, Site.call}};
  Start.target = Base.target;
  Start.kernelModel = Base.kernelModel;
  LaunchSite Written = Site;
  Written.argumentValues = argumentValuesIn(Site, Start, Values);
  Work.push_back({std::move(Start), {}});
  std::vector<LaunchSite> Done;
  std::optional<LaunchSite> First; // the launch in its own function, guards applied
  unsigned Excluded = 0;           // contexts in which the guards cannot all hold
  bool Complete = true;
  std::string IncompleteBecause;
  auto Incomplete = [&](std::string Why) {
    Complete = false;
    if (IncompleteBecause.empty())
      IncompleteBecause = std::move(Why);
  };
  // Whether the variants hold every block the launch can get. A path they
  // miss (a caller not followed, a bound reached) can give another block
  // only when the block was still open where the path was left: a block
  // exact in a context does not read what the missing callers or set
  // members would bind (an unbound parameter or set is never exact).
  bool EveryBlock = true;
  auto PathLeft = [&](const LaunchSite &At, std::string Why) {
    EveryBlock &= At.block.isExact();
    Incomplete(std::move(Why));
  };
  // One context per call of the function a choice is in, each a frame out.
  auto FollowCallers = [&Work](const Pending &P, const std::vector<CallSite> &Sites) {
    for (const CallSite &C : Sites) {
      Pending Q = P;
      Q.context.frames.push_back({C.caller, C.call});
      Q.chain.push_back(C.call);
      Work.push_back(std::move(Q));
    }
  };
  while (!Work.empty()) {
    Pending P = std::move(Work.front());
    Work.pop_front();
    LaunchSite S = Written;
    bool Infeasible = false;
    std::optional<OpenChoice> SetFallback;
    bool GridOnly = false;
    std::optional<OpenChoice> Choice =
        evaluateIn(S, P.context, Values, Infeasible, NeedsTarget, &SetFallback, &GridOnly);
    S.values.callChain = P.chain;
    if (!First) {
      First = S;
      if (Infeasible) {
        // The guards around the launch cannot all hold: nothing to say
        // about values it never gets.
        for (EvaluatedDim3 *D : {&First->grid, &First->block})
          for (EvaluatedValue &V : D->xyz)
            V = EvaluatedValue::unknown(V.spelling);
        First->dynamicSharedMem = EvaluatedValue::unknown(First->dynamicSharedMem.spelling);
        First->blockUnknownReason = "the conditions around the launch cannot all hold";
        First->values.blockComplete = false;
        return Mark({*First});
      }
    }
    if (Infeasible) {
      ++Excluded;
      continue; // a caller whose value the guards around the launch exclude
    }
    const bool Settled = S.block.isExact() && S.dynamicSharedMem.isExact() && !GridOnly;
    if (Settled || !Choice) {
      Done.push_back(std::move(S));
      continue;
    }
    if (GridOnly) {
      // The grid is followed into the callers only where all of them are
      // seen and within the bounds; otherwise the launch keeps its unknown
      // grid, as before, and nothing is incomplete about its block.
      const FunctionDecl *Fn = P.context.frames[Choice->frame].function;
      const ParmVarDecl *Via = handingParameter(P.context, Choice->frame);
      std::vector<CallSite> Sites = callersLeadingOn(P.context, Choice->frame, Via, Calls);
      const bool Visible = Via || Calls.callersAllVisible(*Fn, nullptr);
      if (!Visible || Sites.empty() || P.context.frames.size() > MaxCallDepth ||
          Done.size() + Work.size() + Sites.size() > MaxPaths) {
        Done.push_back(std::move(S));
        continue;
      }
      FollowCallers(P, Sites);
      continue;
    }
    const size_t Used = Done.size() + Work.size();
    const ParmVarDecl *Via = nullptr;
    std::vector<CallSite> Sites;
    if (Choice->kind == OpenChoice::Kind::Callers) {
      Via = handingParameter(P.context, Choice->frame);
      Sites = callersLeadingOn(P.context, Choice->frame, Via, Calls);
      if (SetFallback && (P.context.frames.size() > MaxCallDepth || Sites.empty()))
        Choice = SetFallback; // no caller to bind the parameter: each member of the set is its value for some argument
    }
    if (Choice->kind == OpenChoice::Kind::Callers) {
      const FunctionDecl *Fn = P.context.frames[Choice->frame].function;
      std::string NotVisible;
      // Reached through a call of one of Fn's parameters: the calls of Fn
      // kept pass the function the launch is in, whose own callers were all
      // visible (other files' calls of Fn pass functions of their own).
      const bool Visible = Via || Calls.callersAllVisible(*Fn, &NotVisible);
      if (P.context.frames.size() > MaxCallDepth) {
        PathLeft(S, "the calls leading to the launch are nested deeper than " + std::to_string(MaxCallDepth));
      } else if (Sites.empty()) {
        PathLeft(S, functionName(Fn) + " is not called in this translation unit");
      } else if (Used + Sites.size() > MaxPaths) {
        PathLeft(S, functionName(Fn) + " is called from " + std::to_string(Sites.size()) + " places; at most " +
                        std::to_string(MaxPaths) + " paths to the launch are followed");
      } else {
        if (!Visible)
          PathLeft(S, NotVisible);
        FollowCallers(P, Sites);
        continue;
      }
    } else if (Used + Choice->count > MaxPaths) {
      PathLeft(S, "a value is one of " + std::to_string(Choice->count) + "; at most " + std::to_string(MaxPaths) +
                      " paths to the launch are followed");
    } else {
      for (unsigned I = 0; I < Choice->count; ++I) {
        Pending Q = P;
        Q.context.picks[{Choice->key, Choice->frame}] = I;
        Work.push_back(std::move(Q));
      }
      continue;
    }
    Done.push_back(std::move(S));
  }
  // One variant per distinct set of values, in the order found.
  std::vector<LaunchSite> Out;
  std::set<VariantKey> Seen;
  bool AnyExactBlock = false, EveryBlockExact = true;
  for (const LaunchSite &S : Done) {
    if (!S.block.isExact())
      Incomplete(S.blockUnknownReason.empty() ? "a variant's block is not known" : S.blockUnknownReason);
    else if (!S.dynamicSharedMem.isExact())
      Incomplete(S.dynamicSharedMemUnknownReason.empty() ? "a variant's dynamic shared memory is not known"
                                                         : S.dynamicSharedMemUnknownReason);
    AnyExactBlock |= S.block.isExact();
    EveryBlockExact &= S.block.isExact();
    if (Seen.insert(keyOf(S)).second)
      Out.push_back(S);
  }
  if (Out.size() > MaxVariants) {
    Incomplete("the launch takes " + std::to_string(Out.size()) + " sets of values; the first " +
               std::to_string(MaxVariants) + " are analysed");
    EveryBlock = false; // the variants left out may have other blocks
    Out.resize(MaxVariants);
  }
  if (!AnyExactBlock || Out.empty()) {
    // Nothing better than the launch's own function gives: that, with the
    // reason the enumeration found when there is one variant to explain.
    LaunchSite S = Done.size() == 1 ? std::move(Done.front()) : std::move(*First);
    std::vector<const CallExpr *> Chain = Done.size() == 1 ? S.values.callChain : std::vector<const CallExpr *>{};
    S.values = LaunchValueSet{};
    S.values.complete = Complete && S.block.isExact(); // blockComplete stays false: no variant has an exact block
    S.values.incompleteBecause = IncompleteBecause;
    S.values.callChain = std::move(Chain);
    if (Done.empty() && Excluded > 0) {
      // Every context the callers give fails a guard around the launch (a
      // branch that the program's own sizes never take on this target).
      S.blockUnknownReason = "the conditions around the launch hold for none of the values its callers give (" +
                             std::to_string(Excluded) + (Excluded == 1 ? " context)" : " contexts)");
      if (S.values.incompleteBecause.empty())
        S.values.incompleteBecause = S.blockUnknownReason;
    }
    return Mark({S});
  }
  for (unsigned I = 0; I < Out.size(); ++I) {
    Out[I].values.variant = I;
    Out[I].values.variants = static_cast<unsigned>(Out.size());
    Out[I].values.complete = Complete;
    Out[I].values.blockComplete = EveryBlock && EveryBlockExact;
    Out[I].values.incompleteBecause = IncompleteBecause;
  }
  return Mark(std::move(Out));
}

} // namespace clang::tidy::occlint
