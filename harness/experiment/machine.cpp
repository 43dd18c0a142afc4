// The host's machine row and its capabilities (machine.hpp).
#include "harness/experiment/machine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/exec/host.hpp"

namespace abtest {

bool host_has_cuda() { return exec::host_has_cuda_device(); }

std::vector<std::string> inert_toggles(const manifest& m, const variant& v) {
  std::vector<std::string> out;
  for (const auto& [id, level] : v.levels) {
    const toggle_spec* t = m.find_toggle(id);
    if (!t) continue;
    for (const auto& cap : t->requires_caps)
      if (cap == "cuda" && !host_has_cuda()) out.push_back(id);
  }
  return out;
}

std::int64_t current_machine(db::results_store& store, const nlohmann::json& more) {
  const auto facts = exec::collect_host_facts();
  db::machine_record m;
  m.fingerprint = facts.fingerprint;
  m.hostname = facts.hostname;
  m.cpu_model = facts.cpu_model;
  m.cores = facts.cores;
  m.memory_mib = static_cast<std::int64_t>(facts.memory_mib);
  if (!facts.gpus.empty()) m.gpu = fmt::format("{}", fmt::join(facts.gpus, ", "));
  m.os = facts.os;
  m.compiler = facts.compiler;
  m.details = exec::to_json(facts);
  const auto policy = exec::read_frequency_policy();
  if (policy.governor) m.details["governor"] = *policy.governor;
  if (policy.turbo) m.details["turbo"] = *policy.turbo;
  for (const auto& [k, v] : more.items()) m.details[k] = v;
  if (!m.gpu && more.contains("gpu_name")) m.gpu = more["gpu_name"].get<std::string>();
  return store.upsert_machine(m);
}

}  // namespace abtest
