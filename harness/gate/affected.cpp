// Which benchmarks a pull request can change, from the hashes of what each side runs.
#include "harness/gate/affected.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"

namespace abtest::gate {
namespace fs = std::filesystem;

namespace {

// The keys whose values differ between a and b (a key on one side only differs too).
std::vector<std::string> differing(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::vector<std::string> out;
  for (const auto& [k, v] : a)
    if (const auto it = b.find(k); it == b.end() || it->second != v) out.push_back(k);
  for (const auto& [k, v] : b)
    if (!a.contains(k)) out.push_back(k);
  return out;
}

}  // namespace

benchmark_fingerprint fingerprint_of(const manifest& m, const arm_plan& arm, const benchmark_spec& bench,
                                     const std::map<std::string, std::string>& params, const fs::path& tree) {
  benchmark_fingerprint f;
  std::vector<std::string> program_files;
  for (const auto& target : benchmark_programs(m, bench)) {
    const auto it = arm.programs.find(target);
    const fs::path file = it != arm.programs.end() ? it->second : arm.bin / target;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      throw user_error(exit_code::build_failed,
                       fmt::format("the program {} of benchmark {} is not there after its build — list its target in the manifest's "
                                   "build.targets", file.string(), bench.name));
    f.programs[target] = sha256_file(file);
    program_files.push_back(fs::absolute(file).lexically_normal().string());
  }
  const auto argv = expand_command(bench, arm.bin, params, arm.programs);
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.empty() || arg.front() == '-') continue;
    const fs::path path = fs::path(arg).is_absolute() ? fs::path(arg) : tree / arg;
    if (std::find(program_files.begin(), program_files.end(), fs::absolute(path).lexically_normal().string()) != program_files.end())
      continue;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) f.inputs[arg] = sha256_file(path);
  }
  for (const auto& [name, value] : arm.env) f.env[name] = value.value_or("(unset)");
  return f;
}

benchmark_decision decide(const std::string& benchmark, const benchmark_fingerprint& base, const benchmark_fingerprint& head) {
  std::vector<std::string> why;
  if (const auto d = differing(base.programs, head.programs); !d.empty()) why.push_back(fmt::format("programs differ: {}", fmt::join(d, ", ")));
  if (const auto d = differing(base.inputs, head.inputs); !d.empty()) why.push_back(fmt::format("inputs differ: {}", fmt::join(d, ", ")));
  if (const auto d = differing(base.env, head.env); !d.empty()) why.push_back(fmt::format("environment differs: {}", fmt::join(d, ", ")));
  if (why.empty())
    return {benchmark, timing::identical, base.inputs.empty() ? "identical programs" : "identical programs and inputs"};
  return {benchmark, timing::timed, fmt::format("{}", fmt::join(why, "; "))};
}

std::vector<std::string> timed_benchmarks(const std::vector<benchmark_decision>& decisions) {
  std::vector<std::string> out;
  for (const auto& d : decisions)
    if (d.decision == timing::timed) out.push_back(d.benchmark);
  return out;
}

}  // namespace abtest::gate
