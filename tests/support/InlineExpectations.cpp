#include "InlineExpectations.h"

#include <regex>
#include <sstream>

namespace occlint::testing {

std::string Diagnostic::str() const {
  std::string S = "line " + std::to_string(line) + ": " + level + ": " + message;
  if (!check.empty())
    S += " [" + check + "]";
  return S;
}

std::vector<Diagnostic> parseExpectations(const std::string &Source) {
  static const std::regex Expect(
      R"(expect-(warning|error|note|remark)(@([+-]\d+))?(\s+(\d+))?\s*\{\{(.*?)\}\}(\s*\[([\w.-]+)\])?)");
  std::vector<Diagnostic> Out;
  std::istringstream In(Source);
  std::string Line;
  for (int LineNo = 1; std::getline(In, Line); ++LineNo) {
    for (std::sregex_iterator It(Line.begin(), Line.end(), Expect), End; It != End; ++It) {
      Diagnostic D;
      D.level = (*It)[1];
      D.line = LineNo + ((*It)[3].matched ? std::stoi((*It)[3]) : 0);
      D.message = (*It)[6];
      D.check = (*It)[8];
      // `expect-note 3 {{...}}`: the same diagnostic three times on that line.
      const int Count = (*It)[5].matched ? std::stoi((*It)[5]) : 1;
      for (int I = 0; I < Count; ++I)
        Out.push_back(D);
    }
  }
  return Out;
}

std::vector<Diagnostic> parseClangOutput(const std::string &Output, const std::string &File) {
  static const std::regex DiagLine(R"(^(.*):(\d+):(\d+): (warning|error|note|remark): (.*?)( \[([\w.,-]+)\])?$)");
  std::vector<Diagnostic> Out;
  std::istringstream In(Output);
  std::string Line;
  while (std::getline(In, Line)) {
    std::smatch M;
    if (!std::regex_match(Line, M, DiagLine) || M[1] != File)
      continue;
    Diagnostic D;
    D.line = std::stoi(M[2]);
    D.level = M[4];
    D.message = M[5];
    D.check = M[7];
    Out.push_back(D);
  }
  return Out;
}

std::string parseRunArgs(const std::string &Source) {
  static const std::regex RunArgs(R"(RUN-ARGS:(.*))");
  std::smatch M;
  return std::regex_search(Source, M, RunArgs) ? std::string(M[1]) : std::string();
}

static bool matches(const Diagnostic &Expected, const Diagnostic &Actual) {
  return Expected.line == Actual.line && Expected.level == Actual.level &&
         Actual.message.find(Expected.message) != std::string::npos &&
         (Expected.check.empty() || Expected.check == Actual.check);
}

std::vector<std::string> compareDiagnostics(const std::vector<Diagnostic> &Expected,
                                            const std::vector<Diagnostic> &Actual) {
  std::vector<std::string> Problems;
  std::vector<bool> Used(Actual.size(), false);
  for (const Diagnostic &E : Expected) {
    bool Found = false;
    for (size_t I = 0; I < Actual.size() && !Found; ++I)
      if (!Used[I] && matches(E, Actual[I]))
        Used[I] = Found = true;
    if (!Found)
      Problems.push_back("expected but not seen: " + E.str());
  }
  for (size_t I = 0; I < Actual.size(); ++I)
    if (!Used[I])
      Problems.push_back("seen but not expected: " + Actual[I].str());
  return Problems;
}

} // namespace occlint::testing
