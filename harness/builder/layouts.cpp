// Relinking a built program with seeded section orders.
#include "harness/builder/layouts.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "harness/core/sha256.hpp"
#include "harness/exec/process.hpp"

namespace abtest {

namespace {

std::string tail_of(const exec::process_result& r) {
  std::string text = r.err.tail.empty() ? r.err.head : r.err.tail;
  if (text.empty()) text = r.out.tail.empty() ? r.out.head : r.out.tail;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / program)) return true;
  }
  return false;
}

// The word after the last " -o " of a link line: where the linker writes the program.
std::pair<std::size_t, std::size_t> output_token(const std::string& line) {
  const std::size_t at = line.rfind(" -o ");
  if (at == std::string::npos) return {std::string::npos, 0};
  const std::size_t begin = at + 4;
  const std::size_t end = line.find(' ', begin);
  return {begin, (end == std::string::npos ? line.size() : end) - begin};
}

}  // namespace

std::uint64_t layout_seed(std::uint64_t experiment_seed, const std::string& variant_key, int k) {
  const std::string digest = sha256_hex(fmt::format("abtest-layout\n{}\n{}\n{}", experiment_seed, variant_key, k));
  std::uint64_t seed = std::stoull(digest.substr(0, 15), nullptr, 16);  // 60 bits: never −1
  return seed == 0 ? 1 : seed;
}

std::string link_command(const std::filesystem::path& build_dir, const std::string& target) {
  if (!std::filesystem::exists(build_dir / "build.ninja")) {
    throw std::runtime_error(fmt::format("error: --layouts links again through Ninja, and {} has no build.ninja — set "
                                         "\"generator\": \"Ninja\" in the manifest's build section",
                                         build_dir.string()));
  }
  exec::process_options o;
  o.argv = {"ninja", "-C", build_dir.string(), "-t", "commands", target};
  o.hardware_counters = false;
  const exec::process_result r = exec::run_process(o);
  if (!r.started || r.exit_code != 0) {
    throw std::runtime_error(fmt::format("error: ninja cannot list the commands of '{}': {}", target,
                                         r.started ? tail_of(r) : r.error));
  }
  std::string last;
  std::stringstream lines(r.out.head);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) last = line;
  if (output_token(last).first == std::string::npos) {
    throw std::runtime_error(fmt::format("error: '{}' has no link step (its last command writes no -o): --layouts "
                                         "needs an executable target",
                                         target));
  }
  return last;
}

std::vector<layout_link> relink_layouts(const layout_request& request, const std::vector<std::uint64_t>& seeds) {
  if (!on_path("ld.lld")) {
    throw std::runtime_error("error: --layouts shuffles sections with lld, and ld.lld is not on the PATH — install it "
                             "(apt-get install lld)");
  }
  const std::string line = link_command(request.build_dir, request.target);
  const auto [at, length] = output_token(line);
  const std::filesystem::path program_name = std::filesystem::path(line.substr(at, length)).filename();
  // A CMake link line ends in "&& :" after the libraries; the flags go before it.
  const std::size_t tail = line.size() >= 5 && line.ends_with(" && :") ? line.size() - 5 : line.size();

  std::vector<layout_link> out;
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    const std::filesystem::path dir = request.out_dir / std::to_string(k);
    std::filesystem::create_directories(dir);
    layout_link link{static_cast<int>(k), seeds[k], std::filesystem::absolute(dir / program_name), 0};
    std::string command = line.substr(0, tail) +
                          fmt::format(" -fuse-ld=lld -Wl,--shuffle-sections='.text*={}'", seeds[k]) + line.substr(tail);
    command.replace(at, length, "'" + link.program.string() + "'");
    exec::process_options o;
    o.argv = {"/bin/sh", "-c", command};
    o.working_dir = request.build_dir;
    o.hardware_counters = false;
    const auto start = std::chrono::steady_clock::now();
    const exec::process_result r = exec::run_process(o);
    link.link_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.started || r.exit_code != 0 || !std::filesystem::exists(link.program)) {
      throw std::runtime_error(fmt::format("error: linking layout {} of '{}' (seed {}) failed: {}", k, request.target,
                                           seeds[k], r.started ? tail_of(r) : r.error));
    }
    out.push_back(std::move(link));
  }
  return out;
}

}  // namespace abtest
