#include "toolchain/AtomicFile.h"

#include "toolchain/ResultCache.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace occlint {

bool writeFileAtomically(const std::string &path, std::string_view text, std::string *error) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string &why) {
    if (error)
      *error = why;
    return false;
  };
  try {
    // Unique per process and per call: several threads of one occlint may
    // store entries at once.
    const std::string tmp =
        path + ".tmp." + std::to_string(::getpid()) + "." + hashHex(fnv1a64(text) ^ reinterpret_cast<uintptr_t>(&text));
    std::error_code ec;
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out)
        return fail("cannot write " + tmp);
      out << text;
      out.flush();
      if (!out) {
        out.close();
        fs::remove(tmp, ec);
        return fail("cannot write " + tmp);
      }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
      fs::remove(tmp, ec);
      return fail("cannot rename " + tmp + " to " + path);
    }
    return true;
  } catch (const std::exception &e) {
    return fail(e.what());
  } catch (...) {
    return fail("unknown error");
  }
}

} // namespace occlint
