// Reading Cargo's JSON messages (The Cargo Book, "External tools: JSON messages"): the executables
// of the bin and bench targets a build made.
#include "harness/builder/cargo_artifacts.hpp"

#include <nlohmann/json.hpp>

namespace abtest {

std::vector<cargo_executable> cargo_executables(std::string_view messages) {
  std::vector<cargo_executable> out;
  std::size_t start = 0;
  while (start < messages.size()) {
    std::size_t end = messages.find('\n', start);
    if (end == std::string_view::npos) end = messages.size();
    const std::string_view line = messages.substr(start, end - start);
    start = end + 1;
    // Cheap tests first: a build prints thousands of lines, few of them artifacts with executables.
    if (line.empty() || line.front() != '{' || line.find("\"compiler-artifact\"") == std::string_view::npos) continue;
    const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || j.value("reason", nlohmann::json()) != "compiler-artifact") continue;
    const auto exe = j.find("executable");
    const auto target = j.find("target");
    if (exe == j.end() || !exe->is_string() || target == j.end() || !target->is_object()) continue;
    const auto name = target->find("name");
    const auto kinds = target->find("kind");
    if (name == target->end() || !name->is_string() || kinds == target->end() || !kinds->is_array()) continue;
    for (const auto& k : *kinds) {
      if (!k.is_string() || (k != "bin" && k != "bench")) continue;
      cargo_executable a;
      a.kind = k.get<std::string>();
      a.name = name->get<std::string>();
      a.executable = exe->get<std::string>();
      if (const auto mp = j.find("manifest_path"); mp != j.end() && mp->is_string()) a.manifest_path = mp->get<std::string>();
      out.push_back(std::move(a));
      break;
    }
  }
  return out;
}

}  // namespace abtest
