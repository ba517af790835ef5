#include "report/ReportMarkdown.h"

#include <string_view>

namespace occlint {

std::string escapeMarkdown(const std::string &Text) {
  // ( ) # + ! matter only after ] or at the start of a line, which cannot happen here.
  static constexpr std::string_view Special = "\\`*_[]<>|~&";
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    if (C == '\n' || C == '\r') {
      Out += ' ';
      continue;
    }
    if (Special.find(C) != std::string_view::npos)
      Out += '\\';
    Out += C;
  }
  return Out;
}

namespace {

// A code span for a cell: backticks cannot occur inside, pipes are escaped (GFM tables).
std::string code(const std::string &Text) {
  if (Text.empty())
    return "";
  std::string Out = "`";
  for (char C : Text) {
    if (C == '`')
      Out += '\'';
    else if (C == '|')
      Out += "\\|";
    else if (C == '\n')
      Out += ' ';
    else
      Out += C;
  }
  return Out + "`";
}

class MarkdownPage {
public:
  MarkdownPage(const ReportModel &Model, llvm::raw_ostream &OS) : Model(Model), OS(OS) {}

  void write() {
    header();
    whereToStart();
    table();
    otherFindings();
    fixedSinceBaseline();
    staircases();
    sources();
  }

private:
  static std::string m(const std::string &Text) { return escapeMarkdown(Text); }

  void header() {
    OS << "# occlint report\n\n" << m(Model.input);
    if (!Model.baseDirectory.empty())
      OS << " — paths relative to " << code(Model.baseDirectory);
    OS << "\n\n";
    auto Count = [](size_t N, const std::string &One, const std::string &Many) {
      return std::to_string(N) + " " + (N == 1 ? One : Many);
    };
    auto Severity = [&](const char *Name) {
      auto It = Model.findingsBySeverity.find(Name);
      const size_t N = It == Model.findingsBySeverity.end() ? 0 : It->second;
      return Count(N, Name, std::string(Name) + "s");
    };
    OS << Count(Model.files, "file", "files") << " · "
       << Count(Model.translationUnits, "translation unit", "translation units") << " · "
       << Count(Model.kernelCount, "kernel", "kernels") << " · " << Count(Model.launchCount, "launch", "launches")
       << " · " << Severity("error") << " · " << Severity("warning") << " · " << Severity("remark") << "\n\n";
    if (!Model.baselineFile.empty())
      OS << "Against the baseline " << code(Model.baselineFile) << ": **" << Model.newFindings << "** new, **"
         << Model.fixedSinceBaseline.size() << "** fixed.\n\n";
    if (Model.sourceOnly)
      OS << "Source-only mode: no CUDA toolkit was found, so no kernel's registers are known; occupancies are "
            "upper bounds (≤).\n\n";
  }

  static std::string findings(const std::vector<ReportFinding> &Findings) {
    std::string Out;
    for (const ReportFinding &F : Findings)
      Out += std::string(Out.empty() ? "" : "; ") + (F.isNew ? "**new** " : "") + code(F.check) + " " +
             (F.severity == "warning" ? "" : F.severity + ": ") + escapeMarkdown(F.message);
    return Out;
  }

  // The findings the precedence table made moot, folded: GitHub renders the
  // <details> element in a table cell.
  static std::string moot(const std::vector<ReportMootFinding> &Moot) {
    if (Moot.empty())
      return "";
    std::string Summary, Items;
    for (const ReportMootFinding &M : Moot) {
      Summary += (Summary.empty() ? "" : ", ") + code(M.check);
      Items += "<br>" + code(M.check) + " suppressed by " + code(M.suppressedBy) + ": " + escapeMarkdown(M.reason);
    }
    return "<details><summary>" + std::to_string(Moot.size()) + " finding" + (Moot.size() == 1 ? "" : "s") +
           " moot: " + Summary + "</summary>" + Items.substr(4) + "</details>";
  }

