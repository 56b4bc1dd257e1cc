#pragma once
// A message batfill cannot accept, and where in the exchange it is.
//
// Each layer adds what it knows as data: a codec the event (its index and type in the message
// it parsed) and the field, the adapter the event it was applying, a session the message
// number and, for Batsim 5, the event's index and type in Batsim 5's own message (the adapter
// counts the events of the translated message, which leaves out those batfill ignores). The
// text, "message #3: event 2 (JOB_COMPLETED): missing string field 'job_id'", is made only
// when it is shown.

#include <cstddef>
#include <exception>
#include <optional>
#include <string>

namespace batfill::protocol {

class ProtocolError : public std::exception {
 public:
  // `problem` says what is wrong in a sentence that names the field when there is one, e.g.
  // "missing string field 'job_id'"; `field` is that field's path ("job.res"), "" for none.
  explicit ProtocolError(std::string problem, std::string field = "")
      : problem_(std::move(problem)), field_(std::move(field)) {}

  struct EventAt {
    std::size_t index = 0;
    std::string type;  // as the wire names it; "" when the error is in the type itself
  };

  // The event the error is in, replacing any event set before.
  ProtocolError& in_event(std::size_t index, std::string type) {
    event_ = EventAt{index, std::move(type)};
    text_.clear();
    return *this;
  }
  // The number of the message the error is in (0 for a Batsim capture's first).
  ProtocolError& in_message(long number) {
    message_ = number;
    text_.clear();
    return *this;
  }

  const std::string& problem() const { return problem_; }
  const std::string& field() const { return field_; }
  const std::optional<EventAt>& event() const { return event_; }
  const std::optional<long>& message() const { return message_; }

  // "[message #K: ][event N[ (TYPE)]: ]problem".
  const char* what() const noexcept override;

 private:
  std::string problem_;
  std::string field_;
  std::optional<EventAt> event_;
  std::optional<long> message_;
  mutable std::string text_;  // what(), made on its first call
};

}  // namespace batfill::protocol
