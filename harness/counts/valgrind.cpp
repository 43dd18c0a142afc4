// The two Valgrind runs of a counts measurement, through the executor's process runner.
#include "harness/counts/valgrind.hpp"

#include <signal.h>
#include <stdlib.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "harness/counts/cachegrind_file.hpp"
#include "harness/counts/dhat_file.hpp"
#include "harness/exec/process.hpp"

namespace abtest::counts {

namespace {

constexpr std::size_t tail_lines = 15;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string_view> non_blank_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) lines.push_back(line);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return lines;
}

// The last `n` of `lines`, each on a line of its own and indented, for an error message.
std::string last_lines(const std::vector<std::string_view>& lines, std::size_t n) {
  std::string out;
  for (std::size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) {
    out += "\n    ";
    out += lines[i];
  }
  return out;
}

// What Valgrind's log says about the run: its lines without the "==pid== " prefix, the banner
// (up to "Parent PID:") and the tool's closing summary (from "I   refs:" / "Total:") left out,
// and so are the warnings of its host cache detection (an explicit --LL overrides what it found),
// so that what remains is a crash report, a warning or nothing.
std::vector<std::string_view> valgrind_messages(std::string_view log) {
  std::vector<std::string_view> all;
  for (std::string_view line : non_blank_lines(log)) {
    if ((line.starts_with("==") || line.starts_with("--")) && line.size() > 2) {
      const std::size_t end = line.find(line.substr(0, 2), 2);
      if (end != std::string_view::npos) line.remove_prefix(end + 2);
    }
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.starts_with("I   refs:") || line.starts_with("Total:")) break;
    if (line.starts_with("Parent PID:")) {
      all.clear();
      continue;
    }
    const bool cache_detection = line.starts_with("warning:") &&
                                 (line.find(" cache found,") != std::string_view::npos ||
                                  line.find(" LL cache:") != std::string_view::npos);
    if (!line.empty() && !cache_detection) all.push_back(line);
  }
  return all;
}

// The scratch folder of one measurement; a temporary one is removed with everything in it.
class scratch_folder {
 public:
  explicit scratch_folder(const std::filesystem::path& wanted, std::string& error) {
    std::error_code ec;
    if (!wanted.empty()) {
      path_ = wanted;
      std::filesystem::create_directories(path_, ec);
      if (ec) error = fmt::format("cannot create {}: {} — choose a writable folder", path_.string(), ec.message());
      return;
    }
    std::string templ = (std::filesystem::temp_directory_path(ec) / "abtest-counts-XXXXXX").string();
    if (ec || !::mkdtemp(templ.data())) {
      error = fmt::format("cannot create a temporary folder: {} — set TMPDIR to a writable folder",
                          ec ? ec.message() : std::strerror(errno));
      return;
    }
    path_ = templ;
    temporary_ = true;
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ignored;
    if (temporary_) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::filesystem::path path_;
  bool temporary_ = false;
};

std::string geometry_flag(const char* name, const std::optional<cache_geometry>& g) {
  return fmt::format("--{}={},{},{}", name, g->size, g->assoc, g->line);
}

std::string not_installed(const std::string& valgrind, const std::string& why) {
  return fmt::format("cannot run {} ({}) — install Valgrind (apt-get install valgrind), or name it "
                     "with its full path", valgrind, why);
}

// One Valgrind run; on failure fills `result` and returns false. `keep_log` is the log's path when
// it outlives the measurement (a caller's scratch folder), else empty.
bool run_tool(const counts_options& o, const std::string& tool, std::vector<std::string> tool_flags,
              const std::filesystem::path& log, const std::filesystem::path& keep_log, counts_result& result,
              exec::process_result& run) {
  exec::process_options p;
  p.argv = {o.valgrind, "--tool=" + tool, "--log-file=" + log.string()};
  p.argv.insert(p.argv.end(), tool_flags.begin(), tool_flags.end());
  p.argv.insert(p.argv.end(), o.argv.begin(), o.argv.end());
  p.working_dir = o.working_dir;
  p.env = o.env;
  p.timeout_s = o.timeout_s;
  p.hardware_counters = false;
  run = exec::run_process(p);
  const std::string program = o.argv.empty() ? "?" : std::filesystem::path(o.argv[0]).filename().string();
  const std::string log_text = read_file(log);
  std::string tails = fmt::format("; its stderr ends:{}", last_lines(non_blank_lines(run.err.tail), tail_lines));
  if (tails.ends_with(':')) tails = "; it wrote nothing on stderr";
  if (const auto messages = valgrind_messages(log_text); !messages.empty())
    tails += fmt::format("\n  Valgrind says:{}", last_lines(messages, tail_lines));
  if (!keep_log.empty()) tails += fmt::format("\n  Valgrind's whole log: {}", keep_log.string());
  if (!run.started) {
    result.error = not_installed(o.valgrind, run.error);
  } else if (run.timed_out) {
    result.error = fmt::format("{} ran past its timeout of {} s under {} — Valgrind runs 20–100× slower "
                               "than native: raise timeout_s, or measure counts on a smaller preset{}",
                               program, o.timeout_s, tool, tails);
  } else if (run.signal) {
    result.error = fmt::format("{} was killed by signal {} ({}) under {} — run it without Valgrind to see "
                               "whether it crashes there too{}", program, *run.signal,
                               ::strsignal(*run.signal), tool, tails);
  } else if (run.exit_code != 0) {
    result.error = fmt::format("{} exited with code {} under {} — run it without Valgrind to see whether "
                               "it fails there too{}", program, run.exit_code.value_or(-1), tool, tails);
  } else if (!run.error.empty()) {
    result.error = run.error;
  } else {
    return true;
  }
  result.exit_code = run.exit_code;
  result.signal = run.signal;
  return false;
}

}  // namespace

