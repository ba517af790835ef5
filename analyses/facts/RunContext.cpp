#include "facts/RunContext.h"

#include <utility>

namespace clang::tidy::occlint {

namespace {
RunContext InstalledRun;
thread_local ParseContext InstalledParse;
} // namespace

const RunContext &runContext() { return InstalledRun; }
const ParseContext &parseContext() { return InstalledParse; }

RunContextScope::RunContextScope(RunContext Context) : Previous(InstalledRun) { InstalledRun = Context; }
RunContextScope::~RunContextScope() { InstalledRun = Previous; }

ParseContextScope::ParseContextScope(ParseContext Context) : Previous(std::move(InstalledParse)) {
  InstalledParse = std::move(Context);
}
ParseContextScope::~ParseContextScope() { InstalledParse = std::move(Previous); }

} // namespace clang::tidy::occlint
