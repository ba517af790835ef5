#include "report/ReportHtml.h"

#include "report/HtmlEscape.h"
#include "report/ReportFilters.h"
#include "report/ReportSvg.h"

#include <cctype>
#include <map>
#include <string_view>
#include <vector>

namespace occlint {

namespace {

const char *const Style = R"(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.input { color: #57606a; margin: 0 0 12px; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; padding: 0; list-style: none; }
.summary li { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 4px 10px; }
.summary b { font-size: 16px; }
.note { color: #57606a; font-size: 13px; }
form.filters { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 4px 0 10px; font-size: 13px; }
form.filters[hidden] { display: none; }
tbody.folded { display: none; }
tr.file td { background: #eaeef2; font-weight: 600; }
button.file-toggle { border: 1px solid #d0d7de; background: #fff; border-radius: 4px; cursor: pointer; padding: 0 6px; }
.new { background: #cf222e; color: #fff; border-radius: 8px; padding: 0 6px; font-size: 11px; font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
table code, table .mono { font-size: 12px; }
th, td { border-bottom: 1px solid #d8dee4; padding: 4px 6px; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; } /* long kernel names break rather than widen the page */
/* Paths and expressions break only where they are written to (<wbr> after a
   '/', a ',' or an operator), never inside a name: at their widest segment. */
td.location, td.expr { overflow-wrap: normal; word-break: normal; min-width: 7ch; }
th { position: sticky; top: 0; background: #eaeef2; white-space: nowrap; }
tr.kernel td { background: #f3f6fb; border-top: 2px solid #afb8c1; }
tr.kernel .kernel-name { font-weight: 600; }
tr.launch td.location { padding-left: 18px; }
td.num { text-align: right; white-space: nowrap; }
td.wrap, td.expr { white-space: normal; }
td.limits { max-width: 220px; overflow-wrap: anywhere; }
td.waves { min-width: 90px; }
td.gpu { min-width: 96px; }
td.occ a { display: block; }
.estimated { color: #9a6700; font-style: italic; }
.sub { color: #57606a; font-size: 12px; }
td.occ { min-width: 92px; white-space: nowrap; }
.bar { display: block; height: 4px; background: #eaeef2; border-radius: 2px; margin-top: 2px; }
.bar > span { display: block; height: 4px; border-radius: 2px; background: #2da44e; }
.bar.low > span { background: #cf222e; } .bar.mid > span { background: #d4a72c; }
.cannot { color: #cf222e; font-weight: 600; }
tr.findings-row td { border-top: none; padding-top: 0; }
tr.kernel + tr.findings-row td { background: #f3f6fb; }
ul.findings { margin: 0 0 2px 18px; padding-left: 16px; }
ul.findings li { margin: 0 0 2px; }
details.moot { margin: 0 0 2px 18px; color: #57606a; }
details.moot ul { margin: 2px 0 2px 0; padding-left: 16px; }
li.error code { color: #cf222e; } li.warning code { color: #9a6700; } li.remark code { color: #0969da; }
figure.group { margin: 14px 0 22px; border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 12px; }
figure.group figcaption { margin-bottom: 6px; }
.charts { display: flex; flex-wrap: wrap; gap: 8px; }
.charts svg { background: #fff; flex: 1 1 0; min-width: 280px; max-width: 420px; height: auto; }
ul.steps { margin: 6px 0 0; padding-left: 18px; font-size: 13px; }
)";

// After layout: how many charts there are, that each has a box, that the
// marked points exist and that each launch's point sits on its curve; how
// many launches have moot findings, and that those are folded (drawn as their
// summary alone until opened).
const char *const SelfCheck = R"(
(function () {
  var charts = document.querySelectorAll('svg.staircase');
  var facts = { groups: document.querySelectorAll('figure.group').length, charts: charts.length,
                chartsWithArea: 0, curves: 0, ownPoints: 0, nextPoints: 0, ownOnCurve: 0, launchRows: 0,
                mootGroups: 0, mootFolded: 0, mootItems: 0,
                chartsReused: 0 };
  facts.launchRows = document.querySelectorAll('tr.launch').length;
  facts.rankedRows = document.querySelectorAll('table.ranked tbody tr').length;
  facts.rankedLosses = Array.prototype.map.call(document.querySelectorAll('table.ranked tbody tr td:nth-child(2)'),
                                                function (td) { return td.textContent; });
  facts.rankedSizes = Array.prototype.map.call(document.querySelectorAll('table.ranked tbody tr td:nth-child(3)'),
                                               function (td) { return td.textContent; });
  facts.quietKernels = document.querySelectorAll('tr.quiet-kernel').length;
  facts.quietFolded = document.querySelectorAll('details.quiet-kernels:not([open])').length;
  // Every table within the page's width (the window's less its scroll bar),
  // and every location readable: broken only between words (after a '/',
  // '_', ':' or '-'), so on no more lines than it has words.
  var pageWidth = document.documentElement.clientWidth;
  facts.pageWidth = pageWidth;
  facts.widestTable = 0;
  facts.tablesTooWide = 0;
  document.querySelectorAll('table').forEach(function (t) {
    var box = t.getBoundingClientRect();
    if (box.width === 0) return; // folded away
    facts.widestTable = Math.max(facts.widestTable, Math.ceil(box.right));
    if (box.right > pageWidth + 0.5) facts.tablesTooWide++;
  });
  facts.locations = 0;
  facts.locationsBrokenInAName = 0;
  document.querySelectorAll('td.location').forEach(function (td) {
    if (td.getBoundingClientRect().width === 0) return;
    facts.locations++;
    var range = document.createRange();
    range.selectNodeContents(td);
    var tops = {};
    Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) tops[Math.round(r.top)] = 1; });
    var lines = Object.keys(tops).length;
    if (lines > td.textContent.split(/[\/_:-]/).length) facts.locationsBrokenInAName++;
  });
  facts.scrollWidth = document.documentElement.scrollWidth;
  facts.innerWidth = window.innerWidth;
  document.querySelectorAll('details.moot').forEach(function (d) {
    facts.mootGroups++;
    facts.mootItems += d.querySelectorAll('li').length;
    var summary = d.querySelector('summary');
    if (!d.open && summary &&
        d.getBoundingClientRect().height <= summary.getBoundingClientRect().height + 1) facts.mootFolded++;
  });
  charts.forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) facts.chartsWithArea++;
    // A chart drawn before refers to it.
    var use = svg.querySelector('use');
    if (use) { facts.chartsReused++; svg = document.querySelector(use.getAttribute('href')); }
    var curve = svg.querySelector('path.curve');
    if (curve && curve.getTotalLength() > 0) facts.curves++;
    var own = svg.querySelector('circle.point-own');
    if (own) {
      facts.ownPoints++;
      var p = svg.createSVGPoint();
      p.x = own.cx.baseVal.value; p.y = own.cy.baseVal.value;
      if (curve && (curve.isPointInStroke(p) || own.getAttribute('data-launches') === 'false')) facts.ownOnCurve++;
    }
    if (svg.querySelector('circle.point-next')) facts.nextPoints++;
  });
  // With #check-filters in the address (the tests): exercise the filters.
  if (location.hash === '#check-filters' && window.occlintFilter) {
    var visible = function () {
      return Array.prototype.filter.call(document.querySelectorAll('tr.launch'),
                                         function (r) { return r.getClientRects().length > 0; }).length;
    };
    var f = facts.filters = {};
    f.all = window.occlintFilter({}); f.allVisible = visible();
    f.tinyGrid = window.occlintFilter({ check: 'cuda-launch-tiny-grid' }); f.tinyGridVisible = visible();
    f.errors = window.occlintFilter({ severity: 'error' });
    f.nothing = window.occlintFilter({ text: 'no-such-text-anywhere' }); f.nothingVisible = visible();
    f.search = window.occlintFilter({ text: 'SAXPY' });
    f.reset = window.occlintFilter({}); f.resetVisible = visible();
    var toggle = document.querySelector('button.file-toggle');
    if (toggle) {
      toggle.click(); f.foldedVisible = visible();
      toggle.click(); f.unfoldedVisible = visible();
    }
    f.files = document.querySelectorAll('tbody.file-header').length;
  }
  document.documentElement.setAttribute('data-report-check', JSON.stringify(facts));
})();
)";

class HtmlPage {
public:
  HtmlPage(const ReportModel &Model, llvm::raw_ostream &OS) : Model(Model), OS(OS) {}

  void write() {
    OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>occlint report</title>\n<style>" << Style << "</style>\n</head>\n<body>\n";
    header();
    whereToStart();
    table();
    otherFindings();
    fixedSinceBaseline();
    staircases();
    sources();
    OS << "<script>" << FilterScript << "</script>\n<script>" << SelfCheck << "</script>\n</body>\n</html>\n";
  }

private:
  static std::string e(const std::string &Text) { return escapeHtml(Text); }
  /// A row's location under its file's header: "line 89" when it is in that
  /// file (the header names it), else the whole path; the whole location on
  /// hover either way.
  static std::string locationCell(const std::string &Location, const std::string &GroupFile) {
    std::string Shown = path(Location);
    if (!GroupFile.empty() && Location.starts_with(GroupFile + ":")) {
      const std::string Rest = Location.substr(GroupFile.size() + 1); // "89" or "89:3"
      Shown = "line " + e(Rest.substr(0, Rest.find(':')));
    }
    return "<td class=\"location mono\" title=\"" + e(Location) + "\">" + Shown + "</td>";
  }

  // Text escaped, with a break opportunity (<wbr>) after each character of
  // After and, with CamelWords, between the words of a camelCase name: a long
  // path or expression breaks between its words, never inside one.
  static std::string breakable(const std::string &Text, std::string_view After, bool CamelWords) {
    std::string Out;
    for (size_t I = 0; I < Text.size(); ++I) {
      const char C = Text[I];
      if (CamelWords && I > 0 && std::isupper(static_cast<unsigned char>(C)) &&
          std::islower(static_cast<unsigned char>(Text[I - 1])))
        Out += "<wbr>";
      Out += e(std::string(1, C));
      if (After.find(C) != std::string_view::npos)
        Out += "<wbr>";
    }
    return Out;
  }

  // A path that may break after a '/', '_', ':' or '-'.
  static std::string path(const std::string &Text) { return breakable(Text, "/_:-", /*CamelWords=*/false); }

  void header() {
    OS << "<header>\n<h1>occlint report</h1>\n<p class=\"input\">" << e(Model.input);
    if (!Model.baseDirectory.empty())
      OS << " &mdash; paths relative to <code>" << e(Model.baseDirectory) << "</code>";
    OS << "</p>\n<ul class=\"summary\">\n";
    auto Item = [&](size_t Count, const std::string &One, const std::string &Many) {
      OS << "<li><b>" << Count << "</b> " << e(Count == 1 ? One : Many) << "</li>\n";
    };
    Item(Model.files, "file", "files");
    Item(Model.translationUnits, "translation unit", "translation units");
    Item(Model.kernelCount, "kernel", "kernels");
    Item(Model.launchCount, "launch", "launches");
    for (const char *Severity : {"error", "warning", "remark"}) {
      auto It = Model.findingsBySeverity.find(Severity);
      const size_t Count = It == Model.findingsBySeverity.end() ? 0 : It->second;
      Item(Count, Severity, std::string(Severity) + "s");
    }
    OS << "</ul>\n";
    if (!Model.baselineFile.empty())
      OS << "<p class=\"baseline\">Against the baseline <code>" << e(Model.baselineFile) << "</code>: <b>"
         << Model.newFindings << "</b> new, <b>" << Model.fixedSinceBaseline.size()
         << "</b> fixed (<a href=\"#fixed\">below</a>).</p>\n";
    if (Model.sourceOnly)
      OS << "<p class=\"note\">Source-only mode: no CUDA toolkit was found, so no kernel's registers are known; "
            "occupancies are upper bounds (&le;).</p>\n";
    OS << "</header>\n";
  }

  // The findings at a row's line, in a row of their own under it (a column
  // would make the table too wide for the messages); the findings the
  // precedence table made moot on a launch follow, folded.
  void findingsRow(const std::vector<ReportFinding> &Findings, const std::vector<ReportMootFinding> &Moot = {}) {
    if (Findings.empty() && Moot.empty())
      return;
    OS << "<tr class=\"findings-row\"><td colspan=\"" << Columns << "\">";
    if (!Findings.empty()) {
      OS << "<ul class=\"findings\">";
      for (const ReportFinding &F : Findings)
        OS << "<li class=\"" << e(F.severity) << "\">" << newBadge(F) << "<code>" << e(F.check) << "</code> "
           << e(F.message) << "</li>";
      OS << "</ul>";
    }
    if (!Moot.empty()) {
      OS << "<details class=\"moot\"><summary>" << Moot.size() << " finding" << (Moot.size() == 1 ? "" : "s")
         << " moot: ";
      for (size_t I = 0; I < Moot.size(); ++I)
        OS << (I ? ", " : "") << "<code>" << e(Moot[I].check) << "</code>";
      OS << "</summary><ul>";
      for (const ReportMootFinding &M : Moot)
        OS << "<li><code>" << e(M.check) << "</code> suppressed by <code>" << e(M.suppressedBy)
           << "</code>: " << e(M.reason) << "</li>";
      OS << "</ul></details>";
    }
    OS << "</td></tr>\n";
  }

  // The kernels with no launch in the linted files and no finding, folded:
  // on a library of hundreds of kernels they would be most of the table.
  void quietKernels(const std::vector<const ReportKernelRow *> &Quiet) {
    if (Quiet.empty())
      return;
    OS << "<details class=\"quiet-kernels\"><summary>" << Quiet.size() << " kernel" << (Quiet.size() == 1 ? "" : "s")
       << " with no launch here and no finding</summary>\n<table>\n<thead><tr><th>Location</th><th>Kernel</th>"
       << "<th>Arch</th><th>Registers</th><th>Shared memory</th><th>Spills</th></tr></thead>\n<tbody>\n";
    for (const ReportKernelRow *K : Quiet)
      OS << "<tr class=\"quiet-kernel\"><td class=\"location mono\">" << path(K->location) << "</td><td class=\"mono\">"
         << e(K->kernel.empty() ? "(unknown kernel)" : K->kernel) << "</td><td class=\"mono\">" << e(K->arch)
         << "</td><td class=\"num\">" << e(K->registers) << "</td><td class=\"num\">" << e(K->sharedMemory)
         << "</td><td class=\"num\">" << e(K->spills) << "</td></tr>\n";
    OS << "</tbody>\n</table>\n</details>\n";
  }

  void occupancyCell(const ReportLaunchRow &L) {
    OS << "<td class=\"occ\">";
    if (L.cannotLaunch) {
      OS << "<span class=\"cannot\">" << e(L.occupancy) << "</span>";
    } else if (L.occupancyValue) {
      const double V = *L.occupancyValue;
      OS << e(L.occupancy) << "<span class=\"bar"
         << (V < 0.25  ? " low"
             : V < 0.5 ? " mid"
                       : "")
         << "\"><span style=\"width:" << int(V * 100 + 0.5) << "%\"></span></span>";
    } else {
      OS << "<span class=\"sub\">" << e(L.occupancy) << "</span>";
    }
    if (L.staircase >= 0)
      OS << "<a class=\"sub\" href=\"#" << e(Model.staircases[L.staircase].anchor) << "\">staircase</a>";
    OS << "</td>";
  }

  void table() {
    OS << "<section id=\"launches\">\n<h2>Kernels and launches</h2>\n";
    if (Model.kernels.empty()) {
      OS << "<p class=\"note\">No kernels or launches were found (the facts are recorded when a check on "
            "launches or kernels is enabled).</p>\n</section>\n";
      return;
    }
    writeFilterControls(Model, OS);
    OS << "<table>\n<thead><tr>"
       << "<th>Location</th><th>Kernel / launch</th><th>Arch / GPU</th><th>Registers</th>"
       << "<th>Shared memory<br><span class=\"sub\">static + dynamic</span></th><th>Spills</th>"
       << "<th>Block</th><th>Grid</th><th>Occupancy</th><th>Limited by</th><th>Waves</th>"
       << "</tr></thead>\n";
    std::vector<const ReportKernelRow *> Quiet;
    // The kernels of each file under a header row that folds them (kernels
    // come sorted by file).
    std::vector<const ReportKernelRow *> Shown;
    for (const ReportKernelRow &K : Model.kernels) {
      // A kernel with no launch and no finding is folded away below the table.
      if (K.launches.empty() && K.findings.empty())
        Quiet.push_back(&K);
      else
        Shown.push_back(&K);
    }
    std::string CurrentFile = "\x01"; // no file yet
    for (size_t Index = 0; Index < Shown.size(); ++Index) {
      const ReportKernelRow &K = *Shown[Index];
      const std::string File = kernelRowFile(K);
      if (File != CurrentFile) {
        CurrentFile = File;
        std::vector<const ReportKernelRow *> OfFile;
        for (size_t J = Index; J < Shown.size() && kernelRowFile(*Shown[J]) == File; ++J)
          OfFile.push_back(Shown[J]);
        writeFileHeader(File, OfFile, Columns, OS);
      }
      // One tbody per kernel: the filters hide a kernel with its launches.
      OS << "<tbody class=\"kernel-group\" data-file-group=\"" << e(File) << "\">\n<tr class=\"kernel\""
         << filterAttributes(K.location, "", K.findings, K.kernel + " " + K.arch) << ">"
         << locationCell(K.location, File) << "<td><span class=\"kernel-name mono\">"
         << e(K.kernel.empty() ? "(unknown kernel)" : K.kernel) << "</span></td><td class=\"mono\">" << e(K.arch)
         << "</td>"
         << "<td class=\"num wrap\" title=\"" << e(K.resourceSource) << "\">";
      if (K.registersEstimated)
        OS << "<span class=\"estimated\">" << e(K.registers) << "</span>";
      else
        OS << e(K.registers);
      OS << "</td><td class=\"num\">" << e(K.sharedMemory) << "</td><td class=\"num\">" << e(K.spills) << "</td>"
         << "<td></td><td></td><td></td><td></td><td></td></tr>\n";
      findingsRow(K.findings);
      for (const ReportLaunchRow &L : K.launches) {
        OS << "<tr class=\"launch\" data-kernel=\"" << e(L.kernel) << "\""
           << filterAttributes(L.location, L.gpuName, L.findings, L.kernel + " " + L.caller + " " + L.gpu) << ">"
           << locationCell(L.location, File) << "<td><span class=\"mono\">" << e(L.launchKind) << "</span>";
        if (!L.caller.empty())
          OS << " <span class=\"sub\">in " << e(L.caller) << "</span>";
        OS << "</td><td class=\"gpu\" title=\"" << e(L.gpu) << "\">" << e(L.gpuName) << "<br><span class=\"sub\">"
           << e(L.gpuDetail) << "</span></td><td></td>"
           << "<td class=\"num expr\">" << expression(L.sharedMemory, 40) << "</td><td></td>"
           << "<td class=\"num mono expr\">" << expression(L.block) << "</td><td class=\"mono expr\">"
           << expression(L.grid) << "</td>";
        occupancyCell(L);
        OS << "<td class=\"limits" << (L.cannotLaunch ? " cannot" : "") << "\"";
        if (!L.limitsDetail.empty())
          OS << " title=\"" << e(L.limitsDetail) << "\"";
        OS << ">" << e(L.limits) << "</td><td class=\"waves\">" << e(L.waves) << "</td></tr>\n";
        findingsRow(L.findings, L.moot);
      }
      OS << "</tbody>\n";
    }
    OS << "</table>\n";
    quietKernels(Quiet);
    OS << "<p class=\"note\"><span class=\"estimated\">unknown (estimate)</span>: no ptxas report for the kernel "
          "(source-only mode, --no-compile, or none in the --ptxas-log files); its occupancy is then an upper "
          "bound, marked &le;. The findings at a kernel's or a launch's line are listed under its row; the ones "
          "another finding of the launch makes moot (docs/launch-analysis.md) are folded below them.</p>\n"
          "</section>\n";
  }

  void otherFindings() {
    if (Model.otherFindings.empty())
      return;
    OS << "<section id=\"other-findings\">\n<h2>Other findings</h2>\n<table>\n<thead><tr><th>Location</th>"
       << "<th>Severity</th><th>Check</th><th>Message</th></tr></thead>\n<tbody>\n";
    for (const ReportFinding &F : Model.otherFindings)
      OS << "<tr><td class=\"mono\">" << e(F.location) << "</td><td>" << e(F.severity) << "</td><td>" << newBadge(F)
         << "<code>" << e(F.check) << "</code></td><td>" << e(F.message) << "</td></tr>\n";
    OS << "</tbody>\n</table>\n</section>\n";
  }

  // The launches' findings, costliest first (ReportRanking.h); the first
  // rows shown, the rest folded; then the count of every finding by check.
  void whereToStart() {
    if (Model.findingsByCheck.empty())
      return;
    OS << "<section id=\"start\">\n<h2>Where to start</h2>\n";
    if (!Model.ranked.empty()) {
      OS << "<p class=\"note\">" << e(reportRankingNote(Model)) << "</p>\n";
      auto Rows = [&](size_t From, size_t To) {
        OS << "<table class=\"ranked\">\n<thead><tr><th>#</th><th>Estimated loss (of the launch)</th>"
           << "<th>Launch size</th><th>Finding</th><th>Launch</th></tr></thead>\n<tbody>\n";
        for (size_t I = From; I < To; ++I) {
          const ReportRankedFinding &R = Model.ranked[I];
          OS << "<tr class=\"" << e(R.finding.severity) << "\"><td class=\"num\">" << I + 1 << "</td><td>"
             << e(reportLossText(Model, R)) << "</td><td>" << e(describeLaunchWeight(R.weight)) << "</td><td>"
             << newBadge(R.finding) << "<code>" << e(R.finding.check) << "</code> <span title=\""
             << e(R.finding.message) << "\">" << e(shortened(R.finding.message, 140)) << "</span></td><td><code>"
             << e(R.kernel) << "</code> at <span class=\"mono\">" << path(R.finding.location) << "</span>, " << e(R.gpu)
             << "</td></tr>\n";
        }
        OS << "</tbody>\n</table>\n";
      };
      const size_t Shown = std::min<size_t>(Model.ranked.size(), 20);
      Rows(0, Shown);
      if (Shown < Model.ranked.size()) {
        OS << "<details><summary>" << Model.ranked.size() - Shown << " more</summary>\n";
        Rows(Shown, Model.ranked.size());
        OS << "</details>\n";
      }
    }
    OS << "<h3>Findings by check</h3>\n<ul class=\"by-check\">\n";
    for (const auto &[Check, Count] : Model.findingsByCheck)
      OS << "<li><code>" << e(Check) << "</code> " << Count << "</li>\n";
    OS << "</ul>\n</section>\n";
  }

  // A launch value as written: a long expression shortened, the whole of it
  // on hover; it may break after a ',', '(', '.', '_' or an operator, and
  // between the words of a camelCase name, not inside a word.
  static std::string expression(const std::string &Text, size_t Max = 32) {
    auto Breakable = [](const std::string &Part) { return breakable(Part, ",(+-*/ ._", /*CamelWords=*/true); };
    if (Text.size() <= Max)
      return Breakable(Text);
    return "<span title=\"" + e(Text) + "\">" + Breakable(Text.substr(0, Max - 2)) + "…</span>";
  }

  // A long text cut at a word, with an ellipsis (the whole text on hover).
  static std::string shortened(const std::string &Text, size_t Max) {
    if (Text.size() <= Max)
      return Text;
    size_t Cut = Text.rfind(' ', Max);
    return Text.substr(0, Cut == std::string::npos || Cut < Max / 2 ? Max : Cut) + " …";
  }

  static std::string newBadge(const ReportFinding &F) {
    return F.isNew ? "<span class=\"new\" title=\"not in the baseline\">new</span> " : "";
  }

  // --baseline: the saved findings no longer found.
  void fixedSinceBaseline() {
    if (Model.baselineFile.empty())
      return;
    OS << "<section id=\"fixed\">\n<h2>Fixed since the baseline</h2>\n";
    if (Model.fixedSinceBaseline.empty()) {
      OS << "<p class=\"note\">None of the findings of <code>" << e(Model.baselineFile) << "</code> is fixed.</p>\n"
         << "</section>\n";
      return;
    }
    OS << "<table>\n<thead><tr><th>Location (then)</th><th>Severity</th><th>Check</th><th>Message</th></tr></thead>\n"
       << "<tbody>\n";
    for (const ReportFinding &F : Model.fixedSinceBaseline)
      OS << "<tr><td class=\"mono\">" << e(F.location) << "</td><td>" << e(F.severity) << "</td><td><code>"
         << e(F.check) << "</code></td><td>" << e(F.message) << "</td></tr>\n";
    OS << "</tbody>\n</table>\n</section>\n";
  }

  // A chart drawn once: a chart identical to one already on the page (the
  // same GPU, resources and block for another kernel) refers to it.
  void chart(const std::string &Svg) {
    static const std::string Open = "<svg class=\"staircase\"";
    auto [It, New] = DrawnCharts.emplace(Svg, "chart-" + std::to_string(DrawnCharts.size() + 1));
    if (New) {
      OS << Open << " id=\"" << It->second << "\"" << Svg.substr(Open.size());
      return;
    }
    OS << Svg.substr(0, Svg.find(">\n") + 1) << "<use href=\"#" << It->second << "\"/></svg>\n";
  }

  void staircases() {
    OS << "<section id=\"staircases\">\n<h2>Occupancy staircases</h2>\n";
    if (Model.staircases.empty()) {
      OS << "<p class=\"note\">No launch " << (Model.allStaircases ? "" : "with a finding ")
         << "has a computed occupancy (its block size and dynamic shared memory must be constants and its kernel "
            "known)."
         << (Model.allStaircases ? "" : " --all-staircases: every launch's.") << "</p>\n</section>\n";
      return;
    }
    if (!Model.allStaircases)
      OS << "<p class=\"note\">For the launches with a finding (<code>--all-staircases</code>: every launch).</p>\n";
    OS << "<p class=\"note\">Each chart varies one resource of the launch and keeps the others as they are "
          "(computed with occlint's occupancy engine for the GPU). Red dot: the launch; green ring: the next step "
          "that raises its occupancy.</p>\n";
    for (const ReportStaircaseGroup &G : Model.staircases) {
      OS << "<figure class=\"group\" id=\"" << e(G.anchor) << "\">\n<figcaption><b class=\"mono\">" << e(G.kernel)
         << "</b> on " << e(G.gpu) << " &mdash; " << e(G.configuration) << ": <b>" << e(G.occupancy) << "</b>";
      if (!G.failure.empty())
        OS << " <span class=\"cannot\">(" << e(G.failure) << ")</span>";
      OS << "<br><span class=\"sub\">launched at ";
      for (size_t I = 0; I < G.launchLocations.size(); ++I)
        OS << (I ? ", " : "") << "<span class=\"mono\">" << e(G.launchLocations[I]) << "</span>";
      OS << "</span></figcaption>\n<div class=\"charts\">\n";
      for (const Staircase *S : {&G.charts.registers, &G.charts.blockSize, &G.charts.sharedMemory})
        chart(staircaseSvg(*S));
      if (G.charts.pipelineStages)
        chart(staircaseSvg(*G.charts.pipelineStages));
      OS << "</div>\n";
      std::vector<std::string> Steps;
      for (const Staircase *S : {&G.charts.registers, &G.charts.sharedMemory, &G.charts.blockSize})
        if (S->nextStep && !S->nextStepText.empty())
          Steps.push_back(S->nextStepText);
      if (!Steps.empty()) {
        OS << "<ul class=\"steps\">";
        for (const std::string &Step : Steps)
          OS << "<li>" << e(Step) << "</li>";
        OS << "</ul>\n";
      }
      OS << "</figure>\n";
    }
    OS << "</section>\n";
  }

  void sources() {
    if (Model.resourceSources.empty())
      return;
    OS << "<section id=\"resource-sources\">\n<h2>Where the resources come from</h2>\n<ul class=\"note\">\n";
    for (const std::string &S : Model.resourceSources)
      OS << "<li>" << e(S) << "</li>\n";
    OS << "</ul>\n</section>\n";
  }

  static constexpr int Columns = 11;
  const ReportModel &Model;
  llvm::raw_ostream &OS;
  std::map<std::string, std::string> DrawnCharts; // a chart's SVG -> its id
};

} // namespace

void writeReportHtml(const ReportModel &Model, llvm::raw_ostream &OS) { HtmlPage(Model, OS).write(); }

} // namespace occlint
