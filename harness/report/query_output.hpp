// What `abtest query` prints of one statement's rows: an aligned table or CSV on the terminal, an
// array of objects with --json (or --format json).
#pragma once

#include <string>

#include "db/value.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

// How the rows look without --json: columns padded to their widest value (cut at 60 characters),
// or RFC 4180 CSV with CRLF line ends.
enum class query_layout { table, csv };

struct query_rows {
  db::query_result result;
  query_layout layout = query_layout::table;
};

// terminal: the header and a line per row in `layout`; json: [{column: value}] (NULL as null,
// integers and reals as numbers).
std::string render(const query_rows& q, format f);

}  // namespace abtest::report
