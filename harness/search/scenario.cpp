// Scenario file parser and the simulated benchmark of design §12.
#include "harness/search/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace abtest::search {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what, const std::string& todo) {
  throw std::invalid_argument("error: " + what + " — " + todo);
}

void allow_keys(const json& object, const std::vector<std::string>& allowed, const std::string& where) {
  if (!object.is_object()) fail(where + " is not a JSON object", "write it as {\"key\": value, ...}");
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail("unknown key '" + key + "' in " + where, "use only " + list);
    }
  }
}

double number(const json& object, const std::string& key, double fallback, const std::string& where) {
  if (!object.contains(key)) return fallback;
  if (!object[key].is_number()) fail(where + "." + key + " is not a number", "write a number");
  return object[key].get<double>();
}

toggle_spec parse_toggle(const json& j, std::size_t index) {
  const std::string where = "toggles[" + std::to_string(index) + "]";
  if (j.is_object() && j.contains("option")) {
    fail("'option' in " + where + " of a scenario", "scenarios replace builds: drop the CMake option");
  }
  allow_keys(j, {"id", "levels", "on", "title", "phase", "requires"}, where);
  if (!j.contains("id") || !j["id"].is_string()) fail(where + " has no string 'id'", "add \"id\": \"A1\"");
  toggle_spec t;
  t.id = j["id"].get<std::string>();
  if (j.contains("levels")) {
    if (!j["levels"].is_array() || j["levels"].size() < 2) {
      fail("toggle " + t.id + " needs at least two levels", "write \"levels\": [\"OFF\", \"ON\"] or leave it out");
    }
    t.levels.clear();
    for (const json& l : j["levels"]) {
      if (!l.is_string()) fail("a level of toggle " + t.id + " is not a string", "quote it: \"4\"");
      t.levels.push_back(l.get<std::string>());
    }
  }
  if (j.contains("on")) {
    if (!j["on"].is_string()) fail("'on' of toggle " + t.id + " is not a string", "quote it: \"4\"");
    t.on = j["on"].get<std::string>();
    if (std::find(t.levels.begin() + 1, t.levels.end(), t.on) == t.levels.end()) {
      fail("'on' of toggle " + t.id + " is not one of its non-off levels", "pick one of its levels after the first");
    }
  }
  return t;
}

// "A1=4*A2" → {(A1, 4), (A2, ON)}.
scenario_effect parse_effect(const std::string& key, double value, const std::vector<toggle_spec>& toggles,
                             const std::string& metric) {
  scenario_effect e{key, {}, value};
  std::size_t start = 0;
  while (start <= key.size()) {
    const std::size_t end = std::min(key.find('*', start), key.size());
    const std::string part = key.substr(start, end - start);
    const std::size_t eq = part.find('=');
    const std::string id = part.substr(0, eq);
    const auto t = std::find_if(toggles.begin(), toggles.end(), [&](const toggle_spec& s) { return s.id == id; });
    if (t == toggles.end()) {
      fail("effect '" + key + "' of metric " + metric + " names unknown toggle '" + id + "'", "declare it in toggles");
    }
    std::string level;
    if (eq == std::string::npos) {
      if (t->levels.size() != 2) {
        fail("effect '" + key + "' of metric " + metric + " leaves the level of multi-level toggle " + id + " open",
             "write " + id + "=<level> as in variant keys");
      }
      level = t->levels.back();
    } else {
      level = part.substr(eq + 1);
      if (std::find(t->levels.begin(), t->levels.end(), level) == t->levels.end()) {
        fail("effect '" + key + "' of metric " + metric + " uses unknown level '" + level + "' of " + id,
             "use one of its levels");
      }
    }
    if (level == t->off_level()) {
      fail("effect '" + key + "' of metric " + metric + " is on the off level of " + id,
           "effects are relative to off: name a non-off level");
    }
    for (const auto& [other, _] : e.levels) {
      if (other == id) fail("effect '" + key + "' of metric " + metric + " repeats toggle " + id, "name each toggle once");
    }
    e.levels.emplace_back(id, level);
    start = end + 1;
  }
  return e;
}

