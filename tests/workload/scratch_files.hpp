#pragma once
// Tiny workload files written by a test into its own temporary directory.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace batfill::workload::testing {

class ScratchFiles {
 public:
  ScratchFiles() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("batfill-workload-" + std::string(test->test_suite_name()) + "-" + test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ScratchFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ScratchFiles(const ScratchFiles&) = delete;
  ScratchFiles& operator=(const ScratchFiles&) = delete;

  // Writes `content` byte for byte to `name` and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace batfill::workload::testing
