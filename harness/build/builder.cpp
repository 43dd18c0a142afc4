// Variant builds: cmake configure once per folder (re-run when its arguments change), then an
// incremental build of the manifest's targets, a log per build and a hash per produced binary.
#include "harness/core/builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/core/sha256.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string last_lines(const std::string& text, int lines) {
  size_t pos = text.size();
  while (pos > 0 && lines >= 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
    --lines;
  }
  return text.substr(pos + 1);
}

// Runs a build tool, appending its output to `log`; returns true on exit 0.
bool run_tool(const std::vector<std::string>& argv, std::ofstream& log, bool verbose, std::string& output) {
  exec::process_options o;
  o.argv = argv;
  o.hardware_counters = false;
  o.stdout_limit = 16u << 20;
  const exec::process_result r = exec::run_process(o);
  std::string text = fmt::format("$ {}\n", fmt::join(argv, " "));
  if (!r.started) text += r.error + "\n";
  text += r.out.head;
  if (r.out.truncated) text += "\n[... output truncated ...]\n" + r.out.tail;
  text += r.err.head;
  if (r.err.truncated) text += "\n[... output truncated ...]\n" + r.err.tail;
  log << text << std::flush;
  if (verbose) fmt::print(stderr, "{}", text);
  output += text;
  return r.started && r.exit_code && *r.exit_code == 0;
}

std::string cache_value(const fs::path& cache, const std::string& key) {
  std::ifstream in(cache);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    const auto eq = line.find('=');
    if (colon != std::string::npos && eq != std::string::npos && line.compare(0, colon, key) == 0 && colon == key.size())
      return line.substr(eq + 1);
  }
  return {};
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first `name` on $PATH, or empty.
fs::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const fs::path candidate = fs::path(dirs.substr(start, colon - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return {};
}

}  // namespace

source_state read_source_state(const fs::path& dir) {
  source_state s;
  exec::process_options o;
  o.hardware_counters = false;
  o.argv = {"git", "-C", dir.string(), "rev-parse", "HEAD"};
  const auto head = exec::run_process(o);
  if (!head.started || head.exit_code != 0) return s;
  s.commit = head.out.head.substr(0, head.out.head.find('\n'));
  o.argv = {"git", "-C", dir.string(), "status", "--porcelain", "--untracked-files=no"};
  const auto status = exec::run_process(o);
  s.dirty = status.started && status.exit_code == 0 && !status.out.head.empty();
  return s;
}

builder::builder(const manifest& m, builder_options options) : m_(m), options_(std::move(options)) {
  if (options_.build_root.empty()) options_.build_root = m_.state_dir() / "build";
}

fs::path builder::folder(const variant& v) const { return options_.build_root / (v.folder_name(m_) + options_.folder_suffix); }

std::vector<std::string> builder::configure_command(const variant& v) const {
  std::vector<std::string> argv = {"cmake", "-S", m_.source_dir.string(), "-B", folder(v).string(),
                                   "-G", m_.build.generator, "-DCMAKE_BUILD_TYPE=" + m_.build.build_type};
  // ccache when present (DESIGN §5): variants share every object a toggle does not touch.
  static const fs::path ccache = find_on_path("ccache");
  if (!ccache.empty()) argv.push_back("-DCMAKE_CXX_COMPILER_LAUNCHER=" + ccache.string());
  for (const auto& arg : m_.build.cmake_args) argv.push_back(arg);
  for (const auto& arg : options_.extra_cmake_args) argv.push_back(arg);
  // Every toggle, off levels too, so a folder never keeps a level from an earlier configure.
  const auto levels = v.all_levels(m_);
  for (const auto& t : m_.toggles) argv.push_back(fmt::format("-D{}={}", t.option, levels.at(t.id)));
  return argv;
}

build_outcome builder::build(const variant& v) const {
  build_outcome out;
  out.v = v;
  out.key = v.key(m_);
  out.dir = folder(v);
  out.log_path = out.dir / "abtest-build.log";
  out.started_at_unix = now_unix();
  out.source = read_source_state(m_.source_dir);
  const auto t0 = std::chrono::steady_clock::now();

  fs::create_directories(out.dir);
  std::ofstream log(out.log_path, std::ios::trunc);
  std::string output;

  // The configure arguments are remembered beside the cache; a change (new cmake_args, a toggle
  // added to the manifest) reconfigures, anything else is an incremental build.
  const auto configure = configure_command(v);
  const std::string stamp_text = fmt::format("{}", fmt::join(configure, "\n"));
  const fs::path stamp = out.dir / "abtest-configure.txt";
  bool ok = true;
  if (!fs::exists(out.dir / "CMakeCache.txt") || !fs::exists(stamp) || read_file(stamp) != stamp_text) {
    out.configured_now = true;
    ok = run_tool(configure, log, options_.verbose, output);
    if (ok) std::ofstream(stamp, std::ios::trunc) << stamp_text;
    else fs::remove(stamp);
  }
  if (ok) {
    std::vector<std::string> argv = {"cmake", "--build", out.dir.string()};
    if (options_.jobs > 0) argv.insert(argv.end(), {"--parallel", std::to_string(options_.jobs)});
    if (!m_.build.targets.empty()) {
      argv.push_back("--target");
      for (const auto& t : m_.build.targets) argv.push_back(t);
    }
    ok = run_tool(argv, log, options_.verbose, output);
  }
  out.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.compiler = cache_value(out.dir / "CMakeCache.txt", "CMAKE_CXX_COMPILER");
  out.flags = cache_value(out.dir / "CMakeCache.txt", "CMAKE_CXX_FLAGS") + " " +
              cache_value(out.dir / "CMakeCache.txt", "CMAKE_CXX_FLAGS_" + [&] {
                std::string upper = m_.build.build_type;
                for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                return upper;
              }());
  if (ok) {
    std::string all;
    for (const auto& target : benchmark_programs(m_)) {
      const fs::path bin = out.dir / target;
      if (!fs::exists(bin)) {
        ok = false;
        output += fmt::format("abtest: the build succeeded but produced no {} — is \"{}\" a target of {}?\n", bin.string(),
                              target, m_.source_dir.string());
        continue;
      }
      const std::string hash = sha256_file(bin);
      out.binaries[target] = {bin, hash};
      all += target + "=" + hash + "\n";
    }
    out.binaries_digest = sha256_hex(all);
  }
  // A target the project does not define is the common first-run mistake (e.g. the pipeline not
  // written yet): name them instead of leaving the user to find ninja's line in the log.
  static const std::regex unknown_target("unknown target '([^']+)'");
  for (std::sregex_iterator it(output.begin(), output.end(), unknown_target), end; it != end; ++it)
    out.missing_targets.push_back((*it)[1]);
  out.ok = ok;
  out.log_tail = last_lines(output, 30);
  return out;
}

}  // namespace abtest
