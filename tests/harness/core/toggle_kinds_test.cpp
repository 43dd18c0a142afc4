// The toggle kinds' registry (design §3.1): adding a kind is one file and one row, so every kind is
// checked here through the registry alone — documented in docs/manifest.md, found by its keys,
// accepted on the systems it names and refused on the others, exclusive of every other kind's key,
// and read by the build system that accepts it.
#include "harness/core/toggles/toggle_kind.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/harness/core/manifest_error.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;

const std::vector<build_system> all_systems{build_system::cmake, build_system::cargo, build_system::command, build_system::meson};

bool honours(const toggle_kind& k, build_system s) {
  const auto systems = k.systems();
  return systems.empty() || std::find(systems.begin(), systems.end(), s) != systems.end();
}

// A manifest of `system` with one toggle T of `key`'s example value.
json doc_with(build_system system, const std::string& key, const json& value) {
  json build = {{"system", to_string(system)}};
  if (system == build_system::command) build["command"] = {"make"};
  return {{"project", "p"},
          {"build", build},
          {"toggles", {{{"id", "T"}, {key, value}}}},
          {"benchmarks", {{{"name", "b"}, {"format", "json"}, {"command", {"./bench"}}}}}};
}

// docs/manifest.md's table of kind keys: key → its systems column ("cmake, meson", "all").
std::map<std::string, std::string> documented_keys() {
  std::ifstream in(ABTEST_SOURCE_DIR "/docs/manifest.md");
  std::map<std::string, std::string> out;
  static const std::regex row(R"re(^\| `"([a-z_]+)": [^|]*\| ([a-z, ]+) \|)re");
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| kind key | systems |", 0) == 0) in_table = true;
    else if (in_table && line.rfind("|", 0) != 0) break;
    else if (std::smatch m; in_table && std::regex_search(line, m, row)) out[m[1]] = m[2];
  }
  return out;
}

std::string systems_text(const toggle_kind& k) {
  std::vector<std::string> names;
  for (const auto s : k.systems()) names.emplace_back(to_string(s));
  return names.empty() ? "all" : fmt::format("{}", fmt::join(names, ", "));
}

TEST(toggle_kinds, every_key_of_every_kind_is_a_row_of_the_docs_table_and_no_row_is_left_over) {
  auto documented = documented_keys();
  ASSERT_FALSE(documented.empty()) << "docs/manifest.md has no '| kind key | systems |' table";
  for (const toggle_kind* k : toggle_kinds())
    for (const auto& key : k->keys()) {
      ASSERT_TRUE(documented.count(key)) << "kind key \"" << key << "\" is not in docs/manifest.md's kind table";
      EXPECT_EQ(documented[key], systems_text(*k)) << "the systems of \"" << key << "\"";
      documented.erase(key);
    }
  for (const auto& [key, systems] : documented) ADD_FAILURE() << "docs/manifest.md documents \"" << key << "\", which no kind takes";
}

TEST(toggle_kinds, names_and_keys_find_their_kind_and_the_stored_names_stay) {
  std::set<std::string> names;
  for (const toggle_kind* k : toggle_kinds()) {
    EXPECT_TRUE(names.insert(k->name()).second) << k->name() << " twice";
    ASSERT_FALSE(k->keys().empty());
    EXPECT_EQ(k->keys().front(), k->name());
    for (const auto& key : k->keys()) EXPECT_EQ(find_toggle_kind(key), k) << key;
  }
  // Messages (`toggles[2].option`) and manifests spell these; they never change.
  for (const char* name : {"option", "feature", "var", "env", "patch", "revert"}) EXPECT_TRUE(names.count(name)) << name;
  EXPECT_EQ(find_toggle_kind("nonsense"), nullptr);
  EXPECT_EQ(toggle_spec{}.kind, &option_toggle_kind());
}

TEST(toggle_kinds, each_key_is_accepted_on_the_systems_its_kind_names_and_refused_on_the_others) {
  for (const toggle_kind* k : toggle_kinds())
    for (const auto& key : k->keys())
      for (const auto system : all_systems) {
        const json doc = doc_with(system, key, k->example(key));
        SCOPED_TRACE(doc.dump());
        if (honours(*k, system)) {
          const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
          EXPECT_EQ(m.toggle("T").kind, k);
          EXPECT_EQ(m.toggle("T").changes_build(), k->changes_build());
          EXPECT_EQ(m.toggle("T").changes_source(), k->changes_source());
        } else {
          const std::string e = test::manifest_error_of(doc);
          EXPECT_NE(e.find(fmt::format("toggles[0].{}: a {} project cannot honour \"{}\"", key, to_string(system), key)),
                    std::string::npos) << e;
        }
      }
}

TEST(toggle_kinds, a_toggle_with_another_kinds_key_too_is_refused) {
  for (const toggle_kind* a : toggle_kinds())
    for (const toggle_kind* b : toggle_kinds())
      for (const auto& key_a : a->keys())
        for (const auto& key_b : b->keys()) {
          if (key_a == key_b) continue;
          json doc = doc_with(build_system::cmake, key_a, a->example(key_a));
          doc["toggles"][0][key_b] = b->example(key_b);
          const std::string e = test::manifest_error_of(doc);
          EXPECT_NE(e.find("toggles[0]: has more than one kind key"), std::string::npos) << key_a << " + " << key_b << ": " << e;
        }
}

TEST(toggle_kinds, values_are_taken_only_by_the_kinds_that_say_so) {
  for (const toggle_kind* k : toggle_kinds()) {
    const build_system system = k->systems().empty() ? build_system::cmake : k->systems().front();
    json doc = doc_with(system, k->name(), k->example(k->name()));
    doc["toggles"][0]["values"] = {{"ON", "-O3 -march=native"}};
    SCOPED_TRACE(k->name());
    if (k->takes_values()) {
      EXPECT_EQ(parse_manifest(doc.dump(), "/p/abtest.json").toggle("T").value_of("ON"), "-O3 -march=native");
    } else {
      const std::string e = test::manifest_error_of(doc);
      EXPECT_NE(e.find(fmt::format("toggles[0].values: a {} toggle takes no values", k->name())), std::string::npos) << e;
    }
  }
}

// A kind the manifest accepts for a system must be read by that system's driver (through the
// hook the driver calls), and a kind of every system must change the run or the source.
TEST(toggle_kinds, a_kind_hands_something_to_every_system_it_is_accepted_on) {
  for (const toggle_kind* k : toggle_kinds()) {
    const manifest m = parse_manifest(doc_with(k->systems().empty() ? build_system::cmake : k->systems().front(), k->name(),
                                               k->example(k->name())).dump(),
                                      "/p/abtest.json");
    const toggle_spec& t = m.toggle("T");
    SCOPED_TRACE(k->name());
    const std::map<build_system, bool> reads{
        {build_system::cmake, k->configure_option(t) != nullptr && k->configure_definition(t, "1").has_value()},
        {build_system::meson, k->configure_option(t) != nullptr && k->configure_definition(t, "1").has_value()},
        {build_system::cargo, k->cargo_features(t) != nullptr},
        {build_system::command, k->command_variable(t) != nullptr}};
    if (k->systems().empty()) {
      for (const auto& [system, read] : reads) EXPECT_FALSE(read) << to_string(system);
      EXPECT_TRUE(k->run_variable(t) != nullptr || k->changes_source());
    } else {
      for (const auto& [system, read] : reads) EXPECT_EQ(read, honours(*k, system)) << to_string(system);
    }
  }
}

}  // namespace
}  // namespace abtest
