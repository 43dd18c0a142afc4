// The bundle folder: programs deduplicated by digest, their libraries beside them, the plan with
// paths inside the folder, the runner and its README.
#include "harness/bundle/bundle_writer.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <map>
#include <stdexcept>

#include "harness/bundle/bundle_plan.hpp"
#include "harness/bundle/shared_libraries.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/variant.hpp"

namespace abtest::bundle {
namespace fs = std::filesystem;

namespace {

std::string utc_now() {
  const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Prepares an empty `dir`: created, or emptied when it holds an earlier bundle.
void prepare_folder(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir) && !fs::is_empty(dir)) {
    if (!fs::exists(dir / "plan.json") || !fs::exists(dir / "run"))
      throw std::runtime_error(fmt::format("{} exists and is not a bundle — give --bundle a new or empty folder", dir.string()));
    fs::remove_all(dir, ec);
  }
  fs::create_directories(dir / "bin", ec);
  if (!ec) fs::create_directories(dir / "lib", ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {} — give --bundle a folder you can write", dir.string(), ec.message()));
}

class file_copier {
 public:
  file_copier(const fs::path& dir, bundle_plan& plan) : dir_(dir), plan_(plan) {}

  // Copies `from` to `to` (relative to the folder) unless a file of the same content is there
  // already; returns where the content is.
  std::string program(const fs::path& from, const fs::path& to) {
    const std::string digest = sha256_file(from);
    if (const auto it = by_digest_.find(digest); it != by_digest_.end()) return it->second;
    copy(from, to, digest);
    by_digest_[digest] = to.generic_string();
    for (const auto& lib : bundled_libraries(from)) library(lib);
    return to.generic_string();
  }

  void library(const shared_library& lib) {
    const fs::path to = fs::path("lib") / lib.name;
    const std::string digest = sha256_file(lib.path);
    if (const auto it = plan_.files.find(to.generic_string()); it != plan_.files.end()) {
      if (it->second != digest)
        throw std::runtime_error(fmt::format("two different {} are loaded by the arms' programs ({} and an earlier one) — "
                                             "one bundle holds one library of a name: build the arms against the same one",
                                             lib.name, lib.path.string()));
      return;
    }
    copy(lib.path, to, digest);
    ++libraries;
  }

  int libraries = 0;

 private:
  void copy(const fs::path& from, const fs::path& to, const std::string& digest) {
    std::error_code ec;
    fs::create_directories((dir_ / to).parent_path(), ec);
    if (!ec) fs::copy_file(from, dir_ / to, fs::copy_options::overwrite_existing, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot copy {} into {}: {} — free space or pick another --bundle folder",
                                                 from.string(), dir_.string(), ec.message()));
    plan_.files[to.generic_string()] = digest;
  }

  const fs::path& dir_;
  bundle_plan& plan_;
  std::map<std::string, std::string> by_digest_;  // program content → its file in the folder
};

std::string readme(const bundle_plan& p) {
  return fmt::format(
      "abtest bundle of experiment {} ({}), made {} by:\n  {}\n\n"
      "On the host that measures (no compiler needed; for CUDA plans, the NVIDIA driver):\n"
      "  ./run --check              check the host: every program loads, digests match, devices found\n"
      "  ./run [--out OUT]          run the schedule ({} arms x {} benchmark(s), {} warm-up + {} rounds, seed {})\n"
      "                             into OUT/results.db (default: out/ in this folder)\n"
      "  ./run --budget-s S         stop after the round that passes S seconds (partial); run again to resume\n\n"
      "Exit codes: 0 complete, 1 partial (budget: run again), 2 bad plan or flags, 4 a benchmark failed or\n"
      "an arm was INVALID, 5 the host check refused, 6 OUT cannot be written (what was measured stays).\n\n"
      "Back where abtest is: `abtest import OUT` brings the experiment into the results store and prints\n"
      "its verdicts; `abtest show`, `compare`, `report` and `history` then work on it.\n",
      p.experiment_id, p.project, p.created_at, p.command_line, p.plan.arms.size(), p.plan.benchmarks.size(), p.plan.warmups,
      p.plan.rounds, p.plan.seed);
}

std::uintmax_t folder_bytes(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) bytes += e.file_size();
  return bytes;
}

}  // namespace

bundle_summary write_bundle(const fs::path& dir, const manifest& m, const bundle_request& request) {
  prepare_folder(dir);
  bundle_plan p;
  p.experiment_id = request.experiment_id;
  p.project = m.project;
  p.command_line = request.command_line;
  p.created_at = utc_now();
  p.plan = request.plan;
  p.config = request.experiment_config;
  p.toggles = m.toggles;
  for (const auto& name : p.plan.benchmarks) p.benchmarks.push_back(*m.find_benchmark(name));
  std::vector<std::string> programs;  // the programs the benchmarks run
  for (const auto& b : p.benchmarks)
    for (const auto& t : benchmark_programs(m, b))
      if (std::find(programs.begin(), programs.end(), t) == programs.end()) programs.push_back(t);

  file_copier files(dir, p);
  for (auto& arm : p.plan.arms) {
    const fs::path folder = fs::path("bin") / variant{arm.levels}.folder_name(m);
    std::map<std::string, fs::path> inside;
    for (const auto& t : programs) {
      const auto it = arm.programs.find(t);
      const fs::path from = it != arm.programs.end() ? it->second : arm.bin / t;
      if (!fs::exists(from)) throw std::runtime_error(fmt::format("{} of {} is not there — build it (abtest build)", from.string(), arm.key));
      inside[t] = files.program(from, folder / t);
    }
    arm.bin = folder;
    arm.programs = std::move(inside);
    arm.build_id.reset();
  }
  std::error_code ec;
  fs::copy_file(request.runner, dir / "run", fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot copy the runner {} into {}: {} — build the harness (./abtest builds it)",
                                               request.runner.string(), dir.string(), ec.message()));
  for (const auto& lib : bundled_libraries(request.runner)) files.library(lib);  // none when it links as it should

  for (const auto& [name, text] : {std::pair{"plan.json", p.to_json().dump(2) + "\n"}, std::pair{"README.txt", readme(p)}}) {
    std::ofstream out(dir / name);
    out << text;
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {} — free space or pick another --bundle folder", (dir / name).string()));
  }
  bundle_summary s;
  s.programs = static_cast<int>(std::count_if(p.files.begin(), p.files.end(), [](const auto& f) { return f.first.rfind("bin/", 0) == 0; }));
  s.libraries = files.libraries;
  s.bytes = folder_bytes(dir);
  return s;
}

}  // namespace abtest::bundle