  void table() {
    OS << "## Kernels and launches\n\n";
    if (Model.kernels.empty()) {
      OS << "No kernels or launches were found (the facts are recorded when a check on launches or kernels is "
            "enabled).\n\n";
      return;
    }
    OS << "| Location | Kernel | Arch / GPU | Registers | Shared memory (static + dynamic) | Spills | Block | Grid "
          "| Occupancy | Limited by | Waves | Findings |\n"
       << "|---|---|---|--:|--:|--:|--:|--:|--:|---|---|---|\n";
    for (const ReportKernelRow &K : Model.kernels) {
      OS << "| " << code(K.location) << " | **" << code(K.kernel.empty() ? "(unknown kernel)" : K.kernel) << "** | "
         << m(K.arch) << " | " << (K.registersEstimated ? "*" + m(K.registers) + "*" : m(K.registers)) << " | "
         << m(K.sharedMemory) << " | " << m(K.spills) << " |  |  |  |  |  | " << findings(K.findings) << " |\n";
      for (const ReportLaunchRow &L : K.launches) {
        OS << "| ↳ " << code(L.location) << " | " << code(L.kernel) << " (" << code(L.launchKind)
           << (L.caller.empty() ? "" : " in " + code(L.caller)) << ") | " << m(L.gpu) << " |  | " << m(L.sharedMemory)
           << " |  | " << code(L.block) << " | " << code(L.grid) << " | "
           << (L.cannotLaunch ? "**" + m(L.occupancy) + "**" : m(L.occupancy)) << " | "
           << m(L.limitsDetail.empty() ? L.limits : L.limits + ": " + L.limitsDetail) << " | " << m(L.waves) << " | "
           << findings(L.findings) << (L.findings.empty() || L.moot.empty() ? "" : " ") << moot(L.moot) << " |\n";
      }
    }
    OS << "\n";
    OS << "*unknown (estimate)*: no ptxas report for the kernel (source-only mode, --no-compile, or none in the "
          "--ptxas-log files); its occupancy is then an upper bound, marked ≤.\n\n";
  }

  void otherFindings() {
    if (Model.otherFindings.empty())
      return;
    OS << "## Other findings\n\n| Location | Severity | Check | Message |\n|---|---|---|---|\n";
    for (const ReportFinding &F : Model.otherFindings)
      OS << "| " << code(F.location) << " | " << m(F.severity) << " | " << (F.isNew ? "**new** " : "") << code(F.check)
         << " | " << m(F.message) << " |\n";
    OS << "\n";
  }

  // The launches' findings, costliest first (ReportRanking.h), then the
  // count of every finding by check.
  void whereToStart() {
    if (Model.findingsByCheck.empty())
      return;
    OS << "## Where to start\n\n";
    if (!Model.ranked.empty()) {
      OS << m(reportRankingNote(Model))
         << "\n\n| # | Estimated loss (of the launch) | Launch size | Finding | Launch |\n|---|---|---|---|---|\n";
      for (size_t I = 0; I < Model.ranked.size(); ++I) {
        const ReportRankedFinding &R = Model.ranked[I];
        OS << "| " << I + 1 << " | " << m(reportLossText(Model, R)) << " | " << m(describeLaunchWeight(R.weight))
           << " | " << (R.finding.isNew ? "**new** " : "") << code(R.finding.check) << " " << m(R.finding.message)
           << " | " << code(R.kernel) << " at " << code(R.finding.location) << ", " << m(R.gpu) << " |\n";
      }
      OS << "\n";
    }
    OS << "Findings by check: ";
    bool First = true;
    for (const auto &[Check, Count] : Model.findingsByCheck) {
      OS << (First ? "" : ", ") << code(Check) << " " << Count;
      First = false;
    }
    OS << "\n\n";
  }

