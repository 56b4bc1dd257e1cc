#include "batfill/simulator/outputs.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

#include "batfill/common/csv_field.hpp"
#include "batfill/common/text.hpp"

namespace batfill::simulator {
namespace {

// Batsim writes doubles with C++'s std::to_string: fixed, 6 decimals, as printf's "%.6f" and
// std::to_chars print them (the exact value, rounded). NaN is written "nan" whatever its
// sign bit, where to_chars would write "-nan".
void append_fixed6(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  // The longest text: a sign, the 309 integral digits of the largest double, "." and 6 decimals.
  char buffer[1 + std::numeric_limits<double>::max_exponent10 + 1 + 1 + 6];
  const char* end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 6).ptr;
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

std::string fixed6(double value) {
  std::string text;
  append_fixed6(text, value);
  return text;
}

void append_int(std::string& out, int value) {
  char digits[16];
  const char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, static_cast<std::size_t>(end - digits));
}

void append_time_or_none(std::string& out, Time t) {
  if (t == kNoTimeLimit) {
    out += "-1.000000";
  } else {
    append_seconds(out, t);
  }
}

// Rows are written to the stream in blocks of about this size.
constexpr std::size_t kWriteBlock = 1 << 16;

constexpr const char* kJobsHeader =
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
    "requested_time,success,final_state,starting_time,execution_time,finish_time,"
    "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n";

void append_job_row(std::string& rows, const JobRecord& job) {
  append_csv_field(rows, job.job.id);
  rows += ',';
  append_csv_field(rows, job.workload_name);
  rows += ',';
  append_csv_field(rows, job.profile);
  rows += ',';
  append_seconds(rows, job.job.submit_time);
  rows += ',';
  append_int(rows, job.job.nodes);
  rows += ',';
  append_time_or_none(rows, job.job.time_limit);
  rows += job.state == FinalState::kCompletedSuccessfully ? ",1," : ",0,";
  rows += state_name(job.state);
  rows += ',';
  if (job.executed()) {
    const Time execution = job.execution_time();
    const Time turnaround = job.turnaround_time();
    for (const Time t :
         {job.start_time, execution, job.finish_time, job.waiting_time(), turnaround}) {
      append_seconds(rows, t);
      rows += ',';
    }
    // A job that never waited has a stretch of exactly 1: no double to format.
    if (turnaround == execution) {
      rows += "1.000000";
    } else {
      append_fixed6(rows, job.stretch());
    }
    rows += ',';
    append_machine_set(rows, job.machines);
  } else {
    rows += ",,,,,,";
  }
  rows += ',';
  // -1 without --energy, as batfill's own runs always wrote it.
  if (job.consumed_energy) {
    append_fixed6(rows, *job.consumed_energy);
  } else {
    rows += "-1";
  }
  // Quoted, as Batsim writes it; SET_JOB_METADATA refuses a text with a double quote.
  rows += ",\"";
  rows += job.metadata;
  rows += "\"\n";
}

}  // namespace

// Rows are appended to one buffer, field by field without temporaries, and written in blocks:
// streaming field by field dominated large traces.
JobsCsvWriter::JobsCsvWriter(std::ostream& out) : out_(out) {
  out_ << kJobsHeader;
  rows_.reserve(kWriteBlock + 1024);
}

JobsCsvWriter::~JobsCsvWriter() { flush(); }

void JobsCsvWriter::write(const JobRecord& job) {
  append_job_row(rows_, job);
  if (rows_.size() >= kWriteBlock) flush();
}

void JobsCsvWriter::flush() {
  out_ << rows_;
  rows_.clear();
}

void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs) {
  JobsCsvWriter writer(out);
  for (const JobRecord& job : jobs) writer.write(job);
}

void RejectionReasons::add(const JobRecord& job) {
  if (!job.executed()) ++groups_[job.rejection.why()];
}

QueueFigures::QueueFigures(std::shared_ptr<const QueueConfig> config)
    : config_(std::move(config)), sums_(config_->queues.size()) {
  for (std::size_t i = 0; i < sums_.size(); ++i) sums_[i].name = config_->queues[i].name;
}

