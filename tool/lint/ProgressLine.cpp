#include "lint/ProgressLine.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace occlint {

ProgressLine::ProgressLine(llvm::raw_ostream &OS, bool Enabled, std::chrono::milliseconds Delay)
    : OS(OS), Enabled(Enabled), Delay(Delay) {}

ProgressLine::~ProgressLine() { finish(); }

bool ProgressLine::stderrIsTerminal() {
  if (!llvm::sys::Process::StandardErrIsDisplayed())
    return false;
  std::optional<std::string> Term = llvm::sys::Process::GetEnv("TERM");
  return !Term || *Term != "dumb";
}

void ProgressLine::start(size_t TotalFiles) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  Total = TotalFiles;
  Start = std::chrono::steady_clock::now();
  Ticker = std::thread([this] { tick(); });
}

void ProgressLine::fileStarted(const std::string &File) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  Current = File;
  drawLocked();
}

void ProgressLine::fileFinished(const std::string &) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  ++Done;
  drawLocked();
}

void ProgressLine::finish() {
  if (!Enabled)
    return;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Wake.notify_all();
  if (Ticker.joinable())
    Ticker.join();
  std::lock_guard<std::mutex> Guard(Lock);
  if (Drawn) {
    OS << "\r\x1b[K"; // back to the line's start, erase it
    OS.flush();
    Drawn = false;
  }
}

// Redraws twice a second, so that the line appears once the delay is over
// even while one long file is being analysed.
void ProgressLine::tick() {
  std::unique_lock<std::mutex> Guard(Lock);
  while (!Stopping) {
    Wake.wait_for(Guard, std::chrono::milliseconds(500));
    if (!Stopping)
      drawLocked();
  }
}

void ProgressLine::drawLocked() {
  const auto Elapsed = std::chrono::steady_clock::now() - Start;
  if (Stopping || Elapsed < Delay)
    return;
  const long Seconds = long(std::chrono::duration_cast<std::chrono::seconds>(Elapsed).count());
  OS << "\r\x1b[Kocclint: [" << Done << "/" << Total << " files done] " << llvm::sys::path::filename(Current) << " ("
     << Seconds << " s)";
  OS.flush();
  Drawn = true;
}

} // namespace occlint
