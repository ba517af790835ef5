// TEMPORARY, not to be committed: placeholders until the output writers land.
#include "CheckCatalog.h"
#include "OutputFormats.h"
#include <stdexcept>
namespace occlint {
void writeJsonOutput(const LintResult &, llvm::raw_ostream &) { throw std::runtime_error("json: not yet"); }
void writeSarifOutput(const LintResult &, llvm::raw_ostream &) { throw std::runtime_error("sarif: not yet"); }
const std::vector<CheckDoc> &checkCatalog() { static std::vector<CheckDoc> E; return E; }
const CheckDoc *findCheckDoc(llvm::StringRef) { return nullptr; }
int runReportCommand(int, const char **) { throw std::runtime_error("report: not yet"); }
int runLspCommand(int, const char **) { throw std::runtime_error("lsp: not yet"); }
}
