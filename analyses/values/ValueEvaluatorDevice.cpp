// Values the host asks the device for, per target GPU:
//   cudaGetDeviceProperties(&prop, dev); ... prop.multiProcessorCount ...
//   cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
//   cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 0);
//   cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 0);
// A variable counts as filled by the query only when the query is the one
// place it is written: every other use of it in its function reads it. Its
// value is the target GPU's (GpuDatabase) or the occupancy engine's for the
// kernel's ptxas resources (the engine equals the runtime's answer;
// maxPotentialBlockSize equals cuda_occupancy.h's search); without a target
// in the context the value is unknown and the trace asks for one.
#include "values/ValueEvaluatorInternals.h"

#include "ast/KernelReferences.h"
#include "ast/StatementParents.h"

#include "gpu/OccupancyBlockSizeSearch.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

namespace {

// The query calls and which of their arguments are out-pointers.
bool isQueryOut(const CallExpr &Call, unsigned Arg) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (Name == "cudaGetDeviceProperties" || Name == "cudaGetDeviceProperties_v2" || Name == "cudaDeviceGetAttribute" ||
      Name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor")
    return Arg == 0;
  if (Name == "cudaOccupancyMaxPotentialBlockSize")
    return Arg == 0 || Arg == 1;
  return false;
}

// The references to one variable, each with its enclosing statements
// (innermost first): the parents of a reference without a
// whole-translation-unit parent map (ASTContext's, which walks every header
// once it is asked for one parent).
class References : public AncestorTrackingVisitor {
public:
  struct Found {
    const DeclRefExpr *ref;
    std::vector<const Stmt *> ancestors; // ancestors[0] is the parent
  };
  explicit References(const VarDecl &VD) : VD(VD) {}
  void enterStatement(const Stmt *S, const std::vector<const Stmt *> &Above) override {
    // Any declaration of the variable: a global's uses may name its
    // `extern` declaration in a header.
    if (const auto *E = dyn_cast<DeclRefExpr>(S); E && E->getDecl()->getCanonicalDecl() == VD.getCanonicalDecl())
      All.push_back({E, {Above.rbegin(), Above.rend()}});
  }
  const VarDecl &VD;
  std::vector<Found> All;
};

/// Walks up a reference's ancestors: parent() is the statement above the
/// current one, skipping parentheses; null past the top.
class AncestorWalk {
public:
  explicit AncestorWalk(const References::Found &F) : Ancestors(F.ancestors) {}
  const Stmt *parent() {
    const Stmt *S = next();
    while (S && isa<ParenExpr>(S))
      S = next();
    return S;
  }

private:
  const Stmt *next() { return Pos < Ancestors.size() ? Ancestors[Pos++] : nullptr; }
  const std::vector<const Stmt *> &Ancestors;
  size_t Pos = 0;
};

bool isRead(const Stmt *Parent) {
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

// The device's value of a cudaDeviceProp field or cudaDeviceAttr, as
// GpuDatabase knows it; nullopt for what it does not model.
std::optional<int64_t> deviceValue(StringRef What, const ::occlint::TargetGpu &Gpu) {
  const ::occlint::ArchLimits &A = Gpu.arch;
  if (What == "multiProcessorCount" || What == "cudaDevAttrMultiProcessorCount")
    return Gpu.smCount;
  if (What == "maxThreadsPerBlock" || What == "cudaDevAttrMaxThreadsPerBlock")
    return A.maxThreadsPerBlock;
  if (What == "warpSize" || What == "cudaDevAttrWarpSize")
    return A.warpSize;
  if (What == "sharedMemPerBlock" || What == "cudaDevAttrMaxSharedMemoryPerBlock")
    return A.sharedMemPerBlock;
  if (What == "sharedMemPerBlockOptin" || What == "cudaDevAttrMaxSharedMemoryPerBlockOptin")
    return A.sharedMemPerBlockOptin;
  if (What == "sharedMemPerMultiprocessor" || What == "cudaDevAttrMaxSharedMemoryPerMultiprocessor")
    return A.sharedMemPerSM;
  if (What == "maxThreadsPerMultiProcessor" || What == "cudaDevAttrMaxThreadsPerMultiProcessor")
    return A.maxThreadsPerSM;
  if (What == "maxBlocksPerMultiProcessor" || What == "cudaDevAttrMaxBlocksPerMultiprocessor")
    return A.maxBlocksPerSM;
  if (What == "regsPerBlock" || What == "cudaDevAttrMaxRegistersPerBlock")
    return A.regsPerBlock;
  if (What == "regsPerMultiprocessor" || What == "cudaDevAttrMaxRegistersPerMultiprocessor")
    return A.regsPerSM;
  if (What == "major" || What == "cudaDevAttrComputeCapabilityMajor")
    return A.major;
  if (What == "minor" || What == "cudaDevAttrComputeCapabilityMinor")
    return A.minor;
  return std::nullopt;
}

// " on H100 SXM", and for a bare arch "(assumed: the default product of sm_90)".
std::string onTarget(const ::occlint::TargetGpu &Gpu) {
  return " on " + Gpu.productName +
         (Gpu.productAssumed ? " (assumed: the default product of " + Gpu.arch.name + ")" : "");
}

} // namespace

const CallExpr *ValueEvaluatorImpl::deviceQueryFiller(const VarDecl &VD) {
  auto Known = C.deviceQueryFillers.find(&VD);
  if (Known != C.deviceQueryFillers.end())
    return Known->second;
  const CallExpr *Filler = nullptr;
  // A local, or a global of the translation unit (`cudaDeviceProp
  // deviceProp;` filled by a setup function): then every use in the whole
  // translation unit is looked at, and the value is assumed set before it is
  // read (deviceQueryValue says so).
  const bool Global = VD.hasGlobalStorage() && !VD.isStaticLocal() && !VD.isLocalVarDecl() &&
                      VD.getType()->isRecordType() && VD.getDefinition();
  bool Valid =
      (VD.isLocalVarDecl() || Global) && !VD.getType()->isReferenceType() && !VD.getType().isVolatileQualified();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  if (Valid && (Global || (FD && FD->getBody()))) {
    References Refs(VD);
    if (Global)
      Refs.traverseDecl(Ctx.getTranslationUnitDecl());
    else
      Refs.traverseStmt(FD->getBody());
    for (const References::Found &Found : Refs.All) {
      AncestorWalk Up(Found);
      const Stmt *Parent = Up.parent();
      if (isRead(Parent))
        continue;
      if (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent); Member && !Member->isArrow()) {
        const Stmt *Above = Up.parent();
        // A read, or an array field decaying to a pointer (`prop.name` printed).
        const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Above);
        if (isRead(Above) || (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay))
          continue;
        Valid = false; // a field written, or its address taken
        break;
      }
      const auto *AddrOf = dyn_cast_or_null<UnaryOperator>(Parent);
      const Stmt *Use = AddrOf && AddrOf->getOpcode() == UO_AddrOf ? Up.parent() : nullptr;
      while (isa_and_nonnull<ImplicitCastExpr>(Use))
        Use = Up.parent();
      const auto *Call = dyn_cast_or_null<CallExpr>(Use);
      bool IsOut = false;
      if (Call && !Filler)
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (Call->getArg(I)->IgnoreParenImpCasts() == AddrOf && isQueryOut(*Call, I))
            IsOut = true;
      if (!IsOut) {
        Valid = false;
        break;
      }
      Filler = Call;
    }
  }
  const CallExpr *Result = Valid ? Filler : nullptr;
  C.deviceQueryFillers[&VD] = Result;
  return Result;
}

