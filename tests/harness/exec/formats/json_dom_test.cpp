// Tests of the JSON formats' reading through simdjson (harness/exec/json_dom.hpp): the texts where
// simdjson and nlohmann differ read as nlohmann read them — bare NaN, integers beyond 64 bits, a
// repeated key, members in key order — and a rejected text keeps nlohmann's line and column.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/exec/format.hpp"
#include "harness/exec/json_dom.hpp"

namespace abtest::exec {
namespace {
using nlohmann::json;

TEST(json_dom, a_rejected_text_keeps_nlohmanns_line_and_column) {
  const auto p = parse_text("gbench", "b", "{\"benchmarks\": [\n  {\"name\": \"BM_x\",, }\n]}");
  ASSERT_EQ(p.status, sample_status::bad_output);
  EXPECT_NE(p.error.find("is not Google Benchmark JSON ([json.exception.parse_error.101] parse error at line 2, column 19"),
            std::string::npos) << p.error;
  EXPECT_NE(p.error.find("--benchmark_format=json"), std::string::npos) << p.error;
}

TEST(json_dom, numbers_only_nlohmann_reads_are_read_through_it) {
  // 2^64 and beyond: simdjson refuses the integer, nlohmann reads it as a double.
  const auto p = parse_text("json", "b", R"({"metrics": {"big": 123456789012345678901234567890, "total_s": 1.5}})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.big"), 1.2345678901234568e29);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.total_s"), 1.5);
}

TEST(json_dom, a_repeated_key_keeps_its_last_value_and_members_go_in_key_order) {
  const auto p = parse_text("json", "b", R"({"metrics": {"z_s": 1, "a_s": 2, "z_s": 3}, "checks": {"ok": true, "digest": "ab"},
                                             "context": {"n": 7, "list": [1, 2.5, "x", null]}})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.z_s"), 3);
  EXPECT_EQ(p.checks.at("ok"), "true");
  EXPECT_EQ(p.context, json::parse(R"({"n": 7, "list": [1, 2.5, "x", null]})"));
  EXPECT_TRUE(p.context["n"].is_number_integer());  // integers stay integers in the kept context
  // The first bad metric in key order is the one named, as nlohmann's sorted map gave it.
  const auto bad = parse_text("json", "b", R"({"metrics": {"z_s": "slow", "a_s": "fast"}})");
  EXPECT_NE(bad.error.find("metric 'a_s' is \"fast\""), std::string::npos) << bad.error;
}

TEST(json_dom, json_lines_with_log_lines_and_a_bare_nan) {
  const std::string text =
      "starting\n{\"case\": \"a\", \"ns\": 100}\ninfo: warm\n{\"case\": \"a\", \"ns\": NaN}\n{\"case\": \"b\", \"ns\": 300}\n";
  const auto p = parse_text("json", "b", text, {{"name_field", "case"}, {"value_field", "ns"}, {"unit", "ns"}});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.a_s"), 100e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.b_s"), 300e-9);
  // One line that opens like JSON and is not: the whole text is refused, with nlohmann's reason.
  const auto cut = parse_text("json", "b", text + "{\"case\": \"c\", \"ns\n", {{"name_field", "case"}, {"value_field", "ns"}});
  ASSERT_EQ(cut.status, sample_status::bad_output);
  EXPECT_NE(cut.error.find("is neither one JSON document nor JSON Lines ([json.exception.parse_error.101]"), std::string::npos)
      << cut.error;
}

TEST(json_dom, a_pretty_printed_document_with_nan_is_one_document) {
  const std::string text = "{\n  \"rows\": [\n    {\"n\": \"x\", \"v\": NaN},\n    {\"n\": \"y\", \"v\": 2}\n  ]\n}\n";
  const auto p = parse_text("json", "b", text, {{"rows", "rows"}, {"name_field", "n"}, {"value_field", "v"}});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.y"), 2);
}

TEST(json_dom, sorted_members_and_to_json) {
  simdjson::dom::parser parser;
  detail::dom_element root;
  ASSERT_EQ(detail::parse_dom(parser, R"({"b": 1, "a": -2, "b": 18446744073709551615})", root), "");
  const auto members = detail::sorted_members(detail::object_of(root));
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[0].first, "a");
  EXPECT_EQ(detail::number_of(members[1].second), 18446744073709551615.0);
  EXPECT_EQ(detail::to_json(root), json::parse(R"({"a": -2, "b": 18446744073709551615})"));
  EXPECT_FALSE(detail::number_of(*detail::member(root, "a")) == std::nullopt);
  EXPECT_EQ(detail::member(root, "c"), std::nullopt);
}

}  // namespace
}  // namespace abtest::exec
