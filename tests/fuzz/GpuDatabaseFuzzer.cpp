// Fuzz target: the GPU database (gpu/GpuDatabase.h) and the values that name
// GPUs: --gpu and the `Targets` check option (lint/TargetsOption.h). The
// input, split at the first NUL byte:
//   1. a `Targets` value ("H100, sm_90:132; a100"), each name also resolved
//      as a --gpu value, in the built-in database and in the one below;
//   2. a GPU database as JSON (data/gpus.json's format).
#include "FuzzSupport.h"
#include "gpu/GpuDatabase.h"
#include "lint/TargetsOption.h"

#include <optional>
#include <stdexcept>

namespace {

void resolveAll(const occlint::GpuDatabase &Database, const std::vector<std::string> &Names) {
  for (const std::string &Name : Names) {
    std::string Error;
    Database.resolve(Name, Error);
    Database.findArch(Name);
    Database.findProduct(Name);
    Database.closeMatches(Name);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  const std::vector<std::string> Parts = fuzz::splitParts(fuzz::asText(Data, Size), 2);
  std::vector<std::string> Names = splitTargets(Parts[0]);
  Names.push_back(Parts[0]);
  resolveAll(GpuDatabase::builtin(), Names);
  std::string Error;
  archsOfGpus(Names, Error);
  if (Parts.size() > 1) {
    std::optional<GpuDatabase> Database;
    try {
      Database = GpuDatabase::fromJson(Parts[1]);
    } catch (const std::runtime_error &) {
      // A bad database: the one documented failure.
    }
    if (Database) {
      resolveAll(*Database, Names);
      for (const ArchLimits &Arch : Database->archs()) {
        std::string ArchError;
        Database->resolve(Arch.name, ArchError);
        Arch.sourceOf("regsPerSM");
      }
      for (const GpuProduct &Product : Database->products()) {
        std::string ProductError;
        Database->resolve(Product.name, ProductError);
      }
    }
  }
  return 0;
}
