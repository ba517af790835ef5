// What the page of `occlint report` shows, computed once from a lint run
// (LintResult: the facts records and the diagnostics) and written by both
// writers (tool/report/ReportHtml.h, tool/report/ReportMarkdown.h) as they are: every cell
// is text here, so the HTML and the Markdown pages say the same.
// docs/report.md documents each column.
#pragma once

#include "lint/LintPipeline.h"
#include "report/ReportRanking.h"
#include "report/ReportStaircase.h"
#include "report/ReportWeights.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct ReportFinding {
  std::string check;    // "cuda-launch-tiny-grid"
  std::string severity; // "error", "warning", "remark"
  std::string message;
  std::string location; // "src/a.cu:12:5", relative to the page's base directory
  bool isNew = false;   // --baseline: not in the saved run
};

/// A launch finding with its estimated loss (ReportRanking.h), for "Where to start".
struct ReportRankedFinding {
  ReportFinding finding;
  std::string kernel, gpu; // the launch's
  FindingLoss loss;
  /// --weights: the kernel's share of the runtime; nullopt when it is not in
  /// the file (or there is no file).
  std::optional<double> share;
  LaunchWeight weight; // the launch's size: the order without --weights
};

/// A finding the precedence table made moot on a launch (docs/launch-analysis.md).
struct ReportMootFinding {
  std::string check;        // "cuda-occupancy-block-cap"
  std::string suppressedBy; // "cuda-launch-tiny-grid"
  std::string reason;
};

/// A launch on one target GPU.
struct ReportLaunchRow {
  std::string location;                 // "src/a.cu:12"
  std::string kernel;                   // "reduce<256>"
  std::string launchKind;               // "<<<>>>", "cudaLaunchKernel", ...
  std::string caller;                   // the function it is written in
  std::string gpu;                      // "H100 SXM (sm_90, 132 SMs)"
  std::string gpuName, gpuDetail;       // "H100 SXM", "sm_90, 132 SMs"
  std::string sharedMemory;             // "1024 + 4096 B" (static + dynamic)
  std::string block, grid;              // "16x16 (256)", "1024", "unknown"
  std::string occupancy;                // "50.0%", "≤ 50.0%" (registers unknown), "cannot launch", "unknown"
  std::optional<double> occupancyValue; // [0,1] when computed and the launch can start
  bool occupancyUpperBound = false;     // registers unknown
  bool cannotLaunch = false;
  std::string limits;                  // "registers, shared memory", or why it cannot launch / is unknown
  std::string limitsDetail;            // the engine's reason when it cannot launch, "" otherwise
  std::string waves;                   // "2.30 (2 full + tail of 40 blocks)", "" without a grid
  std::vector<ReportFinding> findings; // the top-level diagnostics at the launch's line
  std::vector<ReportMootFinding> moot; // shown folded under the findings
  int staircase = -1;                  // index into ReportModel::staircases, -1 when none
};

/// A kernel on one arch, with its launches (on every target GPU of that arch).
struct ReportKernelRow {
  std::string location;  // the definition, "src/a.cu:3"; "" when not in the linted files
  std::string kernel;    // "" for launches whose kernel is not known
  std::string arch;      // "sm_90"
  std::string registers; // "40", "unknown (estimate)"
  bool registersEstimated = false;
  std::string resourceSource;          // "ptxas, sm_90" or "estimate: ..."
  std::string sharedMemory;            // "1024 B static"
  std::string spills;                  // "none", "16 B stores, 16 B loads", "unknown"
  std::vector<ReportFinding> findings; // the top-level diagnostics at the kernel's line
  std::vector<ReportLaunchRow> launches;
};

/// One launch configuration of one kernel on one GPU, and its staircases.
struct ReportStaircaseGroup {
  std::string anchor; // "staircase-3", an HTML id
  std::string kernel, gpu;
  std::string configuration; // "block 256, 0 B dynamic shared memory, 40 registers"
  std::vector<std::string> launchLocations;
  std::string occupancy; // as in the table
  std::string failure;   // why it cannot launch, "" when it can
  bool registersKnown = true;
  LaunchStaircases charts;
};

struct ReportModel {
  std::string input;         // what was linted: "-p build" or the files
  std::string baseDirectory; // locations are relative to it
  size_t files = 0, translationUnits = 0, kernelCount = 0, launchCount = 0;
  bool sourceOnly = false;
  std::vector<std::string> resourceSources; // "src/a.cu, sm_90: ptxas report ..." per parse
  std::map<std::string, size_t> findingsBySeverity;
  std::vector<ReportKernelRow> kernels;
  std::vector<ReportFinding> otherFindings;      // diagnostics at no kernel's or launch's line
  std::vector<ReportRankedFinding> ranked;       // the launches' findings (not remarks), costliest first
  std::string weightsFile;                       // --weights, "" without
  std::map<std::string, size_t> findingsByCheck; // every finding but the remarks
  /// --baseline: the saved file, how many findings are new, and the saved
  /// findings no longer found. baselineFile "" when there is no baseline.
  std::string baselineFile;
  size_t newFindings = 0;
  std::vector<ReportFinding> fixedSinceBaseline;
  std::vector<ReportStaircaseGroup> staircases;
  bool allStaircases = false; // every launch's (--all-staircases), else those with a finding
};

struct ReportOptions {
  /// Staircases for every launch with a computed occupancy; by default only
  /// for the launches with a finding (the page stays small on big projects).
  bool allStaircases = false;
  /// --weights: each finding's loss times its kernel's share of the runtime.
  const KernelWeights *weights = nullptr;
};

ReportModel buildReportModel(const LintResult &Result, std::string InputDescription, ReportOptions Options = {});

/// What the order of "Where to start" means, one paragraph (HTML and Markdown).
std::string reportRankingNote(const ReportModel &Model);

/// A ranked finding's loss as the page shows it: describeLoss, and with
/// --weights its kernel's share of the runtime and the product.
std::string reportLossText(const ReportModel &Model, const ReportRankedFinding &R);

/// "50.0%" (one decimal, as the checks print it).
std::string reportPercent(double Fraction);
/// "4096 B", "48 KiB" for whole KiB.
std::string reportBytes(int64_t Bytes);

} // namespace occlint
