#include "batfill/transport/edc_library.hpp"

#include <dlfcn.h>

#include <exception>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "batfill/common/foreign_call.hpp"
#include "batfill/common/text.hpp"
#include "edc_exchange.hpp"

namespace batfill::transport {
namespace {

using Init = std::uint8_t (*)(const std::uint8_t*, std::uint32_t, std::uint32_t*, std::uint8_t**,
                              std::uint32_t*);

void* symbol(void* handle, const std::string& path, const char* name) {
  void* address = dlsym(handle, name);
  if (address == nullptr) {
    throw std::runtime_error("EDC library '" + path + "' has no function " + name);
  }
  return address;
}

// A reply as batprotocol's JSON format has it: a C string, whose size may count its NUL.
std::string_view reply_text(const std::uint8_t* data, std::uint32_t size) {
  if (data == nullptr) return {};
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// Some EDCs throw C++ exceptions out of the C API (Batsim's examples do on a bad init string);
// Batsim reports them, and so does the stand-in, naming the library and the function.
template <typename Call>
std::uint8_t call_edc(const std::string& path, const char* function, long message, Call&& call) {
  const std::string given = message < 0 ? "" : ", given message #" + std::to_string(message);
  const ForeignCall inside(std::string(function) + " of EDC library '" + path + "'" + given);
  try {
    return call();
  } catch (const std::exception& e) {
    throw std::runtime_error("EDC library '" + path + "': " + function + " threw: " + e.what());
  }
}

}  // namespace

EdcLibrary::EdcLibrary(const std::string& path, const std::string& init) : path_(path) {
  report_foreign_crashes();
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    throw std::runtime_error("cannot load EDC library '" + path + "': " + dlerror());
  }
  try {
    const auto initialise = reinterpret_cast<Init>(symbol(handle_, path, "batsim_edc_init"));
    take_decisions_ =
        reinterpret_cast<TakeDecisions>(symbol(handle_, path, "batsim_edc_take_decisions"));
    deinit_ = reinterpret_cast<Deinit>(symbol(handle_, path, "batsim_edc_deinit"));
    std::uint32_t flags = 0;
    std::uint8_t* data = nullptr;
    std::uint32_t size = 0;
    const std::uint8_t code = call_edc(path, "batsim_edc_init", -1, [&] {
      return initialise(reinterpret_cast<const std::uint8_t*>(init.data()),
                        static_cast<std::uint32_t>(init.size()), &flags, &data, &size);
    });
    if (code != 0) {
      throw std::runtime_error("EDC library '" + path + "': batsim_edc_init returned " +
                               std::to_string(code) + " for init string " + excerpt(init));
    }
    require_json_format(flags, "EDC library '" + path + "'");
    hello_ = protocol::batsim5::decode_hello(reply_text(data, size));
  } catch (const protocol::ProtocolError& e) {
    dlclose(handle_);
    throw std::runtime_error("EDC library '" + path + "': its reply to init: " + e.what());
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

EdcLibrary::~EdcLibrary() {
  try {
    (void)call_edc(path_, "batsim_edc_deinit", -1, [this] { return deinit_(); });
  } catch (const std::exception& e) {
    std::cerr << "batfill: warning: " << e.what() << '\n';
  }
  dlclose(handle_);
}

protocol::Message EdcLibrary::exchange(const protocol::Message& request) {
  const long index = index_++;
  const std::string text = edc_request(request, hello_);
  std::uint8_t* data = nullptr;
  std::uint32_t size = 0;
  const std::uint8_t code = call_edc(path_, "batsim_edc_take_decisions", index, [&] {
    return take_decisions_(reinterpret_cast<const std::uint8_t*>(text.c_str()),
                           static_cast<std::uint32_t>(text.size() + 1), &data, &size);
  });
  const std::string where = "EDC library '" + path_ + "', message #" + std::to_string(index);
  if (code != 0) {
    throw std::runtime_error(where + ": batsim_edc_take_decisions returned " +
                             std::to_string(code));
  }
  return edc_decisions(reply_text(data, size), where);
}

}  // namespace batfill::transport
