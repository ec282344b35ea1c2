// write_file_atomically: the old file is kept, byte for byte, when a write fails (issue 35:
// calibrate -o truncated the file in place on a full disk, then removed it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "paradise/core/atomic_file.hpp"
#include "paradise/core/error.hpp"

namespace paradise {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory per test, removed after it.
class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("paradise_atomic_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

TEST_F(AtomicFile, ReplacesTheFileWhole) {
  const fs::path target = dir_ / "x.system";
  std::ofstream(target) << "old contents\n";
  write_file_atomically(target.string(), "new\n", "-o");
  EXPECT_EQ(read_all(target), "new\n");
  EXPECT_EQ(entries(), 1U);  // no temporary left beside it
}

TEST_F(AtomicFile, AFailedWriteKeepsTheOldFileAndNamesTheCause) {
  const fs::path target = dir_ / "x.system";
  const std::string old_contents = "[gpu]\nname = old\n";
  std::ofstream(target) << old_contents;
  // a disk that fills after 3 bytes: part of the content written, then ENOSPC
  const WriteBytes full_disk = [](int fd, std::string_view bytes) {
    write_all(fd, bytes.substr(0, 3));
    errno = ENOSPC;
    return false;
  };
  try {
    write_file_atomically(target.string(), "a much longer new content\n", "-o", full_disk);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "-o '" + target.string() + "': cannot write the file: No space left on device");
  }
  EXPECT_EQ(read_all(target), old_contents);
  EXPECT_EQ(entries(), 1U);  // the temporary removed, nothing else touched
}

TEST_F(AtomicFile, AMissingDirectoryIsNamedWithTheCause) {
  const fs::path target = dir_ / "no" / "x.system";
  try {
    write_file_atomically(target.string(), "x", "--layer-times-out");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

TEST_F(AtomicFile, ALinkAtTheTargetIsReplacedNotFollowed) {
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "keep me\n";
  fs::create_symlink(victim, dir_ / "x.system");
  write_file_atomically((dir_ / "x.system").string(), "new\n", "-o");
  EXPECT_EQ(read_all(victim), "keep me\n");
  EXPECT_FALSE(fs::is_symlink(dir_ / "x.system"));
  EXPECT_EQ(read_all(dir_ / "x.system"), "new\n");
}

}  // namespace
}  // namespace paradise
