// Reading Cargo's texts: its JSON messages (The Cargo Book, "External tools: JSON messages") for
// the executables of the bin and bench targets a build made, and [[bench]] tables for `harness`.
#include "harness/builder/cargo_text.hpp"

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

bench_harness bench_harness_of(bool harness_off, const bench_libraries& libraries) {
  if (!harness_off) return bench_harness::libtest;
  if (libraries.criterion) return bench_harness::criterion;
  if (libraries.divan) return bench_harness::divan;
  if (libraries.bencher) return bench_harness::bencher;
  return bench_harness::own;
}

bool bench_harness_off(std::string_view toml, std::string_view bench) {
  // The lines of each [[bench]] table up to the next table header; `name` and `harness` in it.
  bool inside = false, named = false, off = false;
  const auto value_of = [](std::string_view line, std::string_view key) -> std::string_view {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line.compare(first, key.size(), key) != 0) return {};
    auto rest = line.substr(first + key.size());
    const auto eq = rest.find_first_not_of(" \t");
    if (eq == std::string_view::npos || rest[eq] != '=') return {};
    rest = rest.substr(eq + 1);
    const auto start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos) return {};
    rest = rest.substr(start);
    const auto end = rest.find_first_of(" \t#\r");
    return rest.substr(0, end);
  };
  std::size_t pos = 0;
  while (pos <= toml.size()) {
    std::size_t end = toml.find('\n', pos);
    if (end == std::string_view::npos) end = toml.size();
    const std::string_view line = toml.substr(pos, end - pos);
    pos = end + 1;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] == '[') {
      if (named) return off;
      inside = line.compare(first, 9, "[[bench]]") == 0;
      named = off = false;
      continue;
    }
    if (!inside) continue;
    const auto name = value_of(line, "name");
    if (name.size() >= 2 && name.front() == '"' && name.substr(1, name.size() - 2) == bench && name.back() == '"') named = true;
    if (value_of(line, "harness") == "false") off = true;
  }
  return named && off;
}

}  // namespace abtest
