#include "divergence/DivergenceAnalysis.h"

#include "divergence/DivergenceDataflow.h"
#include "divergence/OperationCost.h"
#include "divergence/StatedBlockShape.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <sstream>

namespace clang::tidy::occlint {

namespace {

struct CacheEntry {
  const ASTContext *Ctx = nullptr;
  const TranslationUnitFacts *Facts = nullptr;
  std::unique_ptr<DivergenceResults> Results;
};

CacheEntry &cache() {
  static CacheEntry Entry;
  return Entry;
}

/// The block shape (and grid) the kernel's launches agree on, dimension by
/// dimension: `dim3 block(4, 8, n / 32)` still says that x is 4 and y is 8.
BlockShape shapeOf(const std::vector<const LaunchSite *> &Launches) {
  BlockShape Shape;
  std::array<bool, 6> Agree{true, true, true, true, true, true};
  const std::array<std::optional<int64_t> *, 6> Extents{&Shape.X,     &Shape.Y,     &Shape.Z,
                                                        &Shape.GridX, &Shape.GridY, &Shape.GridZ};
  for (const LaunchSite *Site : Launches) {
    const LaunchSite &L = *Site;
    const bool First = !Shape.Launched;
    if (First)
      Shape.FirstLaunch = L.loc;
    Shape.Launched = true;
    for (unsigned I = 0; I < 6; ++I) {
      const EvaluatedValue &V = I < 3 ? L.block.xyz[I] : L.grid.xyz[I - 3];
      std::optional<int64_t> &Dim = *Extents[I];
      if (!V.isExact() || (!First && (!Dim || *Dim != V.exactValue())))
        Agree[I] = false;
      else if (First)
        Dim = V.exactValue();
      if (!Agree[I])
        Dim.reset();
    }
  }
  return Shape;
}

/// The arguments every launch of the kernel agrees on, parameter by
/// parameter (LaunchedArguments).
LaunchedArguments argumentsOf(const FunctionDecl &Kernel, const std::vector<const LaunchSite *> &Launches) {
  LaunchedArguments Agreed;
  bool First = true;
  for (const LaunchSite *Site : Launches) {
    const LaunchSite &L = *Site;
    if (L.argumentValues.size() != Kernel.getNumParams())
      return {}; // a launch whose arguments are not read: nothing is known
    if (First)
      Agreed = L.argumentValues;
    for (size_t I = 0; I < Agreed.size(); ++I)
      if (Agreed[I] != L.argumentValues[I])
        Agreed[I].reset();
    First = false;
  }
  return Agreed;
}

// The launches grouped by what the analysis reads of them: the block shape
// and grid (exact, each dimension) and the integer arguments. Launches whose
// block is not exact are left out (they say nothing certain).
std::vector<std::vector<const LaunchSite *>> configurationsOf(const std::vector<const LaunchSite *> &Launches) {
  std::map<std::string, std::vector<const LaunchSite *>> Groups;
  std::vector<std::string> Order;
  for (const LaunchSite *L : Launches) {
    if (!L->block.isExact())
      continue;
    std::ostringstream Key;
    for (unsigned I = 0; I < 3; ++I)
      Key << L->block.xyz[I].exactValue() << ',';
    for (unsigned I = 0; I < 3; ++I)
      Key << (L->grid.xyz[I].isExact() ? std::to_string(L->grid.xyz[I].exactValue()) : "?") << ',';
    for (const std::optional<int64_t> &A : L->argumentValues)
      Key << (A ? std::to_string(*A) : "?") << ',';
    auto [Group, New] = Groups.try_emplace(Key.str());
    if (New)
      Order.push_back(Group->first);
    Group->second.push_back(L);
  }
  std::vector<std::vector<const LaunchSite *>> Out;
  for (const std::string &K : Order)
    Out.push_back(std::move(Groups[K]));
  return Out;
}

// Severity earned by launches: when a kernel's launches do not agree on the
// block shape or the arguments (`dim3(4, 8, size / 32)` for sizes 32 and 64),
// the agreed analysis leaves the disagreeing parts unknown, and a barrier
// under `r < blockDim.z` is only a possible miss. Each configuration the
// launches give is analysed on its own as well: what it makes certain is
// that launch's error, what none of them misses is no finding
// (checks/DivergenceCheck.cpp). Cost: the kernel once more per distinct
// configuration, at most MaxLaunchConfigurations.
void analyzeEachLaunch(ASTContext &Ctx, const FunctionDecl &Kernel, const std::string &Name,
                       const std::vector<const LaunchSite *> &Launches, DivergenceResults &Results) {
  const std::vector<std::vector<const LaunchSite *>> Configurations = configurationsOf(Launches);
  if (Configurations.size() < 2 || Configurations.size() > DivergenceResults::MaxLaunchConfigurations)
    return;
  const bool EveryLaunch =
      std::all_of(Launches.begin(), Launches.end(), [](const LaunchSite *L) { return L->block.isExact(); });
  for (const std::vector<const LaunchSite *> &Same : Configurations) {
    DivergenceResults Scratch;
    DivergenceDriver Driver(Ctx, Scratch);
    BlockShape Shape = shapeOf(Same);
    readStatedBlockShape(Kernel, Ctx, Shape);
    Driver.analyzeKernel(Kernel, Name, Shape, argumentsOf(Kernel, Same));
    // Each context names the launch whose configuration it is.
    const LaunchSite &Launch = *Same.front();
    const std::string Block = std::to_string(Launch.block.xyz[0].exactValue()) + "x" +
                              std::to_string(Launch.block.xyz[1].exactValue()) + "x" +
                              std::to_string(Launch.block.xyz[2].exactValue());
    auto NameTheLaunch = [&](DivergenceContext &C) {
      C.LaunchedBlock = Block;
      C.DecidedByLaunch = Launch.loc;
    };
    for (DivergenceCollective &C : Scratch.Collectives) {
      NameTheLaunch(C.Ctx);
      if (C.Ctx.ExitedIgnored) {
        auto Copy = std::make_shared<DivergenceContext>(*C.Ctx.ExitedIgnored);
        NameTheLaunch(*Copy);
        C.Ctx.ExitedIgnored = std::move(Copy);
      }
    }
    Results.ByLaunch.push_back({Name, Launch.loc, std::move(Scratch.Collectives), EveryLaunch});
  }
}

std::string key(const void *P, const std::vector<ThreadValue> &Args, const ThreadValue &This) {
  std::ostringstream S;
  S << P << '|' << This.str();
  for (const ThreadValue &A : Args)
    S << '|' << A.str();
  return S.str();
}

} // namespace

const FunctionDecl *analysableDefinition(const FunctionDecl *FD, const ASTContext &Ctx) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr; // the toolkit's and the standard library's functions: by name, or opaque
  return Def;
}

