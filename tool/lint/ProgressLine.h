// "occlint: [3/12] src/reduce.cu" on stderr while a run goes on: shown only
// when stderr is a terminal and the run has taken more than a second, redrawn
// in place, and erased when the run ends (the findings print afterwards).
#pragma once

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace occlint {

class ProgressLine {
public:
  /// Disabled: every call is a no-op. `Delay`: how long a run goes on before
  /// the line appears.
  ProgressLine(llvm::raw_ostream &OS, bool Enabled, std::chrono::milliseconds Delay = std::chrono::milliseconds(1000));
  ~ProgressLine();

  void start(size_t TotalFiles);
  /// Thread-safe.
  void fileStarted(const std::string &File);
  void fileFinished(const std::string &File);
  /// Erases the line (also done by the destructor).
  void finish();

  /// True when stderr is a terminal (and TERM is not "dumb").
  static bool stderrIsTerminal();

private:
  void tick();
  void drawLocked();

  llvm::raw_ostream &OS;
  const bool Enabled;
  const std::chrono::milliseconds Delay;
  std::chrono::steady_clock::time_point Start;
  std::mutex Lock;
  std::condition_variable Wake;
  std::thread Ticker;
  bool Stopping = false;
  bool Drawn = false;
  size_t Total = 0, Done = 0;
  std::string Current;
};

} // namespace occlint
