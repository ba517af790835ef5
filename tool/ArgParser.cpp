#include "ArgParser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace occlint {

ArgParser::ArgParser(std::string Command, std::vector<std::string> ValueOptions, std::vector<std::string> Flags)
    : Command(std::move(Command)), ValueOptions(std::move(ValueOptions)), Flags(std::move(Flags)) {}

void ArgParser::fail(const std::string &Message) const { throw UsageError("occlint " + Command + ": " + Message); }

void ArgParser::parse(int Argc, const char **Argv) {
  bool OnlyPositional = false;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (OnlyPositional || Arg.size() < 2 || Arg[0] != '-') {
      Positional.push_back(Arg);
      continue;
    }
    if (Arg == "--") {
      OnlyPositional = true;
      Positional.push_back(Arg);
      continue;
    }
    std::string Name = Arg.substr(Arg[1] == '-' ? 2 : 1);
    std::optional<std::string> Inline;
    if (auto Eq = Name.find('='); Eq != std::string::npos) {
      Inline = Name.substr(Eq + 1);
      Name = Name.substr(0, Eq);
    }
    if (std::find(Flags.begin(), Flags.end(), Name) != Flags.end()) {
      if (Inline)
        fail("--" + Name + " takes no value");
      Values[Name].push_back("");
      continue;
    }
    if (std::find(ValueOptions.begin(), ValueOptions.end(), Name) == ValueOptions.end())
      fail("unknown option '" + Arg + "' (see --help)");
    if (!Inline) {
      if (I + 1 >= Argc)
        fail("--" + Name + " needs a value");
      Inline = Argv[++I];
    }
    Values[Name].push_back(*Inline);
  }
}

bool ArgParser::has(const std::string &Name) const { return Values.count(Name) != 0; }

std::optional<std::string> ArgParser::value(const std::string &Name) const {
  auto It = Values.find(Name);
  if (It == Values.end())
    return std::nullopt;
  if (It->second.size() > 1)
    fail("--" + Name + " given more than once");
  return It->second.front();
}

std::vector<std::string> ArgParser::values(const std::string &Name) const {
  auto It = Values.find(Name);
  return It == Values.end() ? std::vector<std::string>{} : It->second;
}

static std::optional<int64_t> parseInteger(std::string Text, bool AllowSize) {
  int64_t Scale = 1;
  if (AllowSize) {
    std::string Upper = Text;
    std::transform(Upper.begin(), Upper.end(), Upper.begin(), [](unsigned char C) { return std::toupper(C); });
    for (auto [Suffix, Factor] :
         {std::pair<const char *, int64_t>{"KB", 1024}, {"K", 1024}, {"MB", 1 << 20}, {"M", 1 << 20}, {"B", 1}}) {
      std::string S = Suffix;
      if (Upper.size() > S.size() && Upper.compare(Upper.size() - S.size(), S.size(), S) == 0) {
        Text = Text.substr(0, Text.size() - S.size());
        Scale = Factor;
        break;
      }
    }
  }
  int64_t Value = 0;
  const char *End = Text.data() + Text.size();
  auto [Ptr, Ec] = std::from_chars(Text.data(), End, Value);
  if (Text.empty() || Ec != std::errc() || Ptr != End)
    return std::nullopt;
  if (Value > INT64_MAX / Scale || Value < INT64_MIN / Scale)
    return std::nullopt;
  return Value * Scale;
}

std::optional<int64_t> ArgParser::integer(const std::string &Name, int64_t Min, int64_t Max, bool AllowSize) const {
  std::optional<std::string> Text = value(Name);
  if (!Text)
    return std::nullopt;
  std::optional<int64_t> V = parseInteger(*Text, AllowSize);
  if (!V)
    fail("--" + Name + ": '" + *Text + "' is not " + (AllowSize ? "a size (e.g. 4096, 48K)" : "an integer"));
  if (*V < Min)
    fail("--" + Name + ": " + *Text + " is below the minimum of " + std::to_string(Min));
  if (*V > Max)
    fail("--" + Name + ": " + *Text + " is over the maximum of " + std::to_string(Max));
  return V;
}

bool parseBlockShape(const std::string &Text, int64_t &X, int64_t &Y, int64_t &Z) {
  int64_t Dims[3] = {1, 1, 1};
  size_t Start = 0;
  for (int D = 0; D < 3; ++D) {
    size_t Sep = Text.find_first_of("x,*", Start);
    std::optional<int64_t> V = parseInteger(Text.substr(Start, Sep - Start), false);
    if (!V)
      return false;
    Dims[D] = *V;
    if (Sep == std::string::npos) {
      X = Dims[0], Y = Dims[1], Z = Dims[2];
      return true;
    }
    Start = Sep + 1;
  }
  return false; // more than three dimensions
}

} // namespace occlint