void DivergenceResults::addBranch(DivergenceBranch B) {
  // A block is visited more than once in a fixpoint: keep one record per
  // statement, kernel and condition.
  if (!Seen.insert(std::to_string(reinterpret_cast<uintptr_t>(B.S)) + B.Kernel + B.Cond.str()).second)
    return;
  LanesByKernel[B.Kernel].Loss += B.Loss;
  Branches.push_back(std::move(B));
}

void DivergenceResults::addCollective(DivergenceCollective C) {
  const void *Key = C.Call ? static_cast<const void *>(C.Call) : static_cast<const void *>(C.AsmStmt);
  if (!Seen.insert(std::to_string(reinterpret_cast<uintptr_t>(Key)) + "#" + std::to_string(C.Ctx.Group) + "#" +
                   std::to_string(reinterpret_cast<uintptr_t>(C.Ctx.Branch)) + C.Kernel)
           .second)
    return;
  Collectives.push_back(std::move(C));
}

void DivergenceResults::forgetAll() { cache() = CacheEntry{}; }

const DivergenceResults *DivergenceResults::computedFor(const ASTContext &Ctx) {
  const CacheEntry &C = cache();
  return C.Results && C.Ctx == &Ctx ? C.Results.get() : nullptr;
}

const DivergenceResults &DivergenceResults::get(ASTContext &Ctx, const TranslationUnitFacts &Facts) {
  CacheEntry &C = cache();
  if (C.Results && C.Ctx == &Ctx && C.Facts == &Facts)
    return *C.Results;
  const auto Start = std::chrono::steady_clock::now();
  auto Results = std::make_unique<DivergenceResults>();
  DivergenceDriver Driver(Ctx, *Results);
  // Each kernel's launches, grouped once (not a pass over every launch per kernel).
  std::map<const FunctionDecl *, std::vector<const LaunchSite *>> LaunchesOf;
  for (const LaunchSite &L : Facts.launches)
    LaunchesOf[L.kernel].push_back(&L);
  for (const auto &K : Facts.kernels)
    if (K && K->decl && K->decl->hasBody() && !K->decl->isDependentContext()) {
      const std::vector<const LaunchSite *> &Launches = LaunchesOf[K->decl];
      BlockShape Shape = shapeOf(Launches);
      readStatedBlockShape(*K->decl, Ctx, Shape);
      Driver.analyzeKernel(*K->decl, K->displayName, Shape, argumentsOf(*K->decl, Launches));
      analyzeEachLaunch(Ctx, *K->decl, K->displayName, Launches, *Results);
    }
  Results->Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  C.Ctx = &Ctx;
  C.Facts = &Facts;
  C.Results = std::move(Results);
  return *C.Results;
}

