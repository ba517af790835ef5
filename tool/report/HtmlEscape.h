// Text into HTML and SVG: the five characters with a meaning there become
// references, so names and messages from source files show as written.
#pragma once

#include <string>
#include <string_view>

namespace occlint {

inline std::string escapeHtml(std::string_view Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace occlint
