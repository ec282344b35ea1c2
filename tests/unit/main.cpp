// The unit tests' main: each process (ctest runs every test as its own, two at a time) gets
// a temporary folder of its own, so tests that write fixed file names there
// (testing::TempDir(), which reads TEST_TMPDIR) never read another process's half-written
// file. The folder is removed at exit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

int main(int argc, char** argv) {
  std::string dir = (std::filesystem::temp_directory_path() / "paradise-unit-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr || ::setenv("TEST_TMPDIR", dir.c_str(), 1) != 0) {
    std::perror("unit_tests: a private temporary folder");
    return 2;
  }
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return rc;
}
