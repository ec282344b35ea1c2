// The one INI reader in both dialects: system files (strict) and sweep files (the syntax
// Boost.Program_options' config-file parser accepted, which read them before).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "paradise/core/ini.hpp"

namespace paradise {
namespace {

std::string system_error(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_ini(in, "x.system");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string sweep_error(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_dotted_ini(in, "x.ini");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(IniLine, CutsTheDialectsCommentsAndBlanks) {
  const IniLine system = read_ini_line(" key = a ; b", kSystemIniSyntax);
  EXPECT_EQ(system.kind, IniLine::Kind::entry);
  EXPECT_EQ(system.name, "key");
  EXPECT_EQ(system.value, "a");
  const IniLine sweep = read_ini_line(" key = a ; b # c", kSweepIniSyntax);
  EXPECT_EQ(sweep.value, "a ; b");  // ';' starts no comment in a sweep file
  EXPECT_EQ(read_ini_line("\f", kSystemIniSyntax).kind, IniLine::Kind::blank);
  EXPECT_EQ(read_ini_line("\f", kSweepIniSyntax).kind, IniLine::Kind::other);
  const IniLine section = read_ini_line("  [ level.x ]  # a comment", kSweepIniSyntax);
  EXPECT_EQ(section.kind, IniLine::Kind::section);
  EXPECT_EQ(section.name, "level.x");
}

TEST(SystemIni, ReadsSectionsAndEntriesWithTheirLines) {
  std::istringstream in("# a system\n[system]\nname = x ; its name\n\n[gpu]\nmemory_GB = 16\n");
  const auto sections = parse_ini(in, "x.system");
  ASSERT_EQ(sections.size(), 2U);
  EXPECT_EQ(sections[0].name, "system");
  EXPECT_EQ(sections[0].line, 2);
  ASSERT_EQ(sections[0].entries.size(), 1U);
  EXPECT_EQ(sections[0].entries[0].value, "x");
  EXPECT_EQ(sections[0].entries[0].line, 3);
  EXPECT_EQ(sections[1].entries[0].key, "memory_GB");
}

TEST(SystemIni, RefusesEachMalformedLineAtItsLine) {
  EXPECT_EQ(system_error("[system\n"), "x.system:1: section '[system': expected [name]");
  EXPECT_EQ(system_error("[]\n"), "x.system:1: section '[]': expected [name]");
  EXPECT_EQ(system_error("[level.]\n"), "x.system:1: section '[level.]': expected [name]");
  EXPECT_EQ(system_error("[a]\n[b]\n[a]\n"),
            "x.system:3: section '[a]': given twice (first at line 1)");
  EXPECT_EQ(system_error("[a]\nkey\n"), "x.system:2: line 'key': expected key = value");
  EXPECT_EQ(system_error("k = v\n"), "x.system:1: line 'k = v': entry before the first [section]");
  EXPECT_EQ(system_error("[a]\n= v\n"), "x.system:2: line '= v': empty key");
  EXPECT_EQ(system_error("[a]\nk = 1\nk = 2\n"),
            "x.system:3: k '2': key given twice in this section");
}

TEST(SweepIni, NamesEachEntrySectionDotKeyAsBoostDid) {
  std::istringstream in(
      "top = 1\n[ sweep ]  # spaced\nmodel = a ; b\n[sweep.x]\nk = 2\n[sweep.]\nm = 3\n"
      "[sweep]\nmodel = c\n");
  const auto entries = parse_dotted_ini(in, "x.ini");
  ASSERT_EQ(entries.size(), 5U);
  EXPECT_EQ(entries[0].name, "top");
  EXPECT_EQ(entries[0].section, "");
  EXPECT_EQ(entries[1].name, "sweep.model");
  EXPECT_EQ(entries[1].value, "a ; b");
  EXPECT_EQ(entries[1].line, 3);
  EXPECT_EQ(entries[2].name, "sweep.x.k");
  EXPECT_EQ(entries[2].section, "sweep.x");
  EXPECT_EQ(entries[3].name, "sweep.m");  // [sweep.] is [sweep]
  EXPECT_EQ(entries[3].section, "sweep");
  EXPECT_EQ(entries[4].name, "sweep.model");  // repeated: the caller decides
  EXPECT_EQ(entries[4].line, 9);
}

TEST(SweepIni, KeepsAValueWithoutAKey) {
  std::istringstream in("[sweep]\n= 5\n");
  const auto entries = parse_dotted_ini(in, "x.ini");
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(entries[0].name, "sweep.");
  EXPECT_EQ(entries[0].value, "5");
}

TEST(SweepIni, RefusesTheFileAtTheFirstSuspectLineAfterReadingItAll) {
  const std::string want = ": expected [section], key = value, a # comment or a blank line";
  EXPECT_EQ(sweep_error("[sweep]\nmodel\n"), "x.ini:2: line 'model'" + want);
  EXPECT_EQ(sweep_error("[sweep]\n; a comment\n"), "x.ini:2: line '; a comment'" + want);
  // an unclosed bracket with '=' is an entry, but names the error when another line is bad
  EXPECT_EQ(sweep_error("[a=b\n"), "");
  EXPECT_EQ(sweep_error("[sweep]\n[a=b # c\nmodel\n"), "x.ini:2: line '[a=b # c'" + want);
}

}  // namespace
}  // namespace paradise
