#include "lint/UnitResultCache.h"
#include "OcclintVersion.h"

#include "toolchain/ResultCache.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/FileSystem.h"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstring>

using nlohmann::json;

namespace occlint {

namespace {

// The GNU build id of a loaded object, as hex; "" when it has none.
std::string buildIdOf(const dl_phdr_info &Object) {
  for (int I = 0; I < Object.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Object.dlpi_phdr[I];
    if (Segment.p_type != PT_NOTE)
      continue;
    const char *At = reinterpret_cast<const char *>(Object.dlpi_addr + Segment.p_vaddr);
    const char *End = At + Segment.p_memsz;
    while (At + sizeof(ElfW(Nhdr)) <= End) {
      const auto *Note = reinterpret_cast<const ElfW(Nhdr) *>(At);
      const char *Name = At + sizeof(ElfW(Nhdr));
      const char *Desc = Name + ((Note->n_namesz + 3) & ~3u);
      if (Note->n_type == NT_GNU_BUILD_ID && Note->n_namesz == 4 && std::memcmp(Name, "GNU", 4) == 0 &&
          Desc + Note->n_descsz <= End) {
        static const char Hex[] = "0123456789abcdef";
        std::string Id;
        for (unsigned B = 0; B < Note->n_descsz; ++B) {
          Id += Hex[static_cast<unsigned char>(Desc[B]) >> 4];
          Id += Hex[static_cast<unsigned char>(Desc[B]) & 15];
        }
        return Id;
      }
      At = Desc + ((Note->n_descsz + 3) & ~3u);
    }
  }
  return "";
}

} // namespace

const std::string &occlintIdentity() {
  static const std::string Identity = [] {
    std::string Text = std::string("occlint ") + OCCLINT_VERSION + "\n";
    // The executable itself, hashed whole (a few megabytes): a rebuild with
    // another analysis is another identity even where the version is not.
    std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    std::optional<uint64_t> Hash = hashFileContents(Exe);
    Text += "executable " + (Hash ? hashHex(*Hash) : std::string("unreadable")) + "\n";
    // Each shared library by its build id (LLVM's and Clang's are hundreds
    // of megabytes), by its size and time where it has none.
    dl_iterate_phdr(
        [](dl_phdr_info *Object, size_t, void *Out) {
          std::string &Text = *static_cast<std::string *>(Out);
          if (!Object->dlpi_name || !*Object->dlpi_name)
            return 0; // the executable, hashed above
          std::string Id = buildIdOf(*Object);
          if (Id.empty()) {
            llvm::sys::fs::file_status Status;
            if (!llvm::sys::fs::status(Object->dlpi_name, Status))
              Id = std::to_string(Status.getSize()) + "@" +
                   std::to_string(Status.getLastModificationTime().time_since_epoch().count());
          }
          Text += std::string("library ") + Object->dlpi_name + " " + Id + "\n";
          return 0;
        },
        &Text);
    return Text;
  }();
  return Identity;
}

std::string unitResultKey(const std::string &File, const std::vector<clang::tooling::CompileCommand> &Commands,
                          const std::string &Configuration, const std::string &RunSettings) {
  std::string Key = "occlint-unit-result 1\n" + occlintIdentity() + "settings " + RunSettings + "\nfile " + File + "\n";
  for (const clang::tooling::CompileCommand &C : Commands)
    Key += "command " + json({C.Directory, C.Filename, C.CommandLine}).dump() + "\n";
  return Key + "configuration\n" + Configuration;
}

std::string answerOf(const clang::tidy::occlint::ResourceReportLookup &Lookup) {
  // Whether the report came from occlint's cache of compiles is where it
  // came from, not what it says: "ptxas, sm_90, cached" answers as "ptxas,
  // sm_90" (ToolResourceReports writes the word).
  std::string Source = Lookup.source;
  for (size_t At; (At = Source.find(", cached")) != std::string::npos;)
    Source.erase(At, 8);
  json J = {{"source", Source}, {"origin", Lookup.origin}};
  J["maxRegisterCount"] = Lookup.maxRegisterCount ? json(*Lookup.maxRegisterCount) : json(nullptr);
  if (const ::occlint::PtxasReport *R = Lookup.report) {
    json Functions = json::array();
    for (const FunctionResources &F : R->functions) {
      json Banks = json::object();
      for (const auto &[Bank, Bytes] : F.constantBanks)
        Banks[std::to_string(Bank)] = Bytes;
      Functions.push_back({F.mangledName, F.displayName, F.arch, F.sourceFile, F.isEntry, F.registers,
                           F.registersReported, F.barriers, F.sharedMem, F.stackFrame, F.spillStores, F.spillLoads,
                           F.cumulativeStack ? json(*F.cumulativeStack) : json(nullptr), Banks, F.warnings});
    }
    J["functions"] = std::move(Functions);
    J["warnings"] = R->warnings;
  }
  return hashHex(fnv1a64(J.dump()));
}

std::string answerOf(std::optional<bool> NvccVerdict) {
  return NvccVerdict ? (*NvccVerdict ? "compiled" : "rejected") : "unknown";
}

void AnalysisInputs::add(const char *What, const std::string &File, const std::string &Arch,
                         const std::string &Answer) {
  std::lock_guard<std::mutex> Guard(Lock);
  json Use = {{"what", What}, {"file", File}, {"arch", Arch}, {"answer", Answer}};
  if (std::find(Uses.begin(), Uses.end(), Use) == Uses.end())
    Uses.push_back(std::move(Use));
}

json AnalysisInputs::take() {
  std::lock_guard<std::mutex> Guard(Lock);
  json Out = std::move(Uses);
  Uses = json::array();
  return Out;
}

clang::tidy::occlint::ResourceReportLookup RecordingReportSource::reportFor(llvm::StringRef MainFile,
                                                                            llvm::StringRef Arch) {
  clang::tidy::occlint::ResourceReportLookup Lookup = Inner.reportFor(MainFile, Arch);
  Inputs.add("report", MainFile.str(), Arch.str(), answerOf(Lookup));
  return Lookup;
}

std::optional<CachedResult> UnitResultCache::lookup(const std::string &Key,
                                                    const std::function<std::string(const json &Use)> &CurrentAnswer,
                                                    bool &Corrupt) const {
  Corrupt = false;
  std::optional<std::string> Payload = ResultCache(Directory).lookup(Key, &Corrupt);
  if (!Payload)
    return std::nullopt;
  try {
    const json Entry = json::parse(*Payload);
    for (const json &Use : Entry.at("uses"))
      if (CurrentAnswer(Use) != Use.at("answer").get<std::string>())
        return std::nullopt;
    return CachedResult{workerResultFromJson(Entry.at("result")), Entry.at("said").get<std::string>()};
  } catch (const std::exception &) {
    Corrupt = true;
    return std::nullopt;
  }
}

bool UnitResultCache::store(const std::string &Key, const std::vector<std::string> &FilesRead, const json &Uses,
                            const WorkerResult &Result, const std::string &Said, std::string &Error) const {
  WorkerResult Stored = Result;
  Stored.cache = nullptr;
  const json Entry = {{"uses", Uses}, {"result", workerResultToJson(Stored)}, {"said", Said}};
  return ResultCache(Directory).store(Key, FilesRead, Entry.dump(), &Error);
}

} // namespace occlint
