// A small parser for the subcommands' options (`--name value` or
// `--name=value`), whose errors are one line naming the option and the value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace occlint {

/// Thrown for a bad command line; main turns it into exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ArgParser {
public:
  /// Flags take no value; every other known option takes exactly one.
  ArgParser(std::string Command, std::vector<std::string> ValueOptions, std::vector<std::string> Flags);

  /// Parses Argv[1..Argc); positional arguments are kept in order.
  void parse(int Argc, const char **Argv);

  bool has(const std::string &Name) const;
  std::optional<std::string> value(const std::string &Name) const;
  std::vector<std::string> values(const std::string &Name) const; // repeatable options
  const std::vector<std::string> &positional() const { return Positional; }

  /// An integer in [Min, Max]; accepts K/KB and M/MB suffixes (x1024) when AllowSize.
  std::optional<int64_t> integer(const std::string &Name, int64_t Min, int64_t Max, bool AllowSize = false) const;

  [[noreturn]] void fail(const std::string &Message) const;

private:
  std::string Command;
  std::vector<std::string> ValueOptions, Flags;
  std::map<std::string, std::vector<std::string>> Values;
  std::vector<std::string> Positional;
};

/// Parses "256", "16x16", "16x16x4" or "16,16,4" into x, y, z.
bool parseBlockShape(const std::string &Text, int64_t &X, int64_t &Y, int64_t &Z);

} // namespace occlint