std::optional<IVal> ValueEvaluatorImpl::deviceQueryValue(const VarDecl &VD, const FieldDecl *Field, QualType UseType) {
  const CallExpr *Call = deviceQueryFiller(VD);
  if (!Call)
    return std::nullopt;
  const StringRef Callee = Call->getDirectCallee()->getName();
  const std::string Name = "'" + VD.getName().str() + (Field ? "." + Field->getName().str() : "") + "'";
  // Values of another function's variables are not read per target (they
  // would enter a cache shared by every target); a global is read in any
  // frame of the launch.
  const bool Global = !VD.isLocalVarDecl();
  if ((Global ? Frame == NoFrame : frameOf(VD) == NoFrame) || !Context.target) {
    if (Trace)
      Trace->needsTarget = true;
    recordReason(Name + " is read from the device: known per target GPU");
    return unknownOf(UseType, Name.substr(1, Name.size() - 2));
  }
  const ::occlint::TargetGpu &Gpu = *Context.target;
  const std::string On = onTarget(Gpu);
  std::optional<int64_t> Value;
  std::string How;
  if (Callee.starts_with("cudaGetDeviceProperties")) {
    if (Field) {
      Value = deviceValue(Field->getName(), Gpu);
      How = "cudaGetDeviceProperties";
    }
  } else if (Callee == "cudaDeviceGetAttribute" && !Field && Call->getNumArgs() >= 2) {
    if (const auto *Attr = dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts())) {
      Value = deviceValue(Attr->getDecl()->getName(), Gpu);
      How = Attr->getDecl()->getName().str();
    }
  } else if (!Field && Call->getNumArgs() >= 3) {
    // The occupancy API: the kernel's ptxas resources and the launch values
    // the call names, read where the call is.
    const FunctionDecl *Kernel = referencedKernel(Call->getArg(Callee == "cudaOccupancyMaxPotentialBlockSize" ? 2 : 1));
    std::optional<KernelModel> Model =
        Kernel && Context.kernelModel ? Context.kernelModel(*Kernel) : std::optional<KernelModel>();
    if (!Model) {
      recordReason(Name + " comes from " + Callee.str() + ", which needs the kernel's ptxas report");
      return unknownOf(UseType, Name.substr(1, Name.size() - 2));
    }
    auto Arg = [&](unsigned I) -> std::optional<int64_t> {
      if (I >= Call->getNumArgs())
        return 0; // the runtime's default arguments
      IVal V = evalInt(Call->getArg(I));
      return V.exact() ? std::optional<int64_t>(int64_t(V.lo)) : std::nullopt;
    };
    if (Callee == "cudaOccupancyMaxActiveBlocksPerMultiprocessor") {
      std::optional<int64_t> Block = Arg(2), Smem = Arg(3);
      if (Block && Smem && *Block > 0 && *Block <= (1 << 24)) {
        ::occlint::LaunchShape Shape;
        Shape.blockX = int(*Block);
        Shape.dynamicSharedMem = *Smem;
        if (Model->optinDynamicSharedMem)
          Shape.optinDynamicSharedMem =
              std::min<int64_t>(*Model->optinDynamicSharedMem, Gpu.arch.sharedMemPerBlockOptin);
        Value = ::occlint::computeOccupancyLimits(Gpu, Model->resources, Shape).blocksPerSM;
        How = Callee.str() + " with " + std::to_string(*Block) + " threads";
      }
    } else if (Callee == "cudaOccupancyMaxPotentialBlockSize") {
      std::optional<int64_t> Smem = Arg(3), Limit = Arg(4);
      if (Smem && Limit && *Limit >= 0 && *Limit <= INT32_MAX) {
        ::occlint::BlockSizeSearchInputs Inputs;
        Inputs.dynamicSharedMem = *Smem;
        Inputs.blockSizeLimit = int(*Limit);
        if (Model->optinDynamicSharedMem)
          Inputs.optinDynamicSharedMem =
              std::min<int64_t>(*Model->optinDynamicSharedMem, Gpu.arch.sharedMemPerBlockOptin);
        ::occlint::BlockSizeSearchResult R = ::occlint::maxPotentialBlockSize(Gpu, Model->resources, Inputs);
        if (R.error.empty()) {
          const bool IsBlock = Call->getNumArgs() > 1 && [&] {
            const auto *U = dyn_cast<UnaryOperator>(Call->getArg(1)->IgnoreParenImpCasts());
            const auto *Ref = U ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()) : nullptr;
            return Ref && Ref->getDecl() == &VD;
          }();
          Value = IsBlock ? R.blockSize : R.minGridSize;
          How = Callee.str();
        }
      }
    }
  }
  if (!Value) {
    recordReason(Name + " is read from the device in a way occlint does not model");
    return unknownOf(UseType, Name.substr(1, Name.size() - 2));
  }
  IVal R = castTo(exactOf(*Value), UseType);
  R.derivation.push_back({SM.getExpansionLoc(Call->getBeginLoc()),
                          Name + " is " + std::to_string(*Value) + On + " (" + How +
                              (Global ? ", filled here; assumed filled before it is read)" : ")")});
  return R;
}

