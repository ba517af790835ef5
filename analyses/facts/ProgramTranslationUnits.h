// The program's other translation units, when the tool that runs the checks
// knows them: occlint, given a compile database (`-p`, or the database it
// finds above the files), takes the database's files as the program. Then a
// helper with external linkage that no other translation unit names cannot be
// called from elsewhere, and the callers seen in its own file are all its
// callers (CallSites.h). Inside clang-tidy the checks do not see a database:
// nothing is known of other files, and such a helper stays open.
//
// What counts as "naming": the identifier appears in the other file's text
// (comments and strings included, which only errs on the safe side). A call
// from a header only other files include is not seen; CallSites.h therefore
// also requires every declaration of the helper to be in its own main file.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

class ProgramTranslationUnits {
public:
  /// Reads the identifiers of every file of the program, once, before any
  /// analysis starts (before worker threads or child processes: they share
  /// what is read here, read-only). A file that cannot be read leaves the
  /// program unknown: nothing is then said about other files.
  static void set(const std::vector<std::string> &MainFiles);
  /// Forgets the program (tests).
  static void clear();
  /// Whether set() was called and every file could be read.
  static bool known();
  /// A translation unit other than `MainFile` whose text names `Identifier`,
  /// as its path; nullopt when none does. When the program is not known,
  /// `MainFile` itself (the safe answer: it may be called from elsewhere).
  static std::optional<std::string> namedOutside(llvm::StringRef Identifier, llvm::StringRef MainFile);
};

} // namespace clang::tidy::occlint
