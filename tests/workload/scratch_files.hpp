#pragma once
// Tiny workload files written by a test into its own temporary directory.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "batfill/workload/workload.hpp"

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

// The message of the error read_workload throws for `path`, "" if it does not throw.
inline std::string error_reading(const std::string& path) {
  try {
    read_workload(path);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace batfill::workload::testing
