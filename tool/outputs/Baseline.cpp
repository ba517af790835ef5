#include "outputs/Baseline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace occlint {

namespace {

using Key = std::tuple<std::string, std::string, std::string>; // check, path, message

std::string stringOr(const nlohmann::json &Object, const char *Field, const std::string &Default = "") {
  auto It = Object.find(Field);
  return It != Object.end() && It->is_string() ? It->get<std::string>() : Default;
}

} // namespace

size_t BaselineComparison::newCount() const { return size_t(std::count(isNew.begin(), isNew.end(), true)); }

std::string readBaseline(const std::string &Path, const PathRoots &Roots, std::vector<BaselineFinding> &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Path + ": cannot read the baseline (no such file, or not readable)";
  std::stringstream Text;
  Text << In.rdbuf();
  nlohmann::json J = nlohmann::json::parse(Text.str(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Path + ": the baseline is not JSON (save one with occlint --format=json --output FILE)";
  if (!J.is_object() || !J.contains("diagnostics") || !J["diagnostics"].is_array() ||
      stringOr(J.value("tool", nlohmann::json::object()), "name") != "occlint")
    return Path + ": the baseline is not occlint's JSON output (no tool.name \"occlint\" and diagnostics[])";
  for (const nlohmann::json &D : J["diagnostics"]) {
    if (!D.is_object())
      return Path + ": a diagnostic of the baseline is not an object";
    BaselineFinding F;
    F.check = stringOr(D, "check");
    F.severity = stringOr(D, "severity");
    F.message = stringOr(D, "message");
    // "path" when the output has one; an older output's absolute "file" is
    // shown from this run's roots.
    F.path = stringOr(D, "path", Roots.display(stringOr(D, "file")));
    if (auto Line = D.find("line"); Line != D.end() && Line->is_number_unsigned())
      F.line = Line->get<unsigned>();
    Out.push_back(std::move(F));
  }
  return "";
}

BaselineComparison compareWithBaseline(const std::vector<DiagnosticRecord> &Current, const PathRoots &Roots,
                                       const std::vector<BaselineFinding> &Saved) {
  BaselineComparison C;
  C.isNew.assign(Current.size(), true);
  std::map<Key, std::vector<size_t>> SavedByKey;
  for (size_t I = 0; I < Saved.size(); ++I)
    SavedByKey[{Saved[I].check, Saved[I].path, Saved[I].message}].push_back(I);
  std::map<Key, std::vector<size_t>> CurrentByKey;
  for (size_t I = 0; I < Current.size(); ++I)
    CurrentByKey[{Current[I].check, Roots.display(Current[I].file), Current[I].message}].push_back(I);
  std::vector<bool> Matched(Saved.size(), false);
  for (auto &[K, Now] : CurrentByKey) {
    auto It = SavedByKey.find(K);
    if (It == SavedByKey.end())
      continue;
    // The pairs nearest in line first: a finding that moved keeps its match.
    std::vector<std::tuple<unsigned, size_t, size_t>> Pairs; // distance, current, saved
    for (size_t I : Now)
      for (size_t S : It->second) {
        const unsigned A = Current[I].position.line, B = Saved[S].line;
        Pairs.emplace_back(A > B ? A - B : B - A, I, S);
      }
    std::sort(Pairs.begin(), Pairs.end());
    for (const auto &[Distance, I, S] : Pairs)
      if (C.isNew[I] && !Matched[S]) {
        C.isNew[I] = false;
        Matched[S] = true;
      }
  }
  for (size_t S = 0; S < Saved.size(); ++S)
    if (!Matched[S])
      C.fixed.push_back(Saved[S]);
  return C;
}

} // namespace occlint