void QueueFigures::add(const JobRecord& job) {
  const int index = config_->queue_index(job.job.queue);
  if (!job.executed() || index < 0) return;
  QueueMetrics& queue = sums_[static_cast<std::size_t>(index)];
  const double run = to_seconds(job.execution_time());
  ++queue.jobs;
  queue.mean_waiting_time += to_seconds(job.waiting_time());
  queue.mean_bounded_slowdown +=
      std::max(1.0, to_seconds(job.turnaround_time()) / std::max(run, 10.0));
}

std::vector<QueueMetrics> QueueFigures::metrics() const {
  std::vector<QueueMetrics> queues = sums_;
  for (QueueMetrics& queue : queues) {
    if (queue.jobs == 0) continue;
    queue.mean_waiting_time /= queue.jobs;
    queue.mean_bounded_slowdown /= queue.jobs;
  }
  return queues;
}

RunFigures::RunFigures(std::shared_ptr<const QueueConfig> queue_config) {
  if (queue_config) queues.emplace(std::move(queue_config));
}

void RunFigures::add(const JobRecord& job) {
  metrics.add(job);
  reasons.add(job);
  resizes.add(job);
  if (queues) queues->add(job);
}

namespace {

// Without --energy Batsim's energy keys hold zeros, the machines idle whenever they compute no
// job; with it, the power model's figures.
void add_energy_keys(std::map<std::string, std::string>& row, const ScheduleMetrics& m,
                     const RunInfo& run) {
  if (!run.energy) {
    const double computing = m.busy_node_seconds;
    const double platform_seconds = m.machine_count * to_seconds(m.makespan);
    row["consumed_joules"] = fixed6(0);
    row["nb_grouped_switches"] = "0";
    row["nb_machine_switches"] = "0";
    row["time_computing"] = fixed6(computing);
    row["time_idle"] = fixed6(platform_seconds - computing);
    for (const char* key : {"time_sleeping", "time_switching_off", "time_switching_on"}) {
      row[key] = fixed6(0);
    }
    return;
  }
  const EnergyFigures& energy = *run.energy;
  const auto seconds = [&](MachineState state) {
    return fixed6(energy.seconds_in_state[static_cast<std::size_t>(state)]);
  };
  row["consumed_joules"] = fixed6(energy.consumed_joules);
  row["nb_grouped_switches"] = std::to_string(energy.nb_grouped_switches);
  row["nb_machine_switches"] = std::to_string(energy.nb_machine_switches);
  row["time_computing"] = seconds(MachineState::kComputing);
  row["time_idle"] = seconds(MachineState::kIdle);
  row["time_sleeping"] = seconds(MachineState::kSleeping);
  row["time_switching_off"] = seconds(MachineState::kSwitchingOff);
  row["time_switching_on"] = seconds(MachineState::kSwitchingOn);
}

}  // namespace

std::map<std::string, std::string> schedule_row(const ScheduleMetrics& m, const RunInfo& run) {
  std::map<std::string, std::string> row = {
      {"batsim_version", run.version},
      {"makespan", format_seconds(m.makespan)},
      {"max_slowdown", fixed6(m.max_slowdown)},
      {"max_turnaround_time", fixed6(m.max_turnaround_time)},
      {"max_waiting_time", fixed6(m.max_waiting_time)},
      {"mean_bounded_slowdown", fixed6(m.mean_bounded_slowdown)},
      {"mean_slowdown", fixed6(m.mean_slowdown)},
      {"mean_turnaround_time", fixed6(m.mean_turnaround_time)},
      {"mean_waiting_time", fixed6(m.mean_waiting_time)},
      {"nb_computing_machines", std::to_string(m.machine_count)},
      {"nb_jobs", std::to_string(m.jobs)},
      {"nb_jobs_finished", std::to_string(m.jobs_executed)},
      {"nb_jobs_killed", std::to_string(m.jobs_executed - m.jobs_succeeded)},
      {"nb_jobs_rejected", std::to_string(m.jobs_rejected)},
      {"nb_jobs_success", std::to_string(m.jobs_succeeded)},
      {"scheduling_time", fixed6(run.scheduling_seconds)},
      {"simulation_time", fixed6(run.simulation_seconds)},
      {"success_rate", fixed6(m.jobs > 0 ? static_cast<double>(m.jobs_succeeded) / m.jobs : 0)},
      {"time_unavailable", fixed6(0)},
      {"utilization", fixed6(m.utilization)},
  };
  add_energy_keys(row, m, run);
  if (!run.load_factor.empty()) row["load_factor"] = run.load_factor;
  if (!run.shake.empty()) row["shake"] = run.shake;
  if (run.queues) {
    for (const QueueMetrics& queue : run.queue_figures) {
      row["queue_" + queue.name + "_nb_jobs_finished"] = std::to_string(queue.jobs);
      row["queue_" + queue.name + "_mean_waiting_time"] = fixed6(queue.mean_waiting_time);
      row["queue_" + queue.name + "_mean_bounded_slowdown"] = fixed6(queue.mean_bounded_slowdown);
    }
  }
  return row;
}