// An object of effect keys → numbers under `key`, if present.
std::vector<scenario_effect> parse_effects(const json& j, const std::string& key, const std::string& where,
                                           const std::string& number_hint, const std::vector<toggle_spec>& toggles,
                                           const std::string& metric) {
  std::vector<scenario_effect> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_object()) fail(where + "." + key + " is not an object", "write {\"B1\": 0.064, ...}");
  for (const auto& [term, value] : j[key].items()) {
    if (!value.is_number()) fail(where + "." + key + "." + term + " is not a number", number_hint);
    out.push_back(parse_effect(term, value.get<double>(), toggles, metric));
  }
  return out;
}

metric_model parse_metric(const std::string& name, const json& j, const std::vector<toggle_spec>& toggles) {
  const std::string where = "metrics." + name;
  allow_keys(j, {"base", "noise_cv", "effects", "outliers", "drift_per_round", "layout_cv", "shared_noise_cv", "noise_effects",
                 "run_s"},
             where);
  metric_model m;
  if (!j.contains("base")) fail(where + " has no 'base'", "add \"base\": <value of the all-off variant>");
  m.base = number(j, "base", 0.0, where);
  if (!(m.base > 0.0)) fail(where + ".base must be positive", "give the all-off variant's value, e.g. 88.9");
  m.noise_cv = number(j, "noise_cv", 0.0, where);
  if (!(m.noise_cv >= 0.0)) fail(where + ".noise_cv is negative", "use 0 for no noise or e.g. 0.02");
  m.drift_per_round = number(j, "drift_per_round", 0.0, where);
  if (!(m.drift_per_round > -1.0)) fail(where + ".drift_per_round must exceed −1", "give a relative drift, e.g. 0.001");
  m.layout_cv = number(j, "layout_cv", 0.0, where);
  if (!(m.layout_cv >= 0.0)) fail(where + ".layout_cv is negative", "use 0 for no layout effect or e.g. 0.03");
  m.shared_noise_cv = number(j, "shared_noise_cv", 0.0, where);
  if (!(m.shared_noise_cv >= 0.0)) fail(where + ".shared_noise_cv is negative", "use 0 or e.g. 0.04");
  m.effects = parse_effects(j, "effects", where, "give ln(ratio), e.g. 0.062", toggles, name);
  m.noise_effects = parse_effects(j, "noise_effects", where, "ln of the factor on the noise's sd, e.g. 1.6", toggles, name);
  if (j.contains("run_s")) {
    const json& r = j["run_s"];
    if (!r.is_object()) fail(where + ".run_s is not an object", "write {\"base\": 0.03, \"effects\": {\"DFA\": 4.6}}");
    allow_keys(r, {"base", "effects"}, where + ".run_s");
    m.run_s = number(r, "base", 0.0, where + ".run_s");
    if (!(m.run_s > 0.0)) fail(where + ".run_s.base must be positive", "give the all-off variant's seconds per run, e.g. 0.03");
    m.run_s_effects = parse_effects(r, "effects", where + ".run_s", "ln of the factor on the run's seconds, e.g. 4.6", toggles, name);
  }
  if (j.contains("outliers")) {
    const json& o = j["outliers"];
    allow_keys(o, {"rate", "scale"}, where + ".outliers");
    m.outlier_rate = number(o, "rate", 0.0, where + ".outliers");
    m.outlier_scale = number(o, "scale", 1.0, where + ".outliers");
    if (!(m.outlier_rate >= 0.0 && m.outlier_rate <= 1.0)) fail(where + ".outliers.rate is outside [0, 1]", "use e.g. 0.02");
    if (!(m.outlier_scale > 0.0)) fail(where + ".outliers.scale must be positive", "use e.g. 1.5");
  }
  return m;
}

}  // namespace

