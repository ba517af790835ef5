#include "facts/StatedAssertions.h"

#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <map>
#include <memory>

namespace clang::tidy::occlint {

namespace {

// One translation unit's assertions, owned by the preprocessor that
// expanded them: a recorder for another preprocessor starts afresh, so a
// list never outlives its translation unit's source locations.
struct Store {
  const Preprocessor *Owner = nullptr;
  const SourceManager *SM = nullptr;
  unsigned Recorders = 0;
  std::map<SourceLocation::UIntTy, StatedAssertion> Entries;
};

thread_local Store TheStore;

constexpr size_t MaxTokens = 64;
constexpr unsigned MaxMacroDepth = 4;

class AssertRecorder : public PPCallbacks {
public:
  explicit AssertRecorder(Preprocessor &PP) : PP(PP) {
    if (TheStore.Owner != &PP || TheStore.Recorders == 0) {
      TheStore = Store{};
      TheStore.Owner = &PP;
      TheStore.SM = &PP.getSourceManager();
    }
    ++TheStore.Recorders;
  }
  ~AssertRecorder() override {
    if (TheStore.Owner == &PP && TheStore.Recorders > 0)
      --TheStore.Recorders;
  }

  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange Range, const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "assert" || !Args || Args->getNumMacroArguments() != 1 || TheStore.Owner != &PP)
      return;
    const SourceLocation Loc = PP.getSourceManager().getExpansionLoc(Range.getBegin());
    if (TheStore.Entries.count(Loc.getRawEncoding()))
      return;
    StatedAssertion A;
    A.Loc = Loc;
    for (const Token *T = Args->getUnexpArgument(0); T && T->isNot(tok::eof); ++T)
      if (!append(*T, A.Tokens, 0))
        return; // too long to be a statement about the block shape
    TheStore.Entries.emplace(Loc.getRawEncoding(), std::move(A));
  }

private:
  // The token's spelling, or an object-like macro's replacement (a constant
  // such as BLOCK_SIZE defined as (256)).
  bool append(const Token &T, std::vector<std::string> &Out, unsigned Depth) {
    if (Out.size() >= MaxTokens)
      return false;
    if (const IdentifierInfo *II = T.getIdentifierInfo(); II && Depth < MaxMacroDepth)
      if (const MacroInfo *MI = PP.getMacroInfo(II); MI && MI->isObjectLike()) {
        for (const Token &R : MI->tokens())
          if (!append(R, Out, Depth + 1))
            return false;
        return true;
      }
    Out.push_back(PP.getSpelling(T));
    return true;
  }

  Preprocessor &PP;
};

} // namespace

void StatedAssertions::recordFrom(Preprocessor &PP) { PP.addPPCallbacks(std::make_unique<AssertRecorder>(PP)); }

const StatedAssertion *StatedAssertions::at(SourceLocation Loc, const SourceManager &SM) {
  if (TheStore.SM != &SM)
    return nullptr;
  const auto It = TheStore.Entries.find(Loc.getRawEncoding());
  return It == TheStore.Entries.end() ? nullptr : &It->second;
}

} // namespace clang::tidy::occlint