// The one write of a global, `G = X` where X reads a local filled by
// cudaGetDeviceProperties (a field) or cudaDeviceGetAttribute; every other
// use of G in the translation unit reads it; its initializer, if any, is a
// constant (the value before the setup runs).
const ValueEvaluator::Cache::GlobalDeviceWrite &ValueEvaluatorImpl::globalDeviceWrite(const VarDecl &VD) {
  auto Known = C.globalDeviceWrites.find(&VD);
  if (Known != C.globalDeviceWrites.end())
    return Known->second;
  const BinaryOperator *Write = nullptr;
  bool Valid = !VD.getType()->isReferenceType() && !VD.getType().isVolatileQualified();
  const VarDecl *Def = &VD;
  if (const Expr *Init = VD.getAnyInitializer(Def); Init && !fold(Init))
    Valid = false;
  if (Valid) {
    References Refs(VD);
    Refs.traverseDecl(Ctx.getTranslationUnitDecl());
    for (const References::Found &Found : Refs.All) {
      const DeclRefExpr *Ref = Found.ref;
      const Stmt *Parent = AncestorWalk(Found).parent();
      if (isRead(Parent))
        continue;
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
      if (!Assign || Assign->getOpcode() != BO_Assign || Assign->getLHS()->IgnoreParens() != Ref || Write) {
        Valid = false;
        break;
      }
      Write = Assign;
    }
  }
  // What is written: a field of a cudaGetDeviceProperties result (its
  // name), or a cudaDeviceGetAttribute result (the attribute's name).
  ValueEvaluator::Cache::GlobalDeviceWrite Result;
  if (Valid && Write) {
    const Expr *Value = Write->getRHS()->IgnoreParenImpCasts();
    const auto *Member = dyn_cast<MemberExpr>(Value);
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Member && !Member->isArrow() ? Member->getBase()->IgnoreParenImpCasts() : Value);
    const auto *Local = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const CallExpr *Filler = Local ? deviceQueryFiller(*Local) : nullptr;
    const StringRef Callee = Filler ? Filler->getDirectCallee()->getName() : "";
    if (Filler && Member && Callee.starts_with("cudaGetDeviceProperties")) {
      Result = {Write, Member->getMemberDecl()->getName().str()};
    } else if (Filler && !Member && Callee == "cudaDeviceGetAttribute" && Filler->getNumArgs() >= 2) {
      if (const auto *Attr = dyn_cast<DeclRefExpr>(Filler->getArg(1)->IgnoreParenImpCasts()))
        Result = {Write, Attr->getDecl()->getName().str()};
    }
  }
  return C.globalDeviceWrites[&VD] = std::move(Result);
}