void DivergenceDriver::analyzeKernel(const FunctionDecl &Kernel, const std::string &Name, const BlockShape &S,
                                     const LaunchedArguments &A) {
  this->Kernel = Name;
  KernelDecl = &Kernel;
  Shape = S;
  Arguments = A;
  Returns.clear(); // summaries depend on the block shape
  Reported.clear();
  // The lanes its warps hold: a block of 48 threads fills one warp and half
  // of another (24 on average).
  DivergenceResults::KernelLanes &Lanes = Out.LanesByKernel[Name];
  if (const std::optional<int64_t> T = S.threads())
    Lanes.LanesPerWarp = double(*T) / double((*T + 31) / 32);
  // Kernel parameters are the same for every thread; those every launch
  // passes the same integer are that constant.
  std::vector<ThreadValue> Params(Kernel.getNumParams(), ThreadValue::uniform());
  for (size_t I = 0; I < Params.size() && I < Arguments.size(); ++I)
    if (Arguments[I])
      Params[I] = ThreadValue::constant(*Arguments[I]);
  Stack.push_back(&Kernel);
  analyzeFunctionBody(Kernel, *this, Params, ThreadValue::uniform(), DivergenceContext{}, /*Report=*/true);
  Stack.pop_back();
}

FunctionSummary DivergenceDriver::call(const FunctionDecl &Callee, const std::vector<ThreadValue> &Args,
                                       const ThreadValue &This, const DivergenceContext &CallerCtx, bool Report) {
  // Recursion, or a chain too deep to follow: a function of the arguments.
  if (std::find(Stack.begin(), Stack.end(), &Callee) != Stack.end() || Stack.size() > 12) {
    std::vector<ThreadValue> All = Args;
    All.push_back(This);
    return FunctionSummary{opaque(All), {}};
  }
  const std::string Key = key(&Callee, Args, This);
  Stack.push_back(&Callee);
  FunctionSummary Result;
  if (Report) {
    // Findings inside the callee depend on how uniformly it is reached.
    std::ostringstream Ctx;
    Ctx << Key << '#' << CallerCtx.Group << '#' << CallerCtx.Branch;
    if (Reported.insert(Ctx.str()).second) {
      Result = analyzeFunctionBody(Callee, *this, Args, This, CallerCtx, true);
      Returns[Key] = Result;
    } else if (auto It = Returns.find(Key); It != Returns.end()) {
      Result = It->second;
    } else {
      Result = Returns[Key] = analyzeFunctionBody(Callee, *this, Args, This, CallerCtx, false);
    }
  } else if (auto It = Returns.find(Key); It != Returns.end()) {
    Result = It->second;
  } else {
    Result = Returns[Key] = analyzeFunctionBody(Callee, *this, Args, This, DivergenceContext{}, false);
  }
  Stack.pop_back();
  return Result;
}

