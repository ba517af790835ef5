#include "facts/FactsRecords.h"

namespace clang::tidy::occlint {

static FactsRecordSink *InstalledSink = nullptr;

void setFactsRecordSink(FactsRecordSink *Sink) { InstalledSink = Sink; }
FactsRecordSink *getFactsRecordSink() { return InstalledSink; }

} // namespace clang::tidy::occlint
