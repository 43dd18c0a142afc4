// JSON form of the circuit inputs (gen-vanilla's file): field elements as canonical 0x-hex strings.
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "circuits/porep_vanilla.hpp"

namespace zk::circuits {
namespace {

using nlohmann::json;

json to_json(const fr& x) { return x.to_hex(); }

fr fr_from_json(const json& j) {
  const std::string s = j.get<std::string>();
  if (s.size() != 66 || s.compare(0, 2, "0x") != 0) throw std::runtime_error("bad field element '" + s + "'");
  std::array<uint8_t, 32> be;
  for (size_t i = 0; i < 32; ++i) be[i] = static_cast<uint8_t>(std::stoul(s.substr(2 + 2 * i, 2), nullptr, 16));
  const auto x = fr::from_bytes_be(be);
  if (!x) throw std::runtime_error("field element out of range '" + s + "'");
  return *x;
}

json to_json(const std::vector<fr>& xs) {
  json a = json::array();
  for (const auto& x : xs) a.push_back(to_json(x));
  return a;
}
std::vector<fr> frs_from_json(const json& j) {
  std::vector<fr> out;
  for (const auto& x : j) out.push_back(fr_from_json(x));
  return out;
}
json to_json(const std::vector<std::vector<fr>>& path) {
  json a = json::array();
  for (const auto& level : path) a.push_back(to_json(level));
  return a;
}
std::vector<std::vector<fr>> path_from_json(const json& j) {
  std::vector<std::vector<fr>> out;
  for (const auto& level : j) out.push_back(frs_from_json(level));
  return out;
}
json to_json(const column_opening& c) {
  return {{"index", c.index}, {"labels", to_json(c.labels)}, {"path", to_json(c.path)}};
}
column_opening column_from_json(const json& j) {
  return {j.at("index").get<uint64_t>(), frs_from_json(j.at("labels")), path_from_json(j.at("path"))};
}

}  // namespace

void save_porep_vanilla(const porep_vanilla& v, const std::filesystem::path& file) {
  json parts = json::array();
  for (const auto& w : v.partitions) {
    json challenges = json::array();
    for (const auto& c : w.challenges) {
      json parents = json::array();
      for (const auto& p : c.parents) parents.push_back(to_json(p));
      challenges.push_back({{"node", to_json(c.node)}, {"parents", parents}, {"data_leaf", to_json(c.data_leaf)},
                            {"data_path", to_json(c.data_path)}, {"replica_path", to_json(c.replica_path)}});
    }
    parts.push_back({{"replica_id", to_json(w.replica_id)}, {"comm_d", to_json(w.comm_d)},
                     {"comm_c", to_json(w.comm_c)}, {"comm_r_last", to_json(w.comm_r_last)},
                     {"comm_r", to_json(w.comm_r)}, {"challenges", challenges}});
  }
  const json doc = {{"format", "abtest-porep-vanilla/1"}, {"preset", v.preset}, {"seed", v.seed}, {"partitions", parts}};
  std::ofstream out(file);
  if (!out) throw std::runtime_error(file.string() + ": cannot write");
  out << doc.dump() << '\n';
  if (!out) throw std::runtime_error(file.string() + ": write failed");
}

porep_vanilla load_porep_vanilla(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot open");
  try {
    const json doc = json::parse(in);
    if (doc.at("format") != "abtest-porep-vanilla/1") throw std::runtime_error("unknown format");
    porep_vanilla v{doc.at("preset").get<std::string>(), doc.at("seed").get<uint64_t>(), {}};
    for (const auto& pj : doc.at("partitions")) {
      partition_witness w{fr_from_json(pj.at("replica_id")), fr_from_json(pj.at("comm_d")), fr_from_json(pj.at("comm_c")),
                          fr_from_json(pj.at("comm_r_last")), fr_from_json(pj.at("comm_r")), {}};
      for (const auto& cj : pj.at("challenges")) {
        challenge_witness c;
        c.node = column_from_json(cj.at("node"));
        for (const auto& p : cj.at("parents")) c.parents.push_back(column_from_json(p));
        c.data_leaf = fr_from_json(cj.at("data_leaf"));
        c.data_path = frs_from_json(cj.at("data_path"));
        c.replica_path = path_from_json(cj.at("replica_path"));
        w.challenges.push_back(std::move(c));
      }
      v.partitions.push_back(std::move(w));
    }
    return v;
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

}  // namespace zk::circuits
