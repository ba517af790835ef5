// ExtraArgs and ExtraArgsBefore of a .clang-tidy file arrive with `git clone`:
// clang-tidy applies them to every parse, so a checkout could load a plugin
// into occlint (-fplugin=, -Xclang -load). This provider drops the unsafe
// ones (toolchain/UnsafeFlags.h) from every configuration file, each with a note
// once per run; what the user gave on the command line (--extra-arg,
// --config) is kept as given. docs/security.md.
#pragma once

#include "clang-tidy/ClangTidyOptions.h"

#include <memory>

namespace occlint {

std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
dropUnsafeCheckoutExtraArgs(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner, std::string UserConfigFile);

} // namespace occlint
