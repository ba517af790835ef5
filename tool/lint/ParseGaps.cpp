#include "lint/ParseGaps.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <map>
#include <utility>

using clang::tidy::ClangTidyError;
using clang::tidy::occlint::FunctionExtent;

namespace occlint {

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error && llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

std::string parseArchOf(const std::vector<std::string> &CommandLine) {
  for (llvm::StringRef Arg : CommandLine)
    if (Arg.consume_front("--cuda-gpu-arch="))
      return Arg.str();
  return "";
}

namespace {

// The extents of one file that contain an error, as the union of their
// intervals: sorted, disjoint [begin, end] pairs.
using Intervals = std::vector<std::pair<unsigned, unsigned>>;

// Marks, for each error offset, the innermost extent containing it. Extents
// nest or are disjoint (a lambda or a local class's method inside a
// function), so one sweep with a stack of the open ones finds it.
void markInnermost(std::vector<FunctionExtent> &Extents, std::vector<unsigned> &Offsets, std::vector<bool> &Broken) {
  std::vector<size_t> Order(Extents.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t L, size_t R) {
    return Extents[L].begin != Extents[R].begin ? Extents[L].begin < Extents[R].begin : Extents[L].end > Extents[R].end;
  });
  std::sort(Offsets.begin(), Offsets.end());
  std::vector<size_t> Open;
  size_t Next = 0;
  for (unsigned Offset : Offsets) {
    for (; Next < Order.size() && Extents[Order[Next]].begin <= Offset; ++Next) {
      while (!Open.empty() && Extents[Open.back()].end < Extents[Order[Next]].begin)
        Open.pop_back();
      Open.push_back(Order[Next]);
    }
    while (!Open.empty() && Extents[Open.back()].end < Offset)
      Open.pop_back();
    if (!Open.empty())
      Broken[Open.back()] = true;
  }
}

bool inside(const Intervals &Union, unsigned Offset) {
  auto After = std::upper_bound(Union.begin(), Union.end(), std::make_pair(Offset, ~0u));
  return After != Union.begin() && std::prev(After)->second >= Offset;
}

} // namespace

ParseGap degradeParse(std::vector<ClangTidyError> &Errors, const std::optional<std::vector<FunctionExtent>> &Extents) {
  ParseGap Gap;
  auto First = std::find_if(Errors.begin(), Errors.end(), isCompilerError);
  if (First != Errors.end())
    Gap.firstError = *First;

  // Per file: the functions and the offsets of the errors in it.
  std::map<std::string, std::pair<std::vector<FunctionExtent>, std::vector<unsigned>>> Files;
  if (Extents) {
    for (const FunctionExtent &F : *Extents)
      Files[F.file].first.push_back(F);
    for (const ClangTidyError &E : Errors)
      if (isCompilerError(E) && !E.Message.FilePath.empty()) {
        auto It = Files.find(E.Message.FilePath);
        if (It != Files.end())
          It->second.second.push_back(E.Message.FileOffset);
      }
  }
  std::map<std::string, Intervals> BrokenIn;
  unsigned BrokenCount = 0;
  for (auto &[File, FunctionsAndErrors] : Files) {
    auto &[Functions, Offsets] = FunctionsAndErrors;
    if (Offsets.empty())
      continue;
    std::vector<bool> Broken(Functions.size(), false);
    markInnermost(Functions, Offsets, Broken);
    Intervals Union;
    for (size_t I = 0; I < Functions.size(); ++I)
      if (Broken[I]) {
        ++BrokenCount;
        Union.push_back({Functions[I].begin, Functions[I].end});
      }
    std::sort(Union.begin(), Union.end());
    Intervals Merged;
    for (const auto &Interval : Union)
      if (!Merged.empty() && Interval.first <= Merged.back().second)
        Merged.back().second = std::max(Merged.back().second, Interval.second);
      else
        Merged.push_back(Interval);
    BrokenIn[File] = std::move(Merged);
  }
  if (Extents)
    Gap.functionsNotAnalysed = BrokenCount;

  // A finding inside any function with an error (a launch in a lambda of a
  // broken function too) is dropped: its values come from error recovery.
  auto Drop = [&](const ClangTidyError &E) {
    if (isCompilerError(E))
      return true;
    if (!llvm::StringRef(E.DiagnosticName).starts_with("cuda-"))
      return false;
    auto It = BrokenIn.find(E.Message.FilePath);
    if (It == BrokenIn.end() || !inside(It->second, E.Message.FileOffset))
      return false;
    ++Gap.findingsDropped;
    return true;
  };
  Errors.erase(std::remove_if(Errors.begin(), Errors.end(), Drop), Errors.end());
  return Gap;
}

} // namespace occlint
