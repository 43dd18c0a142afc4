// Format `catch2`: Catch2's XML reporter (`-r xml`), each <BenchmarkResults>' mean (design §4).
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace catch2_format_detail {

// `text` with the XML escapes Catch2 writes (&lt; &gt; &amp; &quot; &apos;) replaced.
std::string unescape(std::string_view text) {
  static constexpr std::pair<std::string_view, char> escapes[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    for (const auto& [from, to] : escapes)
      if (text.substr(i).starts_with(from)) {
        out += to;
        i += from.size();
        replaced = true;
        break;
      }
    if (!replaced) out += text[i++];
  }
  return out;
}

// Where the tag opened at `at` ends: its '>' outside quoted values (Catch2 leaves '>' unescaped in
// attributes: name="sum&lt;10000> &amp; more"); npos when it does not.
std::size_t tag_end(std::string_view text, std::size_t at) {
  bool quoted = false;
  for (std::size_t i = at; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    else if (text[i] == '>' && !quoted) return i;
  }
  return std::string_view::npos;
}

// The value of attribute `name` in the tag text `tag` (`<mean value="1.5" …`); nullopt if absent.
std::optional<std::string> attribute(std::string_view tag, std::string_view name) {
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    const bool starts = at > 0 && (tag[at - 1] == ' ' || tag[at - 1] == '\n' || tag[at - 1] == '\t');
    const std::size_t eq = at + name.size();
    if (!starts || eq + 1 >= tag.size() || tag[eq] != '=' || tag[eq + 1] != '"') continue;
    const std::size_t end = tag.find('"', eq + 2);
    if (end == std::string_view::npos) return std::nullopt;
    return unescape(tag.substr(eq + 2, end - eq - 2));
  }
  return std::nullopt;
}

// <BenchmarkResults name="…" …> <mean value="ns" lowerBound=… upperBound=…/> … </BenchmarkResults>:
// `<name>_s` is the mean, in seconds (Catch2 writes nanoseconds).
parsed_output parse(std::string_view bench, const nlohmann::json&, const format_input& in) {
  std::string all;
  if (std::string error = detail::read_input(in, output_stream::stdout_text, all); !error.empty())
    return detail::bad_output(std::move(error));
  const std::string_view text(all);
  detail::metric_set metrics(bench);
  for (std::size_t at = text.find("<BenchmarkResults"); at != std::string_view::npos;
       at = text.find("<BenchmarkResults", at + 1)) {
    const std::size_t open_end = tag_end(text, at);
    const std::size_t close = text.find("</BenchmarkResults>", at);
    if (open_end == std::string_view::npos || close == std::string_view::npos)
      return detail::bad_output("a <BenchmarkResults> element is not closed — is the XML cut short?");
    const auto name = attribute(text.substr(at, open_end - at), "name");
    if (!name) return detail::bad_output("a <BenchmarkResults> without a name — is this Catch2's XML reporter?");
    const std::string_view body = text.substr(open_end, close - open_end);
    const std::size_t mean_at = body.find("<mean");
    if (mean_at == std::string_view::npos)
      return detail::bad_output(fmt::format("benchmark '{}' has no <mean> — is this Catch2 v2.13+'s XML reporter?", *name));
    const std::string_view mean_tag = body.substr(mean_at, tag_end(body, mean_at) - mean_at);
    const auto value_text = attribute(mean_tag, "value");
    const auto ns = value_text ? detail::parse_number(*value_text) : std::nullopt;
    if (!ns) return detail::bad_output(fmt::format("benchmark '{}': its mean is not a number — is this Catch2's XML?", *name));
    if (!metrics.add(*name, sanitize_metric_name(*name) + "_s", *ns * 1e-9)) return detail::bad_output(metrics.error());
  }
  return metrics.finish(parsed_output{}, "no <BenchmarkResults> in the XML — run the Catch2 program with `-r xml` and "
                                         "benchmarking enabled (CATCH_CONFIG_ENABLE_BENCHMARKING)");
}
}  // namespace catch2_format_detail

const output_format_row& catch2_format() {
  static const output_format_row row{"catch2", "stdout (or -o {out}): Catch2's XML reporter, each benchmark's mean",
                                     output_stream::stdout_text, "", {}, no_options, catch2_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
