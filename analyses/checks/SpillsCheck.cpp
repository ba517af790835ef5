#include "checks/SpillsCheck.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

SpillsCheck::SpillsCheck(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {}

void SpillsCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

// The registers per thread ptxas may use under __launch_bounds__(MaxThreads,
// MinBlocks): MinBlocks blocks of MaxThreads threads must fit the register
// file, allocated per warp in units of regAllocUnit.
static int launchBoundsRegisterCap(const ::occlint::ArchLimits &Arch, int64_t MaxThreads, int64_t MinBlocks) {
  if (MaxThreads <= 0 || MinBlocks <= 0 || Arch.regAllocUnit <= 0)
    return 0;
  const int64_t Warps = (MaxThreads + Arch.warpSize - 1) / Arch.warpSize;
  const int64_t PerWarp = Arch.regsPerSM / (Warps * MinBlocks);
  const int64_t Allocatable = PerWarp / Arch.regAllocUnit * Arch.regAllocUnit;
  return int(std::min<int64_t>(Allocatable / Arch.warpSize, ::occlint::kMaxRegistersPerThread));
}

void SpillsCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  remarkMissingResources(Facts, Ctx, "spills");
  for (const auto &Kernel : Facts.kernels) {
    const KernelResourceFacts *Res = Facts.resourcesFor(*Kernel);
    if (!Res || !Res->report || (Res->report->spillStores == 0 && Res->report->spillLoads == 0))
      continue;
    const ::occlint::FunctionResources &R = *Res->report;
    // What forced the register count down, if anything: a cap below the 255
    // registers a thread can address (one at or above it forces nothing:
    // __launch_bounds__(128, 1) leaves 512 to the register file).
    std::string Cause;
    auto Forces = [](int64_t Cap) { return Cap < ::occlint::kMaxRegistersPerThread; };
    SourceLocation CauseLoc;
    const ::occlint::ArchLimits *Arch = ::occlint::GpuDatabase::builtin().findArch(Facts.arch);
    if (Kernel->maxRegisters && R.registers <= *Kernel->maxRegisters && Forces(*Kernel->maxRegisters)) {
      Cause = llvm::formatv("__maxnreg__({0})", *Kernel->maxRegisters).str();
      CauseLoc = Kernel->maxRegistersLoc;
    } else if (const int BoundsCap = Kernel->launchBoundsMaxThreads && Arch
                                         ? launchBoundsRegisterCap(*Arch, *Kernel->launchBoundsMaxThreads,
                                                                   Kernel->launchBoundsMinBlocks.value_or(1))
                                         : 0;
               BoundsCap > 0 && R.registers <= BoundsCap && Forces(BoundsCap)) {
      Cause = llvm::formatv("__launch_bounds__({0}{1}), which leaves at most {2} registers per thread",
                            *Kernel->launchBoundsMaxThreads,
                            Kernel->launchBoundsMinBlocks ? ", " + std::to_string(*Kernel->launchBoundsMinBlocks)
                                                          : std::string(),
                            BoundsCap)
                  .str();
      CauseLoc = Kernel->launchBoundsLoc;
    } else if (Facts.maxRegisterCount && R.registers <= *Facts.maxRegisterCount && Forces(*Facts.maxRegisterCount)) {
      Cause = llvm::formatv("-maxrregcount={0} in the compile command", *Facts.maxRegisterCount).str();
    }
    if (Cause.empty()) {
      diag(Kernel->decl->getLocation(), "'%0' spills registers on %1: %2 bytes of spill stores and %3 bytes of "
                                        "spill loads per thread (%4 registers, %5)")
          << Kernel->displayName << R.arch << static_cast<unsigned>(R.spillStores)
          << static_cast<unsigned>(R.spillLoads) << R.registers << Res->source;
      continue;
    }
    diag(Kernel->decl->getLocation(), "'%0' spills registers on %1 because its register count is forced down "
                                      "to %2 by %3: %4 bytes of spill stores and %5 bytes of spill loads per "
                                      "thread (%6)")
        << Kernel->displayName << R.arch << R.registers << Cause << static_cast<unsigned>(R.spillStores)
        << static_cast<unsigned>(R.spillLoads) << Res->source;
    if (CauseLoc.isValid())
      diag(CauseLoc,
           "the register limit comes from here; kernels forced from 80 and 128 to 64 registers "
           "this way ran 5.5x and 14.8x slower on an H200 than unconstrained",
           DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::occlint
