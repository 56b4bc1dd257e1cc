#pragma once
// Last words when foreign code crashes: while batfill is inside a call into a library it did not
// write (a Batsim 5 EDC), a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) prints one
// line naming the library, the call and the message it was given, then kills the process with
// that signal as before (docs/reliability.md, a crashing EDC library). The handler writes only
// text formatted before the call, with write(2): async-signal-safe.

#include <string_view>

namespace batfill {

// Installs the handler of the fatal signals. Call it again after anything that installs its
// own (SimGrid's engine does): outside foreign calls the handler hands the signal to the one it
// replaced, so SimGrid's own reports stay.
void report_foreign_crashes();

// Marks the span of one foreign call. `what` says which ("batsim_edc_take_decisions of EDC
// library 'x.so', given message #3"); it is copied, cut at about 2000 bytes.
class ForeignCall {
 public:
  explicit ForeignCall(std::string_view what);
  ~ForeignCall();
  ForeignCall(const ForeignCall&) = delete;
  ForeignCall& operator=(const ForeignCall&) = delete;
};

}  // namespace batfill
