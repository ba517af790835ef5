// The reads of an async-copy ring on the pipeline run (pipelines/AsyncPipelineRun.h):
// which expressions read the ring, and which stage each reads. A ring of
// arrays of arrays names a stage by its first index (the same value in every
// thread) and tells a thread's own element from others' by the text of the
// address past the stage index; a ring at computed offsets
// (AsyncPipelineFacts::offsetRingBuffers) names it by the uniform byte offset
// and counts every read as other threads'. The ordering model that judges the
// reads is the subclass's (pipelines/AsyncPipelineHazards.cpp). A private header
// of the hazard run.
#pragma once

#include "pipelines/AsyncPipeline.h"
#include "pipelines/AsyncPipelineRun.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace clang::tidy::occlint {

// A place in the ring, and who addresses it: the text of the address past
// the stage index ("" for a whole stage).
struct Region {
  const VarDecl *buffer = nullptr;
  int64_t stage = 0;
  std::string within;
};

class RingReads : public PipelineRun {
public:
  RingReads(ASTContext &Ctx, const AsyncPipelineFacts &Pipeline);

protected:
  /// A read of region R at At (the subclass judges it).
  virtual void read(const Region &R, SourceLocation At) = 0;

  /// Every read of the ring in S.
  void scan(const Stmt *S) override;
  /// A pointer local (or parameter) now holding Init: its uses are the
  /// region's (or the offsets') it names.
  void holdsPlace(const VarDecl &VD, const Expr &Init);
  /// The region an address or an lvalue names, in a ring of arrays of arrays.
  std::optional<Region> regionOf(const Expr *E);
  /// The stage a place falls in, in a ring at computed offsets.
  std::optional<Region> offsetRegionOf(const Expr *E);
  /// E as written (once per expression: every trip reads the same text).
  const std::string &text(const Expr *E);

  bool readsComputeLoopsAtTheirFirstTrip() const override { return !OffsetRing.empty(); }

  std::set<const VarDecl *> Ring;
  const int Stages;
  // A ring at computed offsets.
  std::set<const VarDecl *> OffsetRing;
  const int64_t OffsetBase, StageBytes;
  UniformAddresses Addresses;

private:
  void scanOffsets(const Stmt *S);
  void scanIndices(const Stmt *S);

  std::map<const VarDecl *, Region> Aliases;
  llvm::DenseMap<const Expr *, std::string> Texts;
};

} // namespace clang::tidy::occlint
