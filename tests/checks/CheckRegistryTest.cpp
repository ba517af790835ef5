// A check is declared once (checks/CheckDeclaration.h, in the check's header,
// listed in checks/CheckRegistry.cpp); the tables that describe the checks to
// people are held against that declaration here: docs/checks/README.md's
// index (the same checks in the same order, the severity and default
// columns) and README.md's check table (the same checks, "(error)",
// "(remark...)" and "off by default" where declared). The default check set
// is read from the declarations too.
#include "checks/CheckRegistry.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/GlobList.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace clang::tidy::occlint;

namespace {

std::string readSourceFile(const std::string &Relative) {
  std::ifstream In(std::string(OCCLINT_SOURCE_DIR) + "/" + Relative);
  EXPECT_TRUE(In) << "cannot read " << Relative;
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

struct TableRow {
  std::string name; // the first cell's `cuda-...`
  std::string rest; // the first cell after the name ("(error)")
  std::vector<std::string> cells;
};

std::string trim(const std::string &S) {
  const size_t B = S.find_first_not_of(' ');
  const size_t E = S.find_last_not_of(' ');
  return B == std::string::npos ? "" : S.substr(B, E - B + 1);
}

// The rows of the first markdown table whose rows start with a `cuda-...`
// name (the check table; a page may have other tables of checks after it).
std::vector<TableRow> checkRows(const std::string &Markdown) {
  std::vector<TableRow> Rows;
  std::istringstream Lines(Markdown);
  std::string Line;
  while (std::getline(Lines, Line)) {
    if (Line.rfind("| `cuda-", 0) != 0) {
      if (!Rows.empty())
        break;
      continue;
    }
    TableRow Row;
    std::string Cell;
    std::istringstream Cells(Line.substr(1));
    while (std::getline(Cells, Cell, '|'))
      Row.cells.push_back(trim(Cell));
    const std::string &First = Row.cells.at(0);
    const size_t Close = First.find('`', 1);
    Row.name = First.substr(1, Close - 1);
    Row.rest = trim(First.substr(Close + 1));
    Rows.push_back(Row);
  }
  return Rows;
}

} // namespace

TEST(CheckRegistry, TheChecksIndexListsEveryDeclaredCheckInOrderWithItsSeverityAndDefault) {
  const std::vector<TableRow> Rows = checkRows(readSourceFile("docs/checks/README.md"));
  const auto Declarations = checkDeclarations();
  ASSERT_EQ(Rows.size(), Declarations.size()) << "docs/checks/README.md's table and checks/CheckRegistry.cpp differ";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const CheckDeclaration &D = Declarations[I];
    SCOPED_TRACE(D.name.str());
    EXPECT_EQ(Rows[I].name, D.name.str()) << "row " << I + 1 << " of the index names another check";
    ASSERT_GE(Rows[I].cells.size(), 4u);
    std::string Severity = Rows[I].cells[1];
    std::erase(Severity, '*');
    EXPECT_EQ(Severity, severityName(D.severity));
    EXPECT_EQ(Rows[I].cells[3], D.onByDefault ? "on" : "**off** in occlint");
    EXPECT_NE(Rows[I].cells.back().find("(" + D.name.str() + ".md)"), std::string::npos) << "the doc link";
  }
}

TEST(CheckRegistry, TheReadmeTableListsEveryDeclaredCheckWithItsSeverityAndDefault) {
  const std::vector<TableRow> Rows = checkRows(readSourceFile("README.md"));
  std::set<std::string> Listed;
  for (const TableRow &Row : Rows) {
    SCOPED_TRACE(Row.name);
    EXPECT_TRUE(Listed.insert(Row.name).second) << "listed twice";
    const CheckDeclaration *D = findCheckDeclaration(Row.name);
    ASSERT_NE(D, nullptr) << "README.md lists a check that is not declared";
    EXPECT_EQ(Row.rest.rfind("(error", 0) == 0, D->severity == CheckSeverity::Error) << Row.rest;
    EXPECT_EQ(Row.rest.rfind("(remark", 0) == 0, D->severity == CheckSeverity::Remark) << Row.rest;
    EXPECT_EQ(Row.rest.find("off by default") != std::string::npos, !D->onByDefault) << Row.rest;
    EXPECT_NE(Row.cells.back().find("docs/checks/" + D->name.str() + ".md"), std::string::npos) << "the doc link";
  }
  for (const CheckDeclaration &D : checkDeclarations())
    EXPECT_TRUE(Listed.count(D.name.str())) << D.name.str() << " is not in README.md's check table";
}

TEST(CheckRegistry, TheDefaultCheckSetIsEveryCheckDeclaredOnByDefault) {
  clang::tidy::GlobList Default(defaultChecksGlob());
  for (const CheckDeclaration &D : checkDeclarations())
    EXPECT_EQ(Default.contains(D.name), D.onByDefault) << D.name.str();
  EXPECT_FALSE(Default.contains("bugprone-use-after-move"));
}

TEST(CheckRegistry, TheModuleRegistersEveryDeclaredCheckAndNothingElse) {
  clang::tidy::ClangTidyCheckFactories Factories;
  registerOcclintChecks(Factories);
  std::set<std::string> Registered;
  for (const auto &Entry : Factories)
    Registered.insert(Entry.getKey().str());
  std::set<std::string> Declared;
  for (const CheckDeclaration &D : checkDeclarations())
    Declared.insert(D.name.str());
  EXPECT_EQ(Registered, Declared);
}

TEST(CheckRegistry, EachPrecedenceRowThatHasAWinnerHasExactlyOne) {
  for (LaunchFindingRow Row : {LaunchFindingRow::CannotStart, LaunchFindingRow::SmallGrid}) {
    int Winners = 0;
    for (const CheckDeclaration &D : checkDeclarations())
      Winners += D.row == Row;
    EXPECT_EQ(Winners, 1);
    EXPECT_FALSE(checkWinningRow(Row).empty());
  }
}
