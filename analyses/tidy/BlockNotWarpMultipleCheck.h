// cuda-launch-block-not-warp-multiple: a launch whose block size (x*y*z) is
// not a multiple of the warp size. The last warp of every block runs with
// masked lanes that still take a warp slot.
#pragma once

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::occlint {

class BlockNotWarpMultipleCheck : public ClangTidyCheck {
public:
  BlockNotWarpMultipleCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::occlint
