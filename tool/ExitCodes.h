// The exit codes of every occlint command, documented in README.md.
#pragma once

namespace occlint {

enum ExitCode : int {
  ExitOk = 0,           // ran, nothing at error level
  ExitFindings = 1,     // findings at error level (or promoted by --warnings-as-errors)
  ExitUsageOrInput = 2, // bad command line, unreadable or unparsable input
  ExitInternal = 3,     // a bug in occlint: an unexpected exception
};

} // namespace occlint
