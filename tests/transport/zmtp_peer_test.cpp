// `batfill serve` against hostile or broken ZMTP peers (docs/protocol.md §1.6), played with a
// raw Unix socket that writes the bytes of the protocol itself. Every wait is bounded.

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <zmq.hpp>

#include "batfill/transport/serve.hpp"
#include "ipc_endpoint.hpp"

namespace batfill::transport {
namespace {

using testing::IpcEndpoint;

using namespace std::chrono_literals;

constexpr auto kBound = 10s;  // generous bound on every wait; tests finish in well under it

const std::string kBegins =
    R"({"now":0,"events":[{"timestamp":0,"type":"SIMULATION_BEGINS","data":{"nb_compute_resources":2}}]})";
const std::string kEnds =
    R"({"now":1,"events":[{"timestamp":1,"type":"SIMULATION_ENDS","data":{}}]})";

// serve() on a thread of its own (whose id signals can target); its status and what it printed.
struct ServeThread {
  ServeThread(const std::string& endpoint, std::chrono::milliseconds timeout) {
    ServeOptions options;
    options.endpoint = endpoint;
    options.timeout = timeout;
    options.verbosity = adapter::Verbosity::kQuiet;
    std::promise<pthread_t> started;
    thread_id = started.get_future();
    thread = std::thread([this, options, promise = std::move(started)]() mutable {
      promise.set_value(pthread_self());
      done.set_value(serve(options, errors));
    });
    status = done.get_future();
  }
  ~ServeThread() {
    if (thread.joinable()) thread.join();
  }
  int wait() {
    if (status.wait_for(kBound) != std::future_status::ready) {
      ADD_FAILURE() << "serve did not return";
      std::abort();  // a detached serve() would outlive the test's objects
    }
    thread.join();
    return status.get();
  }
  std::ostringstream errors;
  std::promise<int> done;
  std::future<int> status;
  std::future<pthread_t> thread_id;
  std::thread thread;
};

// The peer's side of the connection, as raw bytes.
class RawPeer {
 public:
  explicit RawPeer(const std::string& endpoint) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = endpoint.substr(6);
    std::memcpy(address.sun_path, path.data(), path.size());
    fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    // serve binds on its thread: retry until it listens.
    const auto give_up = std::chrono::steady_clock::now() + kBound;
    while (connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      if (std::chrono::steady_clock::now() > give_up) throw std::runtime_error("cannot connect");
      std::this_thread::sleep_for(5ms);
    }
  }
  ~RawPeer() { close(); }
  RawPeer(const RawPeer&) = delete;
  RawPeer& operator=(const RawPeer&) = delete;
  // False once serve has closed the connection.
  bool write(const std::string& bytes) {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t sent = ::send(fd_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (sent <= 0) return false;
      at += static_cast<std::size_t>(sent);
    }
    return true;
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// A ZMTP 3.0 frame: flags, size (one byte, or eight with the "long" flag), body.
std::string frame(unsigned char flags, const std::string& body) {
  std::string bytes;
  if (body.size() <= 0xff) {
    bytes = {static_cast<char>(flags), static_cast<char>(body.size())};
  } else {
    bytes.push_back(static_cast<char>(flags | 0x02));
    for (int shift = 56; shift >= 0; shift -= 8)
      bytes.push_back(static_cast<char>((body.size() >> shift) & 0xff));
  }
  return bytes + body;
}

std::string command(const std::string& name, const std::string& data = "") {
  return frame(0x04, static_cast<char>(name.size()) + name + data);
}

// A greeting with major version `version`, NULL mechanism.
std::string greeting(unsigned char version = 3) {
  std::string bytes(64, '\0');
  bytes[0] = static_cast<char>(0xff);
  bytes[9] = 0x7f;
  bytes[10] = static_cast<char>(version);
  bytes.replace(12, 4, "NULL");
  return bytes;
}

std::string ready(const std::string& properties) { return command("READY", properties); }

std::string socket_type(const std::string& type) {
  return std::string("\x0bSocket-Type\0\0\0", 15) + static_cast<char>(type.size()) + type;
}

std::string hello(const std::string& type = "REQ") { return greeting() + ready(socket_type(type)); }

// A request as a REQ socket sends it: the empty delimiter, then the message.
std::string request(const std::string& message) { return frame(0x01, "") + frame(0x00, message); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The known hole: a DEALER-like peer sends routing frames, each well under the limit, without
// end. The limit is on the whole message (docs/protocol.md §1.4).
TEST(ZmtpPeer, EndlessRoutingFramesHitTheMessageLimit) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(hello("DEALER")));
  const std::string routing = frame(0x01, std::string(1 << 20, 'r'));
  for (int i = 0; i < 80 && peer.write(routing); ++i) {
  }
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(), "message #0 from " + ipc.endpoint +
                                                " is larger than 64 MiB (all its frames together)"))
      << server.errors.str();
}

