// DHAT's JSON output: totals over program points, sites by their innermost frame outside Valgrind.
#include "harness/counts/dhat_file.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace abtest::counts {

namespace {

dhat_profile fail(const std::string& what) {
  dhat_profile p;
  p.error = fmt::format("DHAT output: {} — the file is not DHAT's heap-mode output (Valgrind ≥ 3.15, "
                        "--tool=dhat), or it was cut short", what);
  return p;
}

// "0x109162: main (t.cpp:4)" → "main (t.cpp:4)";
// "0x4A: f() (in /work/.abtest/build/A1-4/synth-bench)" → "f() (in synth-bench)".
std::string site_name(const std::string& frame) {
  std::string s = frame;
  if (s.starts_with("0x")) {
    if (const std::size_t colon = s.find(": "); colon != std::string::npos) s.erase(0, colon + 2);
  }
  // Each variant's binary lives in its own folder: keep the object's file name only.
  if (const std::size_t in = s.rfind(" (in /"); in != std::string::npos && s.ends_with(")")) {
    const std::size_t slash = s.rfind('/');
    s = s.substr(0, in) + " (in " + s.substr(slash + 1);
  }
  return s;
}

}  // namespace

dhat_profile parse_dhat(std::string_view text) {
  using nlohmann::json;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    return fail(fmt::format("not JSON ({})", e.what()));
  }
  if (!doc.is_object()) return fail("not a JSON object");
  if (doc.value("dhatFileVersion", 0) != 2)
    return fail(fmt::format("dhatFileVersion is {}, this reader knows 2", doc.value("dhatFileVersion", json()).dump()));
  if (doc.value("mode", "") != "heap")
    return fail(fmt::format("mode is {}, counts need heap mode", doc.value("mode", json()).dump()));
  if (!doc.contains("pps") || !doc["pps"].is_array() || !doc.contains("ftbl") || !doc["ftbl"].is_array())
    return fail("no pps / ftbl arrays");

  dhat_profile p;
  p.command = doc.value("cmd", "");
  const json& ftbl = doc["ftbl"];
  std::map<std::string, alloc_site> sites;
  try {
    for (const json& pp : doc["pps"]) {
      const count tb = pp.at("tb").get<count>(), tbk = pp.at("tbk").get<count>();
      p.bytes += tb;
      p.blocks += tbk;
      p.peak_bytes += pp.value("gb", count{0});
      p.peak_blocks += pp.value("gbk", count{0});
      std::string where = "[unknown]";
      for (const json& index : pp.at("fs")) {
        const std::string frame = ftbl.at(index.get<std::size_t>()).get<std::string>();
        if (frame == "[root]" || frame.find("vgpreload_") != std::string::npos) continue;
        where = site_name(frame);
        break;
      }
      alloc_site& s = sites[where];
      s.where = where;
      s.blocks += tbk;
      s.bytes += tb;
    }
  } catch (const json::exception& e) {
    return fail(fmt::format("a program point is malformed ({})", e.what()));
  }
  for (auto& [where, s] : sites) p.sites.push_back(std::move(s));
  std::stable_sort(p.sites.begin(), p.sites.end(), [](const alloc_site& a, const alloc_site& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.blocks > b.blocks;
  });
  return p;
}

}  // namespace abtest::counts
