#pragma once
// The ZeroMQ REP socket `batfill serve --protocol batsim5` answers Batsim 5 on: the request
// channel of adapter::serve_batsim5, with serve's timeout and notice of a peer that died
// (docs/protocol.md §1.4).

#include <chrono>
#include <memory>
#include <string>

#include "batfill/adapter/batsim5_session.hpp"

namespace batfill::cli {

class ZmqRequestChannel : public adapter::RequestChannel {
 public:
  // Binds `endpoint`; throws std::runtime_error naming it when it cannot.
  ZmqRequestChannel(std::string endpoint, std::chrono::milliseconds timeout);
  ~ZmqRequestChannel() override;

  Received receive(std::string& request, std::string& problem) override;
  bool send(std::string_view reply) override;
  std::string name() const override { return endpoint_; }

 private:
  struct Sockets;
  std::string endpoint_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<Sockets> sockets_;
  int peers_ = 0;          // connections open now
  bool had_peer_ = false;  // a peer connected once
};

}  // namespace batfill::cli