TEST(ZmtpPeer, AHugeCommandHitsTheMessageLimit) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(hello() + std::string("\x06\0\0\x01\0\0\0\0\0", 9)));  // 1 TiB
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(
      contains(server.errors.str(), "message #0 from " + ipc.endpoint + " is larger than 64 MiB"))
      << server.errors.str();
}

// A version byte above 127 is a later ZMTP, not an earlier one (it is unsigned).
TEST(ZmtpPeer, AGreetingOfALaterVersionIsAccepted) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(
      peer.write(greeting(0x80) + ready(socket_type("REQ")) + request(kBegins) + request(kEnds)));
  EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
}

// A ZMTP 2 peer sends 11 bytes and waits for ours: it is named at once, not waited for.
TEST(ZmtpPeer, AnOlderZmtpIsNamedWithoutWaiting) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, 1h);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(greeting(1).substr(0, 11)));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(
      contains(server.errors.str(), "receiving message #0: the peer's ZMTP version is 1, before 3"))
      << server.errors.str();
}

TEST(ZmtpPeer, AReadyWithoutSocketTypeIsNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(greeting() + ready(std::string("\x08Identity\0\0\0\0", 13))));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(), "the peer's READY command names no Socket-Type"))
      << server.errors.str();
}

TEST(ZmtpPeer, ACommandInsteadOfReadyIsNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(greeting() + command("ERROR", "\x03no!")));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(),
                       "the peer sent the command 'ERROR' at byte 64 instead of its READY command"))
      << server.errors.str();
}

// PING (ZMTP 3.1 heartbeats) and commands batfill does not know, between messages, are ignored.
TEST(ZmtpPeer, CommandsBetweenMessagesAreIgnored) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(hello() + command("PING", std::string("\0\x0a", 2)) + request(kBegins) +
                         command("SOMETHING") + command("PING", std::string(300, 'c')) +
                         request(kEnds)));
  EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
}

TEST(ZmtpPeer, ACommandInsideAMessageIsNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  const std::string start = hello() + request(kBegins);
  ASSERT_TRUE(peer.write(start + frame(0x01, "") + command("PING") + frame(0x00, kEnds)));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(), "receiving message #1: the command 'PING' at byte " +
                                                std::to_string(start.size() + 2) +
                                                " inside a message"))
      << server.errors.str();
}

TEST(ZmtpPeer, ReservedFlagBitsAreNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  const std::string start = hello();
  ASSERT_TRUE(peer.write(start + std::string("\xf0\x00", 2)));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(), "receiving message #0: malformed ZMTP frame at byte " +
                                                std::to_string(start.size()) +
                                                ": flags 0xf0 (reserved bits set)"))
      << server.errors.str();
}

TEST(ZmtpPeer, ARequestInSeveralPartsIsNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(hello() + frame(0x01, "") + frame(0x01, kBegins) + frame(0x00, "x")));
  EXPECT_EQ(server.wait(), kServeSocketError);
  EXPECT_TRUE(contains(server.errors.str(), "receiving message #0: a request in several parts"))
      << server.errors.str();
}

// A peer that trickles a request, one byte at a time, each within the timeout, does not
// stretch the wait: the whole request must come within it (docs/protocol.md §1.3).
TEST(ZmtpPeer, ATrickledRequestTimesOut) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, 300ms);
  RawPeer peer(ipc.endpoint);
  ASSERT_TRUE(peer.write(hello()));
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    for (const char byte : request(kBegins)) {
      if (stop || !peer.write(std::string(1, byte))) return;
      std::this_thread::sleep_for(50ms);
    }
  });
  EXPECT_EQ(server.wait(), kServeTimeout) << server.errors.str();
  stop = true;
  trickle.join();
  EXPECT_TRUE(contains(server.errors.str(), "no message from Batsim for 0.3 s"))
      << server.errors.str();
}