scenario parse_scenario(const json& document) {
  if (!document.is_object()) fail("a scenario is not a JSON object", "see design §12 for the format");
  scenario s;
  s.document = document;
  if (!document.contains("toggles") || !document["toggles"].is_array()) {
    fail("the scenario has no 'toggles' array", "add \"toggles\": [{\"id\": \"A1\"}, ...]");
  }
  for (std::size_t i = 0; i < document["toggles"].size(); ++i) {
    toggle_spec t = parse_toggle(document["toggles"][i], i);
    for (const toggle_spec& other : s.toggles) {
      if (other.id == t.id) fail("toggle " + t.id + " is declared twice", "keep one declaration");
    }
    s.toggles.push_back(std::move(t));
  }
  if (!document.contains("metrics") || !document["metrics"].is_object() || document["metrics"].empty()) {
    fail("the scenario has no 'metrics' object", "add \"metrics\": {\"proof.total_s\": {\"base\": 88.9}}");
  }
  for (const auto& [name, value] : document["metrics"].items()) s.metrics[name] = parse_metric(name, value, s.toggles);
  if (document.contains("seed")) {
    if (!document["seed"].is_number_unsigned()) fail("'seed' is not a non-negative integer", "write e.g. \"seed\": 7");
    s.seed = document["seed"].get<std::uint64_t>();
  }
  return s;
}

scenario load_scenario(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) fail("cannot read scenario " + file.string(), "check the path given to --simulate");
  try {
    return parse_scenario(json::parse(in));
  } catch (const json::exception& e) {
    fail("scenario " + file.string() + " is not valid JSON (" + e.what() + ")", "fix the syntax");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + " (in " + file.string() + ")");
  }
}

namespace {

const metric_model& model_of(const scenario& s, const std::string& metric) {
  const auto it = s.metrics.find(metric);
  if (it == s.metrics.end()) fail("the scenario has no metric '" + metric + "'", "use one of its metrics");
  return it->second;
}

// Each toggle's level in `variant` (its off level when unnamed); throws on an unknown toggle.
std::map<std::string, std::string> resolve(const scenario& s, const levels& variant) {
  std::map<std::string, std::string> resolved;
  for (const auto& [id, level] : variant) {
    const auto t = std::find_if(s.toggles.begin(), s.toggles.end(), [&id = id](const toggle_spec& x) { return x.id == id; });
    if (t == s.toggles.end()) fail("unknown toggle '" + id + "'", "use a toggle the scenario declares");
    resolved[id] = level_of(*t, variant);
  }
  return resolved;
}

// Σ of the terms active in the resolved variant.
double active_sum(const std::vector<scenario_effect>& effects, const std::map<std::string, std::string>& resolved) {
  double sum = 0.0;
  for (const scenario_effect& e : effects) {
    bool active = true;
    for (const auto& [id, level] : e.levels) {
      const auto l = resolved.find(id);
      active = active && l != resolved.end() && l->second == level;
    }
    if (active) sum += e.log_effect;
  }
  return sum;
}

}  // namespace

double simulate(const scenario& s, const levels& variant, const std::string& metric, int round,
                std::mt19937_64& rng) {
  const metric_model& m = model_of(s, metric);
  const std::map<std::string, std::string> resolved = resolve(s, variant);
  double log_value = std::log(m.base) + active_sum(m.effects, resolved);
  if (m.noise_cv > 0.0) {
    const double sd = std::log1p(m.noise_cv) * std::exp(active_sum(m.noise_effects, resolved));
    log_value += std::normal_distribution<double>(0.0, sd)(rng);
  }
  log_value += round * std::log1p(m.drift_per_round);
  if (m.outlier_rate > 0.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < m.outlier_rate) {
    log_value += std::log(m.outlier_scale);
  }
  return std::exp(log_value);
}

double simulated_run_s(const scenario& s, const levels& variant, const std::string& metric) {
  const metric_model& m = model_of(s, metric);
  if (!(m.run_s > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return m.run_s * std::exp(active_sum(m.run_s_effects, resolve(s, variant)));
}

}  // namespace abtest::search
