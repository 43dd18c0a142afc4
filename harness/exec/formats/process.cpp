// Format `process`: the output is not read; the sample's metrics are the process's own (design §4).
#include "harness/exec/format.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace process_format_detail {
parsed_output parse(std::string_view, const nlohmann::json&, const format_input&) {
  parsed_output p;  // nothing to read: the executor adds wall_s, user_s, maxrss_mib, …
  p.status = sample_status::ok;
  return p;
}
}  // namespace process_format_detail

const output_format_row& process_format() {
  static const output_format_row row{"process", "nothing: the process's own metrics (wall_s first)",
                                     output_stream::none, "wall_s", {}, no_options, process_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
