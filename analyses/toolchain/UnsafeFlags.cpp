#include "toolchain/UnsafeFlags.h"

#include <string_view>

namespace occlint {

namespace {

/// A flag that loads a plugin into Clang, on the driver's command line.
bool loadsPlugin(std::string_view a) { return a.starts_with("-fplugin") || a.starts_with("-fpass-plugin"); }

/// A cc1 flag (after -Xclang) that loads or runs a plugin.
bool cc1LoadsPlugin(std::string_view a) {
  return a == "-load" || a == "-load-pass-plugin" || a == "-plugin" || a == "-add-plugin" ||
         a.starts_with("-plugin-arg-") || loadsPlugin(a);
}

} // namespace

std::vector<std::string> dropUnsafeClangFlags(std::vector<std::string> &args) {
  std::vector<std::string> kept, dropped;
  kept.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-Xclang" && i + 1 < args.size() && cc1LoadsPlugin(args[i + 1])) {
      std::string flag = a + " " + args[i + 1];
      ++i;
      // -Xclang -load -Xclang x.so: the value comes through its own -Xclang.
      if ((args[i] == "-load" || args[i] == "-load-pass-plugin" || args[i] == "-plugin" || args[i] == "-add-plugin") &&
          i + 2 < args.size() && args[i + 1] == "-Xclang") {
        flag += " -Xclang " + args[i + 2];
        i += 2;
      }
      dropped.push_back(flag);
      continue;
    }
    if (loadsPlugin(a) || a.starts_with("--config=") || a == "--config" || a.starts_with("--config-") ||
        a.starts_with("-B") || a == "--prefix" || a.starts_with("--prefix=")) {
      std::string flag = a;
      // Separate values: "-B dir", "--config file", "--prefix dir".
      if ((a == "-B" || a == "--config" || a == "--prefix" || a == "--config-system-dir" || a == "--config-user-dir") &&
          i + 1 < args.size())
        flag += " " + args[++i];
      dropped.push_back(flag);
      continue;
    }
    kept.push_back(a);
  }
  args = std::move(kept);
  return dropped;
}

} // namespace occlint
