#include "batfill/common/foreign_call.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace batfill {
namespace {

constexpr std::array<int, 5> kFatalSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// Everything the handler reads is set before the call, so it only copies bytes out.
char what_text[2048];
std::size_t what_length = 0;
volatile std::sig_atomic_t inside = 0;
std::array<struct sigaction, kFatalSignals.size()> replaced{};
// A stack of its own: an EDC that overflows its stack still gets its last words.
alignas(16) char alternate_stack[64 * 1024];

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV (invalid memory access)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic error)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    default:
      return "SIGABRT (abort)";
  }
}

void write_all(const char* text, std::size_t length) {
  while (length > 0) {
    const ssize_t written = write(STDERR_FILENO, text, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    text += written;
    length -= static_cast<std::size_t>(written);
  }
}

void write_text(const char* text) { write_all(text, std::strlen(text)); }

std::size_t index_of(int signal) {
  for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
    if (kFatalSignals[i] == signal) return i;
  }
  return 0;
}

extern "C" void on_fatal_signal(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = replaced[index_of(signal)];
  if (inside == 0) {
    if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
      previous.sa_sigaction(signal, info, context);
      return;
    }
    if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler != SIG_DFL &&
        previous.sa_handler != SIG_IGN) {
      previous.sa_handler(signal);
      return;
    }
  } else {
    write_text("\nbatfill: fatal signal ");
    write_text(signal_name(signal));
    write_text(" inside ");
    write_all(what_text, what_length);
    write_text(": the library crashed, batfill did not\n");
  }
  // Dies of the signal, as it would have without this handler.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

bool installed(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == on_fatal_signal;
}

}  // namespace

void report_foreign_crashes() {
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
    struct sigaction previous {};
    sigaction(kFatalSignals[i], &action, &previous);
    if (!installed(previous)) replaced[i] = previous;
  }
}

ForeignCall::ForeignCall(std::string_view what) {
  what_length = std::min(what.size(), sizeof what_text);
  std::memcpy(what_text, what.data(), what_length);
  inside = 1;
}

ForeignCall::~ForeignCall() { inside = 0; }

}  // namespace batfill
