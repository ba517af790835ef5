#include "facts/TargetSelection.h"

#include "facts/RunContext.h"

#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/TargetParser/Triple.h"

namespace clang::tidy::occlint {

static std::string nvptxCpu(const TargetInfo *Target) {
  if (!Target || !Target->getTriple().isNVPTX())
    return "";
  return Target->getTargetOpts().CPU;
}

std::string deviceArchOf(const ASTContext &Ctx) {
  if (!parseContext().arch.empty())
    return parseContext().arch;
  std::string Arch = nvptxCpu(&Ctx.getTargetInfo());
  if (Arch.empty())
    Arch = nvptxCpu(Ctx.getAuxTargetInfo());
  return Arch;
}

// "sm_90a" -> "sm_90", "sm_100f" -> "sm_100": the limits are the base arch's.
static llvm::StringRef baseArch(llvm::StringRef Arch) {
  if (!Arch.empty() && std::isalpha(static_cast<unsigned char>(Arch.back())) && Arch.size() > 3)
    return Arch.drop_back();
  return Arch;
}

std::vector<llvm::StringRef> splitOptionList(llvm::StringRef List) {
  std::vector<llvm::StringRef> Items;
  while (!List.empty()) {
    const size_t End = List.find_first_of(",;");
    llvm::StringRef Item = List.substr(0, End).trim();
    if (!Item.empty())
      Items.push_back(Item);
    if (End == llvm::StringRef::npos)
      break;
    List = List.substr(End + 1);
  }
  return Items;
}

TargetSelection selectTargets(llvm::StringRef Targets, llvm::StringRef Arch) {
  TargetSelection Out;
  const ::occlint::GpuDatabase &Database = ::occlint::GpuDatabase::builtin();
  const llvm::StringRef Base = baseArch(Arch);
  bool AnyNamed = false;
  for (llvm::StringRef Name : splitOptionList(Targets)) {
    AnyNamed = true;
    std::string Error;
    std::optional<::occlint::TargetGpu> Gpu = Database.resolve(Name.str(), Error);
    if (!Gpu) {
      Out.error = "Targets: " + Error;
      continue;
    }
    if (Gpu->arch.name == Base)
      Out.gpus.push_back(*Gpu);
  }
  if (AnyNamed || Base.empty())
    return Out;
  std::string Error;
  if (std::optional<::occlint::TargetGpu> Gpu = Database.resolve(Base.str(), Error))
    Out.gpus.push_back(*Gpu);
  return Out;
}

} // namespace clang::tidy::occlint
