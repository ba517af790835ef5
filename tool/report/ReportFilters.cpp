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

std::string kernelRowFile(const ReportKernelRow &K) {
  if (!K.location.empty())
    return fileOf(K.location);
  return K.launches.empty() ? std::string() : fileOf(K.launches.front().location);
}

void writeFileHeader(const std::string &File, const std::vector<const ReportKernelRow *> &Kernels, int Columns,
                     llvm::raw_ostream &OS) {
  size_t Launches = 0, Findings = 0;
  for (const ReportKernelRow *K : Kernels) {
    Launches += K->launches.size();
    Findings += K->findings.size();
    for (const ReportLaunchRow &L : K->launches)
      Findings += L.findings.size();
  }
  auto Count = [](size_t N, const char *One) { return std::to_string(N) + " " + One + (N == 1 ? "" : "s"); };
  OS << "<tbody class=\"file-header\" data-file-group=\"" << escapeHtml(File) << "\"><tr class=\"file\"><td colspan=\""
     << Columns << "\"><button type=\"button\" class=\"file-toggle\" aria-expanded=\"true\" hidden>&#9662;</button> "
     << "<span class=\"mono\">" << escapeHtml(File.empty() ? "(unknown file)" : File) << "</span> <span class=\"sub\">"
     << Count(Kernels.size(), "kernel") << ", " << Count(Launches, "launch") << ", " << Count(Findings, "finding")
     << "</span></td></tr></tbody>\n";
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
    // A file's header goes with its last shown kernel.
    document.querySelectorAll('tbody.file-header').forEach(function (header) {
      var file = header.getAttribute('data-file-group');
      header.hidden = !Array.prototype.some.call(document.querySelectorAll('tbody.kernel-group'), function (g) {
        return g.getAttribute('data-file-group') === file && !g.hidden;
      });
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
  // Files fold: a file's button hides its kernels (a class, so that the
  // filters' own hiding stays as it is).
  document.querySelectorAll('tbody.file-header').forEach(function (header) {
    var button = header.querySelector('button.file-toggle');
    if (!button) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var open = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      button.innerHTML = open ? '&#9662;' : '&#9656;';
      var file = header.getAttribute('data-file-group');
      document.querySelectorAll('tbody.kernel-group').forEach(function (group) {
        if (group.getAttribute('data-file-group') === file) group.classList.toggle('folded', !open);
      });
    });
  });
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
