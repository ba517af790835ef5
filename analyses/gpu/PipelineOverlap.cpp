#include "gpu/PipelineOverlap.h"

namespace occlint {

std::optional<TileTimes> tileTimes(const TargetGpu &Gpu, int64_t BytesPerStage, const TileWork &Work, int BlocksPerSM) {
  if (!Gpu.throughput || Gpu.smCount <= 0 || BlocksPerSM <= 0 || BytesPerStage <= 0)
    return std::nullopt;
  const ProductThroughput &T = *Gpu.throughput;
  const double Sms = Gpu.smCount;
  const double BytesPerNsPerSM = T.memoryBandwidthGBs / Sms; // GB/s = bytes/ns
  const double FpOpsPerNsPerSM = T.fp32Tflops * 1e3 / Sms;   // TFLOP/s = 10^3 FLOP/ns
  const double TensorFlopsPerNsPerSM = T.tensorFp16Tflops * 1e3 / Sms;
  TileTimes Out;
  Out.loadNs = BlocksPerSM * double(BytesPerStage) / BytesPerNsPerSM;
  Out.computeNs = BlocksPerSM * (Work.fpOps / FpOpsPerNsPerSM + Work.tensorFlops / TensorFlopsPerNsPerSM);
  Out.latencyNs = kAsyncCopyLatencyCycles / (T.boostClockMHz * 1e-3); // MHz = cycles/us
  return Out;
}

bool ringCoversLoad(const TileTimes &Times, int Stages, double Margin) {
  if (Stages < 2)
    return false; // one stage: nothing is in flight while the block computes
  return (Stages - 1) * Times.tileNs() >= Margin * (Times.latencyNs + Times.loadNs);
}

void estimateOverlap(std::vector<PipelineDepthPoint> &Points, const TargetGpu &Gpu, int64_t BytesPerStage,
                     const TileWork &Work) {
  for (PipelineDepthPoint &P : Points) {
    if (!P.fits)
      continue;
    const std::optional<TileTimes> T = tileTimes(Gpu, BytesPerStage, Work, P.blocksPerSM);
    if (!T)
      return;
    P.loadNs = T->loadNs;
    P.computeNs = T->computeNs;
    P.latencyNs = T->latencyNs;
    P.coversLoad = ringCoversLoad(*T, P.stages, 1.0);
  }
}

std::optional<TileTimes> estimateAt(const PipelineDepthPoint &Point) {
  if (!Point.loadNs || !Point.computeNs || !Point.latencyNs)
    return std::nullopt;
  return TileTimes{*Point.loadNs, *Point.computeNs, *Point.latencyNs};
}

int firstCoveringDepth(const std::vector<PipelineDepthPoint> &Points) {
  for (const PipelineDepthPoint &P : Points)
    if (P.coversLoad && *P.coversLoad)
      return P.stages;
  return 0;
}

} // namespace occlint
