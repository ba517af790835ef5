// Fuzz target: the ptxas report parser (gpu/PtxasReport.h) on any text a
// build may print, then the queries and the merge on what it found.
#include "FuzzSupport.h"
#include "gpu/PtxasReport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  PtxasReport Report = parsePtxasLog(fuzz::asText(Data, Size));
  for (const FunctionResources &F : Report.functions) {
    Report.find(F.mangledName, F.arch);
    Report.findAll(F.mangledName, "sm_90");
    archMatches(F.arch, "sm_90");
    archMatches("sm_90", F.arch);
  }
  PtxasReport Copy = Report;
  Copy.merge(Report);
  Copy.merge(parsePtxasLog(""));
  return 0;
}