void write_schedule_csv(std::ostream& out, const ScheduleMetrics& m, const RunInfo& run) {
  std::string header, values;
  for (const auto& [key, value] : schedule_row(m, run)) {
    header += (header.empty() ? "" : ",") + key;
    values += (values.empty() ? "" : ",") + value;
  }
  out << header << '\n' << values << '\n';
}

void write_summary(std::ostream& out, const RejectionReasons& rejections, const ScheduleMetrics& m,
                   const RunInfo& run) {
  char line[256];
  std::snprintf(line, sizeof line, "jobs: %d executed, %d rejected (of %d)\n", m.jobs_executed,
                m.jobs_rejected, m.jobs);
  out << line;
  if (m.jobs_walltime_reached > 0) {
    out << "  " << count_of(m.jobs_walltime_reached, "executed job")
        << " stopped at their time limit\n";
  }
  // Grouped, so 10,000 identical reasons read as one line.
  const std::map<std::string, int>& reasons = rejections.groups();
  int shown = 0;
  for (const auto& [why, count] : reasons) {
    if (++shown > 10) {
      out << "  ... and " << reasons.size() - 10 << " other reasons (see the log)\n";
      break;
    }
    out << "  rejected " << count << ": " << why << '\n';
  }
  std::snprintf(line, sizeof line,
                "makespan: %s s\nutilization: %.2f%%\nmean wait: %.1f s (executed jobs)\n"
                "mean bounded slowdown (tau = 10 s): %.4f\n"
                "wall time: %.3f s (reading %.3f s, scheduling %.3f s)\n"
                "CPU time: %.3f s (reading %.3f s)\n",
                format_seconds(m.makespan).c_str(), 100.0 * m.utilization,
                m.mean_waiting_time_executed, m.mean_bounded_slowdown, run.simulation_seconds,
                run.reading_seconds, run.scheduling_seconds, run.cpu_seconds,
                run.reading_cpu_seconds);
  out << line;
  if (run.energy) {
    std::snprintf(line, sizeof line,
                  "energy: %.6f J from the first submission to the last job's end, %lld machine "
                  "switches in %lld decisions\n",
                  run.energy->consumed_joules, run.energy->nb_machine_switches,
                  run.energy->nb_grouped_switches);
    out << line;
  }
  if (!run.queues) return;
  for (const QueueMetrics& queue : run.queue_figures) {
    std::snprintf(line, sizeof line,
                  "queue %s: %s executed, mean wait %.1f s, mean bounded slowdown %.4f\n",
                  queue.name.c_str(), count_of(queue.jobs, "job").c_str(), queue.mean_waiting_time,
                  queue.mean_bounded_slowdown);
    out << line;
  }
}

namespace {

// A file is written under this suffix and renamed to its name once the run has ended: a name
// without it always holds a whole run (docs/reliability.md, interrupted runs).
constexpr const char* kPartial = ".partial";

std::ofstream open_output(const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    throw std::runtime_error("cannot write output file '" + path + "': " + std::strerror(errno));
  }
  return file;
}

void check_written(const std::ofstream& file, const std::string& path) {
  if (!file) {
    throw std::runtime_error("error while writing output file '" + path +
                             "': " + std::strerror(errno));
  }
}