int64_t DivergenceDriver::cost(const FunctionDecl &F) {
  if (auto It = Costs.find(&F); It != Costs.end())
    return It->second;
  Costs[&F] = 0; // recursion
  int64_t N = 0;
  std::vector<const Stmt *> Work{F.getBody()};
  while (!Work.empty() && N < 500) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    N += operationCost(S);
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Def = analysableDefinition(CE->getDirectCallee(), Ctx); Def && Def != &F)
        N += cost(*Def);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Costs[&F] = std::min<int64_t>(N, 500);
}

// threadIdx in terms of the lane table: the block is laid out x fastest,
// then y, then z, and cut into warps of 32 consecutive threads.
ThreadValue DivergenceDriver::threadIdx(unsigned Dim) const {
  std::array<int64_t, Lanes> T;
  const auto X = Shape.X, Y = Shape.Y, Z = Shape.Z;
  if (Y && Z && *Y == 1 && *Z == 1) { // one-dimensional: x is the linear index
    if (Dim > 0)
      return ThreadValue::constant(0);
    return ThreadValue::linearTid();
  }
  const MonoCoord Coord = Dim == 0 ? MonoCoord::X : Dim == 1 ? MonoCoord::Y : MonoCoord::Z;
  if (!X) {
    // Not known at every launch: assume blockDim.x is a multiple of 32, so
    // that x is the lane plus a multiple of 32 and y, z are warp-uniform.
    ThreadValue V;
    if (Dim == 0) {
      for (unsigned L = 0; L < Lanes; ++L)
        T[L] = L;
      V = ThreadValue::table(T, RestKind::WarpUniform, 5, Coord);
    } else {
      V = ThreadValue::warpUniform();
      V.Mono = Coord;
    }
    V.Assumed = true;
    return V;
  }
  // The coordinate is (tid / Below) % Extent, Below the threads of one step
  // along it (1, X, X*Y); tid = l + 32 w.
  const std::optional<int64_t> Below = Dim == 0   ? std::optional<int64_t>(1)
                                       : Dim == 1 ? X
                                       : X && Y   ? std::optional<int64_t>(*X * *Y)
                                                  : std::nullopt;
  // The outermost dimension never wraps: z, or y of a block with one z-slice.
  const bool Outermost = Dim == 2 || (Dim == 1 && Z && *Z == 1);
  const std::optional<int64_t> Extent = Dim == 0 ? X : Dim == 1 ? Y : Z;
  if (Below && *Below > 0 && *Below % 32 == 0) { // a step spans whole warps
    ThreadValue V = ThreadValue::warpUniform();
    V.Mono = Coord;
    return V;
  }
  if (Below && *Below > 0 && 32 % *Below == 0) {
    // Steps of `Below` lanes: within a warp the coordinate counts l / Below
    // up to PerWarp values, then the next warp carries on (or wraps).
    const int64_t PerWarp = 32 / *Below;
    if (Extent && *Extent > 0 && PerWarp % *Extent == 0) { // wraps every Extent steps, the same in every warp
      for (unsigned L = 0; L < Lanes; ++L)
        T[L] = (L / *Below) % *Extent;
      return ThreadValue::table(T, RestKind::Const, ExactAlign, Coord);
    }
    if ((Extent && *Extent % PerWarp == 0) || Outermost) { // never wraps inside a warp
      for (unsigned L = 0; L < Lanes; ++L)
        T[L] = L / *Below;
      return ThreadValue::table(T, RestKind::WarpUniform, __builtin_ctzll(PerWarp), Coord);
    }
  }
  ThreadValue V = ThreadValue::top(); // an odd shape: rows wrap inside warps
  V.Mono = Coord;
  return V;
}

ThreadValue DivergenceDriver::blockDim(unsigned Dim) const {
  const auto &V = Dim == 0 ? Shape.X : Dim == 1 ? Shape.Y : Shape.Z;
  if (V)
    return ThreadValue::constant(*V);
  if (Dim == 0) {
    ThreadValue U = ThreadValue::uniform(5); // the assumption of threadIdx()
    U.Assumed = true;
    return U;
  }
  return ThreadValue::uniform();
}

} // namespace clang::tidy::occlint