std::optional<IVal> ValueEvaluatorImpl::globalDeviceValue(const VarDecl &VD, QualType UseType) {
  const auto &[Write, What] = globalDeviceWrite(VD);
  if (!Write)
    return std::nullopt;
  const std::string Name = "'" + VD.getName().str() + "'";
  // Per target, and never into a cache shared by every target: a variable
  // of a function outside the launch's frames is read without one.
  if (Frame == NoFrame || !Context.target) {
    if (Trace)
      Trace->needsTarget = true;
    recordReason(Name + " is set from the device at " + where(Write->getBeginLoc()) + ": known per target GPU");
    return unknownOf(UseType, VD.getName().str());
  }
  const ::occlint::TargetGpu &Gpu = *Context.target;
  const std::optional<int64_t> Device = deviceValue(What, Gpu);
  if (!Device) {
    recordReason(Name + " is set from the device in a way occlint does not model");
    return unknownOf(UseType, VD.getName().str());
  }
  IVal R = castTo(exactOf(*Device), UseType);
  R.derivation.push_back({SM.getExpansionLoc(Write->getBeginLoc()), Name + " is " + std::to_string(*Device) +
                                                                        onTarget(Gpu) + " (" + What +
                                                                        ", set here; assumed set before it is read)"});
  return R;
}

} // namespace clang::tidy::occlint
