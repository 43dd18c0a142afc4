// The real executor: one process invocation → one sample.
#include "harness/exec/executor.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/exec/process.hpp"

namespace abtest::exec {

namespace {
std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev != nullptr ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

void add_process_metrics(sample& s, const std::string& bench, const process_result& r) {
  const auto add = [&](std::string_view name, double value) {
    s.metrics.emplace(fmt::format("{}.{}", bench, name), value);
  };
  add("wall_s", r.usage.wall_s);
  add("user_s", r.usage.user_s);
  add("sys_s", r.usage.sys_s);
  add("maxrss_mib", r.usage.maxrss_mib);
  add("minflt", r.usage.minflt);
  add("majflt", r.usage.majflt);
  add("nvcsw", r.usage.nvcsw);
  add("nivcsw", r.usage.nivcsw);
  if (r.usage.max_threads > 0) add("threads", r.usage.max_threads);
  for (const auto& [name, value] : r.counters) add(name, value);
}

std::string command_line(const std::vector<std::string>& argv) { return fmt::format("{}", fmt::join(argv, " ")); }

constexpr std::string_view out_placeholder = "{out}";

std::string with_out(std::string text, const std::string& out) {
  for (std::size_t at = text.find(out_placeholder); at != std::string::npos; at = text.find(out_placeholder, at + out.size()))
    text.replace(at, out_placeholder.size(), out);
  return text;
}

// The folder that holds one run's `{out}`: made fresh, removed with everything in it.
class out_folder {
 public:
  out_folder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "abtest-out-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error(fmt::format("cannot make a folder for {{out}} under {}: {} — set TMPDIR to a writable "
                                           "folder", std::filesystem::temp_directory_path().string(), ::strerror(errno)));
    dir_ = pattern;
  }
  out_folder(const out_folder&) = delete;
  out_folder& operator=(const out_folder&) = delete;
  ~out_folder() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  // The path the program writes (a file or a folder); not created.
  std::filesystem::path out() const { return dir_ / "out"; }

 private:
  std::filesystem::path dir_;
};
}  // namespace

sample run_benchmark(const benchmark_invocation& inv) {
  sample s;
  const output_format_row* format = find_output_format(inv.format);
  if (format == nullptr) {
    s.status = sample_status::failed;
    s.error = fmt::format("unknown output format '{}' — use one of: {}", inv.format, output_format_names());
    return s;
  }
  process_options options;
  options.argv = inv.argv;
  options.working_dir = inv.working_dir;
  options.env = inv.env;
  // `{out}`: a fresh path for this run, in the command or in an env the format sets.
  const auto names_out = [](const std::string& text) { return text.find(out_placeholder) != std::string::npos; };
  std::optional<out_folder> folder;
  if (std::any_of(inv.argv.begin(), inv.argv.end(), names_out) ||
      std::any_of(format->env.begin(), format->env.end(), [&](const auto& e) { return names_out(e.second); })) {
    try {
      folder.emplace();
    } catch (const std::runtime_error& e) {
      s.status = sample_status::failed;
      s.error = e.what();
      return s;
    }
    for (auto& arg : options.argv) arg = with_out(arg, folder->out().string());
  }
  for (const auto& [name, value] : format->env)
    if (!options.env.contains(name)) options.env[name] = folder ? with_out(value, folder->out().string()) : value;
  options.pin = inv.pin;
  options.timeout_s = inv.timeout_s;
  options.stdout_limit = inv.stdout_limit;
  options.hardware_counters = inv.hardware_counters;
  options.watch_threads = inv.watch_threads;
  const process_result r = run_process(options);

  s.started_at = std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::duration<double>(r.started_at_unix)));
  s.duration_s = 0.0;
  if (!r.started) {
    s.status = sample_status::failed;
    s.error = r.error;
    return s;
  }
  s.exit_code = r.exit_code;
  s.signal = r.signal;
  s.duration_s = r.usage.wall_s;

  nlohmann::json process_context = {
      {"argv", options.argv},  // as run: {out} filled in
      {"pin", inv.pin},
      {"stdout_bytes", r.out.total_bytes},
      {"stdout_truncated", r.out.truncated},
      {"stderr_bytes", r.err.total_bytes},
      {"hardware_counters", r.counters.empty() ? nlohmann::json(r.counters_unavailable.empty()
                                                                    ? "not requested"
                                                                    : r.counters_unavailable)
                                               : nlohmann::json("available")},
  };

  if (!r.error.empty()) {
    s.status = sample_status::failed;
    s.error = r.error;
  } else if (r.timed_out) {
    s.status = sample_status::timeout;
    s.error = fmt::format("{} ran past its timeout of {} s and was killed with its process group — raise "
                          "the benchmark's timeout_s or use smaller params", inv.bench, inv.timeout_s);
  } else if (r.signal) {
    s.status = sample_status::crashed;
    s.error = fmt::format("{} was killed by {} — run `{}` by hand (or under gdb) to see why", inv.bench,
                          signal_name(*r.signal), command_line(inv.argv));
  } else if (std::find(inv.ok_exit_codes.begin(), inv.ok_exit_codes.end(), r.exit_code.value_or(-1)) == inv.ok_exit_codes.end()) {
    s.status = sample_status::failed;
    s.error = fmt::format("{} exited with code {} — run `{}` by hand to see why (a program that exits non-zero on "
                          "success: list the code in the benchmark's \"ok_exit_codes\")",
                          inv.bench, r.exit_code.value_or(-1), command_line(inv.argv));
  } else {
    parsed_output p = format->parse(inv.bench, inv.options,
                                    format_input{r.out.head, r.err.head, folder ? folder->out() : std::filesystem::path()});
    s.status = p.status;
    s.error = std::move(p.error);
    if (p.status != sample_status::ok && r.out.truncated)
      s.error += fmt::format(" (stdout was cut at {} bytes of {}: print less, or raise the stdout limit)",
                             r.out.head.size(), r.out.total_bytes);
    s.metrics = std::move(p.metrics);
    s.checks = std::move(p.checks);
    s.backend = std::move(p.backend);
    s.context = std::move(p.context);
  }
  if (!s.context.is_object()) s.context = nlohmann::json::object();
  s.context["abtest_process"] = std::move(process_context);
  add_process_metrics(s, inv.bench, r);
  return s;
}

}  // namespace abtest::exec
