#pragma once
// One replay run in this process, as `batfill simulate` runs it, its outputs kept in memory
// (docs/python.md). The wiring of src/cli/main.cpp's simulate for the in-process scheduler.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/simulator/memory_outputs.hpp"

namespace batfill::python {

struct ReplayRequest {
  std::string workload_path;  // a trace file, as `simulate WORKLOAD`; or
  std::string workload_json;  // a Batsim JSON workload's text, labelled workload_path in errors
  std::string platform_file;
  std::optional<int> nodes;
  std::string settings_json;  // a JSON object of settings, as --sched-cfg ("" for none)
  // A policy made by the caller instead of the settings' `backfill` (null: the settings').
  adapter::BatsimAdapter::PolicyFactory make_policy;
  std::string policy_name;  // the made policy's name, for the summary and errors
  double load_factor = 1;
  std::optional<std::string> shake;  // "SEED[:PCT]"
  std::string resize_label;          // --resize's file name, or a label for resize_csv
  std::optional<std::string> resize_csv;
  bool reject_missing_walltime = false;
};

struct ReplayResult {
  simulator::JobColumns jobs;                     // _jobs.csv
  std::map<std::string, std::string> schedule;   // _schedule.csv's keys and value texts
  std::string resizes_csv;                        // PREFIX_resizes.csv ("" without requests)
  std::string summary_text;                         // the lines the CLI prints
  simulator::ScheduleMetrics metrics;
  std::map<std::string, int> rejection_reasons;
  std::vector<simulator::QueueMetrics> queues;
  simulator::ResizeFigures resizes;
  std::string scheduler;  // "batfill easy, order fcfs, alloc lowest"
  std::string transforms;
  std::size_t records = 0;
};

// Throws std::invalid_argument for bad settings or transforms, std::runtime_error for an
// unusable workload or platform, each with the CLI's message.
ReplayResult replay(const ReplayRequest& request);

}  // namespace batfill::python
