// Canonical variant keys and the parsing of --toggle flags and variant specs (design §5).
#include "harness/core/variant.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

void set_level(variant& v, const std::string& item, const manifest& m, const std::string& context) {
  const auto eq = item.find('=');
  const std::string id = item.substr(0, eq);
  const toggle_spec& t = m.toggle(id);
  const std::string level = eq == std::string::npos ? t.on : item.substr(eq + 1);
  if (!t.has_level(level))
    throw usage_error(fmt::format("{}: toggle {} has no level \"{}\" — its levels are: {}", context, id, level,
                                  fmt::join(t.levels, ", ")));
  if (v.levels.count(id))
    throw usage_error(fmt::format("{}: toggle {} is given twice — give each toggle once", context, id));
  if (level != t.off()) v.levels[id] = level;
}

}  // namespace

std::vector<search::toggle_spec> search_toggles(const manifest& m) {
  std::vector<search::toggle_spec> out;
  for (const auto& t : m.toggles) out.push_back({t.id, t.levels, t.on});
  return out;
}

std::string variant_key(const std::map<std::string, std::string>& levels, const manifest& m) {
  return search::variant_key(search_toggles(m), levels);
}

std::string variant::key(const manifest& m) const { return variant_key(levels, m); }

std::string variant::folder_name(const manifest& m) const {
  std::string name = key(m);
  for (char& c : name)
    if (c == '=') c = '-';
  return name;
}

std::map<std::string, std::string> variant::all_levels(const manifest& m) const {
  std::map<std::string, std::string> out;
  for (const auto& t : m.toggles) {
    const auto it = levels.find(t.id);
    out[t.id] = it == levels.end() ? t.off() : it->second;
  }
  return out;
}

variant variant_from_flags(const std::vector<std::string>& toggles, const manifest& m) {
  variant v;
  for (const auto& item : toggles) set_level(v, item, m, fmt::format("--toggle {}", item));
  return v;
}

std::set<std::string> named_toggles(const std::vector<std::string>& toggles) {
  std::set<std::string> out;
  for (const auto& item : toggles) out.insert(item.substr(0, item.find('=')));
  return out;
}

variant parse_variant_spec(const std::string& spec, const manifest& m) {
  variant v;
  if (spec == "base") return v;
  if (spec == "all") {
    for (const auto& t : m.toggles) v.levels[t.id] = t.on;
    return v;
  }
  if (spec.empty()) throw usage_error("empty variant spec — use base, all, or a key such as A1=4+B1");
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t plus = spec.find('+', start);
    const std::string item = spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    if (item.empty()) throw usage_error(fmt::format("variant \"{}\": empty term — separate toggles with a single '+'", spec));
    set_level(v, item, m, fmt::format("variant \"{}\"", spec));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  return v;
}

}  // namespace abtest
