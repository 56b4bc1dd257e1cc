#pragma once
// An ipc:// endpoint in a private temporary directory, removed afterwards, for the transport
// tests: nothing else on the machine can take or see it.

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace batfill::transport::testing {

struct IpcEndpoint {
  explicit IpcEndpoint(const std::string& name = "s") {
    std::string path = (std::filesystem::temp_directory_path() / "batfill-ipc-XXXXXX").string();
    if (mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir = path;
    endpoint = "ipc://" + path + "/" + name;
  }
  ~IpcEndpoint() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  IpcEndpoint(const IpcEndpoint&) = delete;
  IpcEndpoint& operator=(const IpcEndpoint&) = delete;

  std::filesystem::path dir;
  std::string endpoint;
};

}  // namespace batfill::transport::testing