std::optional<std::string> valgrind_version(const std::string& valgrind, std::string& error) {
  exec::process_options p;
  p.argv = {valgrind, "--version"};
  p.hardware_counters = false;
  p.timeout_s = 60;
  const exec::process_result r = exec::run_process(p);
  if (!r.started) {
    error = not_installed(valgrind, r.error);
    return std::nullopt;
  }
  std::string version = r.out.head;
  while (!version.empty() && (version.back() == '\n' || version.back() == '\r')) version.pop_back();
  if (r.exit_code != 0 || !version.starts_with("valgrind-")) {
    error = fmt::format("{} --version printed '{}' (exit {}) — is it Valgrind? Install it with apt-get "
                        "install valgrind", valgrind, version, r.exit_code.value_or(-1));
    return std::nullopt;
  }
  return version;
}

namespace {

// With same_argv0: a link to the program in a fresh folder, named as the program is, so that both
// arms run under one argv[0] (and one path length); false with result.error set when it cannot.
bool link_argv0(const counts_options& o, std::optional<scratch_folder>& folder, counts_options& run, counts_result& result) {
  folder.emplace(std::filesystem::path(), result.error);
  if (!result.error.empty()) return false;
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::absolute(
      o.working_dir.empty() ? std::filesystem::path(o.argv[0]) : o.working_dir / o.argv[0], ec);
  const std::filesystem::path link = folder->path() / target.filename();
  if (!ec) std::filesystem::create_symlink(target, link, ec);
  if (ec) {
    result.error = fmt::format("cannot link {} as {}: {} — set TMPDIR to a writable folder, or turn "
                               "same_argv0 off", target.string(), link.string(), ec.message());
    return false;
  }
  run.argv[0] = link.string();
  return true;
}

// The whole program under cachegrind, or only the region under callgrind (same simulation).
std::vector<std::string> cache_sim_flags(const counts_options& o, const std::string& tool, const std::filesystem::path& out) {
  std::vector<std::string> flags = {"--cache-sim=yes", "--branch-sim=yes", "--" + tool + "-out-file=" + out.string()};
  if (!o.region.empty()) {
    flags.insert(flags.end(), {"--collect-atstart=no", "--toggle-collect=" + o.region, "--compress-strings=no",
                               "--compress-pos=no"});
  }
  if (o.i1) flags.push_back(geometry_flag("I1", o.i1));
  if (o.d1) flags.push_back(geometry_flag("D1", o.d1));
  if (o.ll) flags.push_back(geometry_flag("LL", o.ll));
  return flags;
}

// DHAT's totals and sites added to `c`; false with result.error set when it failed.
bool add_allocations(const counts_options& run, const scratch_folder& scratch, const std::filesystem::path& kept_log,
                     count_set& c, counts_result& result) {
  exec::process_result process;
  const std::filesystem::path dhat_out = scratch.path() / "dhat.json";
  if (!run_tool(run, "dhat", {"--dhat-out-file=" + dhat_out.string()}, scratch.path() / "dhat.log", kept_log, result,
                process))
    return false;
  result.dhat_wall_s = process.usage.wall_s;
  dhat_profile dhat = parse_dhat(read_file(dhat_out));
  if (!dhat.error.empty()) {
    result.error = fmt::format("{}: {}", dhat_out.string(), dhat.error);
    return false;
  }
  c.totals["alloc_blocks"] = dhat.blocks;
  c.totals["alloc_bytes"] = dhat.bytes;
  c.totals["alloc_peak_blocks"] = dhat.peak_blocks;
  c.totals["alloc_peak_bytes"] = dhat.peak_bytes;
  c.alloc_sites = std::move(dhat.sites);
  return true;
}

}  // namespace

