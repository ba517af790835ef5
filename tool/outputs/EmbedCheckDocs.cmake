# Writes the check documentation pages as a C++ include for CheckCatalog.cpp:
# every docs/checks/<check>.md as a { "<check>", R"(...)" } entry of
# EmbeddedCheckPages, and docs/checks/README.md (the index, whose table gives
# each check's default severity) as EmbeddedCheckIndex. Run at build time by
# tool/CMakeLists.txt:
#   cmake -DDOCS_DIR=<docs/checks> -DOUTPUT=<file.inc> -P EmbedCheckDocs.cmake

if(NOT DOCS_DIR OR NOT OUTPUT)
  message(FATAL_ERROR "usage: cmake -DDOCS_DIR=<docs/checks> -DOUTPUT=<file.inc> -P EmbedCheckDocs.cmake")
endif()

# The raw strings' delimiter: a page that contains `)occlint_doc"` would end
# its literal early, so that is refused (it cannot happen by accident).
set(Delimiter "occlint_doc")

function(raw_string_literal Path OutVar)
  file(READ "${Path}" Text)
  string(FIND "${Text}" ")${Delimiter}\"" Clash)
  if(NOT Clash EQUAL -1)
    message(FATAL_ERROR "${Path} contains ')${Delimiter}\"', the delimiter of the embedded raw strings: "
                        "change the delimiter in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  set(${OutVar} "R\"${Delimiter}(${Text})${Delimiter}\"" PARENT_SCOPE)
endfunction()

file(GLOB Pages RELATIVE "${DOCS_DIR}" "${DOCS_DIR}/*.md")
list(REMOVE_ITEM Pages README.md)
list(SORT Pages)
if(NOT Pages)
  message(FATAL_ERROR "no check documentation pages (*.md) in ${DOCS_DIR}")
endif()
if(NOT EXISTS "${DOCS_DIR}/README.md")
  message(FATAL_ERROR "${DOCS_DIR}/README.md (the index of the checks) is missing")
endif()

set(Out "// Generated from docs/checks/*.md by tool/outputs/EmbedCheckDocs.cmake. Do not edit.\n\n")
string(APPEND Out "static constexpr EmbeddedPage EmbeddedCheckPages[] = {\n")
foreach(Page IN LISTS Pages)
  string(REGEX REPLACE "\\.md$" "" Name "${Page}")
  if(NOT Name MATCHES "^[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "${DOCS_DIR}/${Page}: a check page's name must be the check's name")
  endif()
  raw_string_literal("${DOCS_DIR}/${Page}" Literal)
  string(APPEND Out "  {\"${Name}\", ${Literal}},\n")
endforeach()
string(APPEND Out "};\n\n")
raw_string_literal("${DOCS_DIR}/README.md" Index)
string(APPEND Out "static constexpr const char EmbeddedCheckIndex[] = ${Index};\n")

file(WRITE "${OUTPUT}" "${Out}")