  // --baseline: the saved findings no longer found.
  void fixedSinceBaseline() {
    if (Model.baselineFile.empty())
      return;
    OS << "## Fixed since the baseline\n\n";
    if (Model.fixedSinceBaseline.empty()) {
      OS << "None of the findings of " << code(Model.baselineFile) << " is fixed.\n\n";
      return;
    }
    OS << "| Location (then) | Severity | Check | Message |\n|---|---|---|---|\n";
    for (const ReportFinding &F : Model.fixedSinceBaseline)
      OS << "| " << code(F.location) << " | " << m(F.severity) << " | " << code(F.check) << " | " << m(F.message)
         << " |\n";
    OS << "\n";
  }

  static std::string xText(StaircaseAxis Axis, int64_t X) {
    return Axis == StaircaseAxis::SharedMemory ? reportBytes(X) : std::to_string(X);
  }

  static std::string level(const StaircasePoint &P) {
    return P.launches ? reportPercent(P.occupancy) : std::string("cannot launch");
  }

  void staircase(const Staircase &S) {
    const char *Name = S.axis == StaircaseAxis::Registers        ? "registers per thread"
                       : S.axis == StaircaseAxis::BlockSize      ? "threads per block"
                       : S.axis == StaircaseAxis::PipelineStages ? "async-copy stages"
                                                                 : "shared memory per block";
    OS << "- " << Name << ": ";
    const std::vector<StaircaseRun> Runs = S.runs();
    for (size_t I = 0; I < Runs.size(); ++I)
      OS << (I ? " · " : "") << "≤ " << xText(S.axis, Runs[I].to) << ": "
         << (Runs[I].launches ? reportPercent(Runs[I].occupancy) : std::string("cannot launch"));
    OS << "\n  - this launch: ";
    if (S.current)
      OS << xText(S.axis, S.current->x) << " → " << level(*S.current);
    else
      OS << "registers unknown";
    if (S.nextStep)
      OS << "; next step: " << xText(S.axis, S.nextStep->x) << " → " << level(*S.nextStep) << " (" << m(S.nextStepText)
         << ")";
    if (S.optinAbove)
      OS << "; above " << reportBytes(*S.optinAbove)
         << " the launch needs (more) cudaFuncAttributeMaxDynamicSharedMemorySize";
    OS << "\n";
  }

  void staircases() {
    OS << "## Occupancy staircases\n\n";
    if (Model.staircases.empty()) {
      OS << "No launch " << (Model.allStaircases ? "" : "with a finding ")
         << "has a computed occupancy (its block size and dynamic shared memory must be constants and its kernel "
            "known)."
         << (Model.allStaircases ? "" : " `--all-staircases`: every launch's.") << "\n\n";
      return;
    }
    if (!Model.allStaircases)
      OS << "For the launches with a finding (`--all-staircases`: every launch).\n\n";
    OS << "Each line varies one resource of the launch and keeps the others as they are; `≤ X: Y` means up to X "
          "(from the previous step's X) the occupancy is Y.\n\n";
    size_t Number = 0;
    for (const ReportStaircaseGroup &G : Model.staircases) {
      OS << "### " << ++Number << ". " << code(G.kernel) << " on " << m(G.gpu) << "\n\n"
         << m(G.configuration) << ": **" << m(G.occupancy) << "**";
      if (!G.failure.empty())
        OS << " (" << m(G.failure) << ")";
      OS << "; launched at ";
      for (size_t I = 0; I < G.launchLocations.size(); ++I)
        OS << (I ? ", " : "") << code(G.launchLocations[I]);
      OS << "\n\n";
      staircase(G.charts.registers);
      staircase(G.charts.blockSize);
      staircase(G.charts.sharedMemory);
      if (G.charts.pipelineStages)
        staircase(*G.charts.pipelineStages);
      OS << "\n";
    }
  }

  void sources() {
    if (Model.resourceSources.empty())
      return;
    OS << "## Where the resources come from\n\n";
    for (const std::string &S : Model.resourceSources)
      OS << "- " << m(S) << "\n";
    OS << "\n";
  }

  const ReportModel &Model;
  llvm::raw_ostream &OS;
};

} // namespace

void writeReportMarkdown(const ReportModel &Model, llvm::raw_ostream &OS) { MarkdownPage(Model, OS).write(); }

} // namespace occlint
