#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"

namespace paradise {
namespace {

// RFC 4180: a field with a comma or a quote is quoted, quotes doubled; read back unchanged.
TEST(CsvField, QuotesWhatWouldSplitAndReadsBack) {
  EXPECT_EQ(csv_field("plain name"), "plain name");
  EXPECT_EQ(csv_field("in the group, across groups"), "\"in the group, across groups\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  const std::string line = csv_field("a,b") + "," + csv_field("c\"d") + ",e";
  EXPECT_EQ(split_csv_line(line, "t.csv", 1), (std::vector<std::string>{"a,b", "c\"d", "e"}));
}

// The kinds of a file, a directory and what is not there, and why a file cannot be written
// (the permission cases need a user other than root: tests/e2e/cli_test.sh runs them).
// RFC 3629: well-formed UTF-8 passes unchanged; a byte that starts no well-formed sequence
// (Latin-1 'é' 0xE9 alone, 0xFF, an overlong 0xC0 0xAF, a surrogate 0xED 0xA0 0x80, a
// sequence cut short) becomes U+FFFD, one per byte, so the JSON stays valid.
// The first byte that is not UTF-8, by the same rules (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), counted from 0 by hand.
TEST(Utf8, FirstInvalidByte) {
  EXPECT_EQ(first_invalid_utf8("caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac"),
            std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8("# caf\xe9\n"), 5u);
  EXPECT_EQ(first_invalid_utf8("ab\xc0\xaf"), 2u);
  EXPECT_EQ(first_invalid_utf8("\xc3\xa9\xed\xa0\x80"), 2u);
  EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0u);
  EXPECT_EQ(first_invalid_utf8("x\xe2\x82"), 1u);
}

TEST(JsonString, InvalidUtf8BecomesTheReplacementCharacter) {
  const auto json = [](std::string_view s) {
    std::ostringstream out;
    write_json_string(out, s);
    return out.str();
  };
  EXPECT_EQ(json("caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac"),
            "\"caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac\"");
  EXPECT_EQ(json("caf\xe9"), "\"caf\\ufffd\"");
  EXPECT_EQ(json("\xff"), "\"\\ufffd\"");
  EXPECT_EQ(json("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(json("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(json("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // past U+10FFFF
  EXPECT_EQ(json("x\xe2\x82"), "\"x\\ufffd\\ufffd\"");
  EXPECT_EQ(json("a\"b\\c\x01"), "\"a\\\"b\\\\c\\u0001\"");
}

TEST(PathStatus, NamesFilesDirectoriesAndMissingPathsWithoutThrowing) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("paradise_path_status_test." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "f.txt").string();
  std::ofstream(file) << "x";
  EXPECT_EQ(path_status(dir.string()).kind, PathKind::directory);
  EXPECT_EQ(path_status(file).kind, PathKind::file);
  EXPECT_EQ(path_status((dir / "nope").string()).kind, PathKind::missing);
  EXPECT_EQ(path_status(file + "/below-a-file").kind, PathKind::missing);
  EXPECT_EQ(path_status(std::string(5000, 'a')).kind, PathKind::missing);  // too long a name
  EXPECT_EQ(why_unwritable(file), "");
  EXPECT_EQ(why_unwritable((dir / "new.h5").string()), "");
  EXPECT_EQ(why_unwritable(dir.string()), "a directory");
  EXPECT_EQ(why_unwritable((dir / "no/x.h5").string()), "no directory " + (dir / "no").string());
  // a device is read like a file but never replaced (as root, -o /dev/null replaced it)
  EXPECT_EQ(path_status("/dev/null").kind, PathKind::special);
  EXPECT_EQ(why_unwritable("/dev/null"), "not a regular file: it would be replaced");
  std::filesystem::remove_all(dir);
}

TEST(ParseInt, AcceptsWholeNumbersWithSurroundingSpace) {
  EXPECT_EQ(parse_int(" 42 ", {"f", 1}, "k"), 42);
}

TEST(ParseInt, ErrorNamesFileLineKeyAndValue) {
  try {
    parse_int("4x", {"sweep.ini", 7}, "gpus");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "sweep.ini:7: gpus '4x': expected an integer");
  }
}

TEST(ParseInt, RejectsNegativeUnlessAllowedAndOverflow) {
  EXPECT_THROW(parse_int("-1", {}, "k"), InputError);
  EXPECT_EQ(parse_int("-1", {}, "k", true), -1);
  EXPECT_THROW(parse_int("99999999999999999999", {}, "k"), InputError);
}

TEST(ParseDims, SplitsOnXAndRejectsZero) {
  EXPECT_EQ(parse_dims("4x512x512x512", {}, "k"), (std::vector<std::int64_t>{4, 512, 512, 512}));
  EXPECT_THROW(parse_dims("3x0x2", {}, "k"), InputError);
  EXPECT_THROW(parse_dims("3xx2", {}, "k"), InputError);
  // a part that is no number is said with the whole shape (it quoted '-5' alone)
  try {
    parse_dims("3x224x-5", {"--input", 0}, "shape");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--input: shape '3x224x-5': '-5' is not a whole number: expected sizes AxBxC");
  }
}

TEST(ParseDouble, RejectsTrailingGarbageAndInfinity) {
  EXPECT_DOUBLE_EQ(parse_double("2.5e-3", {}, "t"), 2.5e-3);
  EXPECT_THROW(parse_double("1.0s", {}, "t"), InputError);
  EXPECT_THROW(parse_double("inf", {}, "t"), InputError);
}

TEST(WithCommas, GroupsThousands) {
  EXPECT_EQ(with_commas(25557032), "25,557,032");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(-1000), "-1,000");
}

// Excel's "CSV UTF-8" and Notepad start a file with EF BB BF; the first line then reads as
// written. Bytes that only begin like the mark stay.
TEST(Text, Utf8ByteOrderMarkIsSkipped) {
  std::istringstream marked("\xEF\xBB\xBFmodel,gpus\n");
  skip_utf8_bom(marked);
  std::string line;
  std::getline(marked, line);
  EXPECT_EQ(line, "model,gpus");
  std::istringstream plain("model\n");
  skip_utf8_bom(plain);
  std::getline(plain, line);
  EXPECT_EQ(line, "model");
  std::istringstream near("\xEF\xBBx\n");  // not a mark: every byte kept
  skip_utf8_bom(near);
  std::getline(near, line);
  EXPECT_EQ(line, "\xEF\xBBx");
}

std::string message_of(std::string_view value) {
  try {
    fail_input({"f.csv", 3}, "col", value, "bad");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Values are quoted as given when short and printable, UTF-8 included ("é" is 2 bytes).
TEST(InputMessage, QuotesShortValuesAsGiven) {
  EXPECT_EQ(message_of("résumé 3"), "f.csv:3: col 'résumé 3': bad");
}

// A binary file's bytes: the NUL, a newline, a tab and a lone 0xff byte (not UTF-8) are
// written \x00, \x0a, \t, \xff, so the terminal shows every byte and nothing else.
TEST(InputMessage, EscapesControlAndNonUtf8Bytes) {
  EXPECT_EQ(message_of(std::string_view("a\0b\nc\td\xff", 8)),
            "f.csv:3: col 'a\\x00b\\x0ac\\td\\xff': bad");
  // a truncated 3-byte sequence (0xe2 0x82 of "€") is two stray bytes
  EXPECT_EQ(message_of("\xe2\x82"), "f.csv:3: col '\\xe2\\x82': bad");
}

// Whole messages keep their newlines; what a terminal would act on is escaped: ESC (an
// escape sequence), U+0085 (a C1 control, C2 85), U+202E (right-to-left override, E2 80 AE),
// an overlong "/" (C0 AF) and a UTF-16 surrogate (ED A0 80); "×" (C3 97) stays.
TEST(Printable, EscapesWhatATerminalActsOn) {
  EXPECT_EQ(printable("a\nb \x1b[31mred"), "a\nb \\x1b[31mred");
  EXPECT_EQ(printable("a\nb", false), "a\\x0ab");
  EXPECT_EQ(printable("\xc2\x85|\xe2\x80\xae|\xc0\xaf|\xed\xa0\x80|\xc3\x97"),
            "\\xc2\\x85|\\xe2\\x80\\xae|\\xc0\\xaf|\\xed\\xa0\\x80|\xc3\x97");
}

// A 10,000-byte value (a whole unterminated line) is cut after 160 bytes, its length said.
TEST(InputMessage, CutsLongValuesSayingTheirLength) {
  EXPECT_EQ(message_of(std::string(10000, 'x')),
            "f.csv:3: col '" + std::string(160, 'x') + "... (10000 bytes)': bad");
}

}  // namespace
}  // namespace paradise