// A peer that reads its reply slowly (here, an envelope of 8 MiB echoed back, at 200 kB/s)
// cannot hold serve past its timeout.
TEST(ZmtpPeer, APeerThatReadsRepliesTooSlowlyIsNamed) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, 1s);
  RawPeer peer(ipc.endpoint);
  std::string envelope;
  for (int i = 0; i < 8; ++i) envelope += frame(0x01, std::string((1 << 20) - 9, 'r'));
  ASSERT_TRUE(peer.write(hello("DEALER") + envelope + request(kBegins)));
  std::atomic<bool> stop{false};
  std::thread slow_reader([&] {
    char bytes[4096];
    while (!stop && ::recv(peer.fd(), bytes, sizeof bytes, 0) > 0) {
      std::this_thread::sleep_for(20ms);
    }
  });
  EXPECT_EQ(server.wait(), kServeSocketError);
  stop = true;
  peer.close();  // ends the reader's recv
  slow_reader.join();
  EXPECT_TRUE(contains(server.errors.str(), "replying to message #0: the peer took only "))
      << server.errors.str();
  EXPECT_TRUE(contains(server.errors.str(), "bytes within the timeout: is it reading?"))
      << server.errors.str();
}

// Once Batsim is connected, another connection waits unanswered and disturbs nothing; one
// closed before its handshake (a port probe) is forgotten.
TEST(ZmtpPeer, OtherConnectionsDoNotDisturbThePeer) {
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  { RawPeer probe(ipc.endpoint); }
  zmq::context_t context;
  zmq::socket_t batsim(context, zmq::socket_type::req);
  batsim.set(zmq::sockopt::linger, 0);
  batsim.set(zmq::sockopt::rcvtimeo, 10'000);
  batsim.connect(ipc.endpoint);
  batsim.send(zmq::buffer(kBegins));
  zmq::message_t reply;
  ASSERT_TRUE(batsim.recv(reply));
  RawPeer intruder(ipc.endpoint);
  (void)intruder.write(hello() + request(kEnds) + "garbage");
  batsim.send(zmq::buffer(
      std::string(R"({"now":1,"events":[{"timestamp":1,"type":"REQUESTED_CALL","data":{}}]})")));
  ASSERT_TRUE(batsim.recv(reply));
  EXPECT_EQ(reply.to_string(), R"({"now":1.000000,"events":[]})");
  batsim.send(zmq::buffer(kEnds));
  ASSERT_TRUE(batsim.recv(reply));
  EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
}

// Signals interrupt serve's system calls (poll, accept, recv, send) at every stage: each is
// resumed.
TEST(ZmtpPeer, InterruptedSystemCallsAreResumed) {
  struct sigaction action {};
  action.sa_handler = [](int) {};
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: calls fail with EINTR
  struct sigaction previous {};
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  const IpcEndpoint ipc;
  ServeThread server(ipc.endpoint, kBound);
  const pthread_t serving = server.thread_id.get();
  std::atomic<bool> stop{false};
  std::thread signals([&] {
    while (!stop) {
      pthread_kill(serving, SIGUSR1);
      std::this_thread::sleep_for(1ms);
    }
  });
  std::this_thread::sleep_for(30ms);  // serve waits for the peer under signals
  {
    RawPeer peer(ipc.endpoint);
    const std::string bytes = hello() + request(kBegins) + request(kEnds);
    for (const char byte : bytes) {
      EXPECT_TRUE(peer.write(std::string(1, byte)));
      if (byte == '{') std::this_thread::sleep_for(3ms);
    }
    // The thread must outlive the signals sent to it.
    const bool returned = server.status.wait_for(kBound) == std::future_status::ready;
    stop = true;
    signals.join();
    ASSERT_TRUE(returned);
    EXPECT_EQ(server.wait(), kServeDone) << server.errors.str();
  }
  sigaction(SIGUSR1, &previous, nullptr);
}

}  // namespace
}  // namespace batfill::transport
