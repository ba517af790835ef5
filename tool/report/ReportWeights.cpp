#include "report/ReportWeights.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace occlint {

namespace {

// One CSV line: fields separated by commas, "quoted" fields with "" inside.
std::vector<std::string> csvFields(const std::string &Line) {
  std::vector<std::string> Out(1);
  bool Quoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    const char C = Line[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Line.size() && Line[I + 1] == '"')
        Out.back() += '"', ++I;
      else if (C == '"')
        Quoted = false;
      else
        Out.back() += C;
    } else if (C == '"') {
      Quoted = true;
    } else if (C == ',') {
      Out.emplace_back();
    } else if (C != '\r') {
      Out.back() += C;
    }
  }
  return Out;
}

std::string trim(std::string S) {
  while (!S.empty() && std::isspace((unsigned char)S.back()))
    S.pop_back();
  size_t I = 0;
  while (I < S.size() && std::isspace((unsigned char)S[I]))
    ++I;
  return S.substr(I);
}

// "void reduce<256>(float const*, int)" -> "reduce<256>"; spaces dropped.
std::string normalName(std::string Name) {
  Name = trim(Name);
  if (Name.rfind("void ", 0) == 0)
    Name = Name.substr(5);
  int Depth = 0;
  std::string Out;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    if (C == '>')
      --Depth;
    if (C == '(' && Depth == 0)
      break;
    if (!std::isspace((unsigned char)C))
      Out += C;
  }
  return Out;
}

std::string baseName(const std::string &Name) { return Name.substr(0, Name.find('<')); }

} // namespace

std::string KernelWeights::read(const std::string &File) {
  Path = File;
  std::ifstream In(File);
  if (!In)
    return File + ": cannot read the weights (no such file, or not readable)";
  std::string Line;
  std::vector<std::string> Header;
  unsigned Number = 0;
  // ncu --csv may start with lines of its own ("==PROF== ..."): the header is
  // the first line with a name and a time column.
  int NameColumn = -1, TimeColumn = -1;
  while (NameColumn < 0 && std::getline(In, Line)) {
    ++Number;
    Header = csvFields(Line);
    NameColumn = TimeColumn = -1;
    for (size_t I = 0; I < Header.size(); ++I) {
      const std::string H = trim(Header[I]);
      if (H == "Name" || H == "Kernel Name" || H == "kernel")
        NameColumn = int(I);
      if (H == "Total Time (ns)" || H == "Time" || H == "time" || H == "Duration" || H == "gpu__time_duration.sum")
        TimeColumn = int(I);
    }
    if (TimeColumn < 0)
      NameColumn = -1;
  }
  if (NameColumn < 0)
    return File + ": no header with a kernel column (Name, Kernel Name, kernel) and a time column (Total Time (ns), "
                  "Time, time, Duration, gpu__time_duration.sum)";
  while (std::getline(In, Line)) {
    ++Number;
    if (trim(Line).empty())
      continue;
    const std::vector<std::string> Fields = csvFields(Line);
    if (int(Fields.size()) <= std::max(NameColumn, TimeColumn))
      return File + ":" + std::to_string(Number) + ": fewer fields than the header";
    std::string Time = trim(Fields[TimeColumn]);
    Time.erase(std::remove(Time.begin(), Time.end(), ','), Time.end());
    char *End = nullptr;
    const double Value = std::strtod(Time.c_str(), &End);
    if (Time.empty() || End != Time.c_str() + Time.size() || Value < 0)
      return File + ":" + std::to_string(Number) + ": the time '" + Time + "' is not a number";
    Times[normalName(Fields[NameColumn])] += Value;
    Total += Value;
  }
  if (Times.empty() || Total <= 0)
    return File + ": no kernel with a time";
  return "";
}

std::optional<double> KernelWeights::shareOf(const std::string &Kernel) const {
  const std::string Name = normalName(Kernel);
  auto It = Times.find(Name);
  if (It != Times.end())
    return It->second / Total;
  // The file names the kernel without (or with other spellings of) its
  // template arguments: by base name, when only one kernel has it.
  const std::string Base = baseName(Name);
  std::optional<double> Found;
  const bool Templated = Name != Base;
  for (const auto &[Other, Time] : Times)
    if (baseName(Other) == Base && (!Templated || Other == Base)) {
      if (Found)
        return std::nullopt; // ambiguous
      Found = Time / Total;
    }
  return Found;
}

} // namespace occlint
