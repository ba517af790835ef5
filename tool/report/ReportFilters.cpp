#include "report/ReportFilters.h"

#include "report/HtmlEscape.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace occlint {

namespace {

std::string fileOf(const std::string &Location) {
  // "src/a.cu:12" or "src/a.cu:12:5": the path before the line.
  std::string File = Location;
  for (int I = 0; I < 2; ++I) {
    const size_t Colon = File.rfind(':');
    if (Colon == std::string::npos || Colon + 1 == File.size() ||
        !std::all_of(File.begin() + Colon + 1, File.end(), [](char C) { return std::isdigit((unsigned char)C); }))
      break;
    File.resize(Colon);
  }
  return File;
}

std::string lower(std::string Text) {
  std::transform(Text.begin(), Text.end(), Text.begin(), [](char C) { return char(std::tolower((unsigned char)C)); });
  return Text;
}

} // namespace

std::string filterAttributes(const std::string &Location, const std::string &Gpu,
                             const std::vector<ReportFinding> &Findings, const std::string &Text) {
  std::set<std::string> Checks, Severities;
  std::string Search = Location + " " + Text;
  for (const ReportFinding &F : Findings) {
    Checks.insert(F.check);
    Severities.insert(F.severity);
    Search += " " + F.check + " " + F.message;
  }
  auto Joined = [](const std::set<std::string> &Set) {
    std::string Out;
    for (const std::string &S : Set)
      Out += (Out.empty() ? "" : " ") + S;
    return Out;
  };
  return " data-file=\"" + escapeHtml(fileOf(Location)) + "\" data-gpu=\"" + escapeHtml(Gpu) + "\" data-checks=\"" +
         escapeHtml(Joined(Checks)) + "\" data-severities=\"" + escapeHtml(Joined(Severities)) + "\" data-text=\"" +
         escapeHtml(lower(Search)) + "\"";
}

void writeFilterControls(const ReportModel &Model, llvm::raw_ostream &OS) {
  std::set<std::string> Files, Gpus;
  for (const ReportKernelRow &K : Model.kernels) {
    if (!K.location.empty())
      Files.insert(fileOf(K.location));
    for (const ReportLaunchRow &L : K.launches) {
      Files.insert(fileOf(L.location));
      Gpus.insert(L.gpuName);
    }
  }
  auto Select = [&OS](const char *Name, const char *All, const std::set<std::string> &Values) {
    OS << "<label>" << Name << " <select data-filter=\"" << Name << "\"><option value=\"\">" << All << "</option>";
    for (const std::string &V : Values)
      OS << "<option>" << escapeHtml(V) << "</option>";
    OS << "</select></label>\n";
  };
  std::set<std::string> Checks;
  for (const auto &[Check, Count] : Model.findingsByCheck)
    Checks.insert(Check);
  // Hidden until the script runs: without JavaScript there is nothing to use.
  OS << "<form class=\"filters\" hidden onsubmit=\"return false\">\n";
  Select("check", "every check", Checks);
  Select("severity", "every severity", {"error", "warning", "remark"});
  Select("file", "every file", Files);
  Select("gpu", "every GPU", Gpus);
  OS << "<label>search <input type=\"search\" data-filter=\"text\" placeholder=\"kernel, path, message\"></label>\n"
     << "<span class=\"sub\" data-filter-count></span>\n</form>\n";
}

const char *const FilterScript = R"(
(function () {
  var form = document.querySelector('form.filters');
  if (!form) return;
  form.hidden = false;
  function has(list, word) { return (' ' + list + ' ').indexOf(' ' + word + ' ') >= 0; }
  function matches(row, f, withGpu) {
    if (f.check && !has(row.dataset.checks, f.check)) return false;
    if (f.severity && !has(row.dataset.severities, f.severity)) return false;
    if (withGpu && f.gpu && row.dataset.gpu !== f.gpu) return false;
    if (f.text && row.dataset.text.indexOf(f.text) < 0) return false;
    return true;
  }
  function apply(f) {
    var shown = 0, total = 0;
    document.querySelectorAll('tbody.kernel-group').forEach(function (group) {
      var kernel = group.querySelector('tr.kernel');
      var any = false;
      group.querySelectorAll('tr.launch').forEach(function (row) {
        total++;
        var fileOk = !f.file || row.dataset.file === f.file || kernel.dataset.file === f.file;
        var ok = fileOk && matches(row, f, true);
        row.hidden = !ok;
        var next = row.nextElementSibling;
        if (next && next.classList.contains('findings-row')) next.hidden = !ok;
        if (ok) { any = true; shown++; }
      });
      // The kernel's own findings (spills, a cliff at its definition) count
      // when no GPU is asked for.
      var own = !f.gpu && (!f.file || kernel.dataset.file === f.file) && (f.check || f.severity || f.text) &&
                matches(kernel, f, false);
      group.hidden = !(any || own || (!f.check && !f.severity && !f.text && !f.gpu &&
                                      (!f.file || kernel.dataset.file === f.file)));
    });
    var count = form.querySelector('[data-filter-count]');
    if (count) count.textContent = shown + ' of ' + total + ' launches shown';
    return shown;
  }
  function current() {
    var f = {};
    form.querySelectorAll('[data-filter]').forEach(function (c) {
      f[c.getAttribute('data-filter')] = c.getAttribute('data-filter') === 'text' ? c.value.trim().toLowerCase() : c.value;
    });
    return f;
  }
  form.addEventListener('input', function () { apply(current()); });
  form.addEventListener('change', function () { apply(current()); });
  window.occlintFilter = function (f) {
    f = f || {};
    if (f.text) f.text = f.text.toLowerCase();
    return apply(f);
  };
  apply(current());
})();
)";

} // namespace occlint