// Like Batsim's export prefix, a prefix in a directory that does not exist yet creates it.
std::string with_directory(const std::string& prefix) {
  const std::filesystem::path directory = std::filesystem::path(prefix).parent_path();
  std::error_code error;
  if (!directory.empty()) std::filesystem::create_directories(directory, error);
  return prefix;
}
}  // namespace

OutputFiles::OutputFiles(const std::string& prefix, std::shared_ptr<const QueueConfig> queues,
                         bool resizes, bool energy)
    : prefix_(with_directory(prefix)),
      jobs_file_(open_output(partial(kJobs))),
      jobs_(jobs_file_),
      figures_(std::move(queues)) {
  if (energy) {
    for (std::size_t i = 0; i < kEnergyFiles.size(); ++i) {
      energy_files_[i] = open_output(partial(kEnergyFiles[i]));
    }
    power_traces_.emplace(energy_files_[0], energy_files_[1], energy_files_[2]);
  }
  if (!resizes) return;
  resizes_file_ = open_output(partial(kResizes));
  resizes_.emplace(resizes_file_);
}

// A run that did not finish leaves none of its files; the last whole run's stay untouched.
OutputFiles::~OutputFiles() {
  if (finished_) return;
  jobs_file_.close();
  resizes_file_.close();
  std::error_code ignored;
  for (const char* file : {kJobs, kSchedule, kResizes}) {
    std::filesystem::remove(partial(file), ignored);
  }
  for (std::size_t i = 0; i < kEnergyFiles.size(); ++i) {
    energy_files_[i].close();
    std::filesystem::remove(partial(kEnergyFiles[i]), ignored);
  }
}

std::string OutputFiles::partial(const char* file) const { return prefix_ + file + kPartial; }

void OutputFiles::job_ended(const JobRecord& job) {
  jobs_.write(job);
  // A full disk stops the run at once, not after hours of simulation.
  check_written(jobs_file_, partial(kJobs));
  figures_.add(job);
  if (resizes_) resizes_->write(job);
}

std::string OutputFiles::names() const {
  std::string names = prefix_ + "_jobs.csv, " + prefix_ + "_schedule.csv";
  if (resizes_) names += ", " + prefix_ + "_resizes.csv";
  if (power_traces_) {
    for (const char* file : kEnergyFiles) names += ", " + prefix_ + file;
  }
  return names;
}

void OutputFiles::finish(const ScheduleMetrics& metrics, RunInfo& run) {
  if (figures_.queues) run.queue_figures = figures_.queues->metrics();
  jobs_.flush();
  jobs_file_.close();
  check_written(jobs_file_, partial(kJobs));
  if (resizes_) {
    resizes_file_.close();
    check_written(resizes_file_, partial(kResizes));
  }
  if (power_traces_) {
    for (std::size_t i = 0; i < kEnergyFiles.size(); ++i) {
      energy_files_[i].close();
      check_written(energy_files_[i], partial(kEnergyFiles[i]));
    }
  }
  std::ofstream schedule_file = open_output(partial(kSchedule));
  write_schedule_csv(schedule_file, metrics, run);
  schedule_file.close();
  check_written(schedule_file, partial(kSchedule));
  publish();
  finished_ = true;
}

// Every file of the run takes its name, and a file of an earlier run under the same prefix that
// this run does not write goes: no prefix holds files of two runs side by side.
void OutputFiles::publish() {
  for (const char* file : {kJobs, kResizes, kSchedule}) {
    const std::string name = prefix_ + file;
    std::error_code error;
    if (file == kResizes && !resizes_) {
      std::filesystem::remove(name, error);
    } else {
      std::filesystem::rename(partial(file), name, error);
    }
    if (error) {
      throw std::runtime_error("cannot make output file '" + name + "': " + error.message());
    }
  }
  for (const char* file : kEnergyFiles) {
    const std::string name = prefix_ + file;
    std::error_code error;
    if (power_traces_) {
      std::filesystem::rename(partial(file), name, error);
    } else {
      std::filesystem::remove(name, error);
    }
    if (error) {
      throw std::runtime_error("cannot make output file '" + name + "': " + error.message());
    }
  }
}

}  // namespace batfill::simulator