counts_result run_counts(const counts_options& o) {
  counts_result result;
  if (o.argv.empty()) {
    result.error = "no command to measure — give the benchmark's argv";
    return result;
  }
  const auto version = valgrind_version(o.valgrind, result.error);
  if (!version) return result;
  scratch_folder scratch(o.scratch_dir, result.error);
  if (!result.error.empty()) return result;
  const auto kept = [&](const std::string& name) {
    return scratch.temporary() ? std::filesystem::path() : scratch.path() / name;
  };
  counts_options run = o;
  std::optional<scratch_folder> link_folder;
  if (o.same_argv0 && o.argv[0].find('/') != std::string::npos && !link_argv0(o, link_folder, run, result)) return result;

  const std::string tool = o.region.empty() ? "cachegrind" : "callgrind";
  const std::filesystem::path cg_out = scratch.path() / (tool + ".out");
  exec::process_result process;
  const std::string log = tool + ".log";
  if (!run_tool(run, tool, cache_sim_flags(o, tool, cg_out), scratch.path() / log, kept(log), result, process))
    return result;
  result.cachegrind_wall_s = process.usage.wall_s;
  result.program_stdout = std::move(process.out.head);
  cachegrind_profile cg = parse_cachegrind(read_file(cg_out));
  if (!cg.error.empty()) {
    result.error = fmt::format("{}: {}", cg_out.string(), cg.error);
    return result;
  }
  if (!o.region.empty() && cg.totals["Ir"] == 0) {
    result.error = fmt::format("no instruction ran inside a function matching '{}' — check the name as "
                               "`nm -C {}` spells it (a pattern: * and ? are wildcards, e.g. 'ns::f*'); "
                               "a function inlined everywhere has no calls to collect", o.region, o.argv[0]);
    return result;
  }

  count_set c;
  c.totals = std::move(cg.totals);
  c.functions = std::move(cg.functions);
  c.cache_config = std::move(cg.cache_config);
  c.command = std::move(cg.command);
  c.valgrind_version = *version;
  c.region = o.region;
  if (o.allocations && !add_allocations(run, scratch, kept("dhat.log"), c, result)) return result;
  result.counts = std::move(c);
  return result;
}

}  // namespace abtest::counts
