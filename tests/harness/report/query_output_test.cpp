// `abtest query`'s rows rendered: the aligned table, RFC 4180 CSV with CRLF, and JSON objects.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/report/query_output.hpp"

namespace abtest::report {
namespace {

db::query_result rows() {
  db::query_result r;
  r.columns = {"variant", "ratio", "n", "note"};
  r.rows = {{std::string("A1"), 1.25, std::int64_t{10}, std::monostate{}}, {std::string("B22"), 0.5, std::int64_t{3}, std::string("a,b\"c")}};
  return r;
}

TEST(query_output, a_table_pads_each_column_to_its_widest_value) {
  EXPECT_EQ(render(query_rows{rows(), query_layout::table}, format::terminal),
            "variant  ratio  n   note   \n"
            "A1       1.25   10         \n"
            "B22      0.5    3   a,b\"c  \n");
}

TEST(query_output, csv_quotes_a_comma_and_doubles_a_quote) {
  EXPECT_EQ(render(query_rows{rows(), query_layout::csv}, format::terminal),
            "variant,ratio,n,note\r\nA1,1.25,10,\r\nB22,0.5,3,\"a,b\"\"c\"\r\n");
}

TEST(query_output, json_keeps_the_types_and_null) {
  const auto j = nlohmann::json::parse(render(query_rows{rows(), query_layout::table}, format::json));
  EXPECT_EQ(j[0], nlohmann::json({{"variant", "A1"}, {"ratio", 1.25}, {"n", 10}, {"note", nullptr}}));
  EXPECT_EQ(j[1]["note"], "a,b\"c");
}

}  // namespace
}  // namespace abtest::report
