// The unit tests' main: each process (ctest runs every test as its own, two at a time) gets
// a temporary folder of its own, inside the system's (TMPDIR), so tests that write fixed file
// names there (testing::TempDir() reads TEST_TMPDIR; std::filesystem::temp_directory_path()
// reads TMPDIR) never read another process's half-written file. A normal exit removes it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

int main(int argc, char** argv) {
  std::error_code error;
  std::filesystem::path base = std::filesystem::temp_directory_path(error);
  if (error) base = "/tmp";
  std::string dir = (base / "paradise-unit-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr || ::setenv("TEST_TMPDIR", dir.c_str(), 1) != 0 ||
      ::setenv("TMPDIR", dir.c_str(), 1) != 0) {
    std::perror("unit_tests: a private temporary folder");
    return 2;
  }
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  std::filesystem::remove_all(dir, error);
  return rc;
}
