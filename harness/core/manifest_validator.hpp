// The manifest's validator: reads typed values from abtest.json and fails naming the file, the key
// and the fix (design §3). Shared by the manifest and the toggle kinds (harness/core/toggles/).
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/errors.hpp"

namespace abtest {

class manifest_validator {
 public:
  explicit manifest_validator(std::filesystem::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what, const std::string& fix) const {
    throw usage_error(fmt::format("{}: {}: {} — {}", file_.string(), key, what, fix));
  }

  // Rejects keys outside `allowed`: typos must not pass silently.
  void only_keys(const nlohmann::json& obj, const std::string& where, std::initializer_list<const char*> allowed) const {
    only_keys(obj, where, std::vector<std::string>(allowed.begin(), allowed.end()));
  }
  void only_keys(const nlohmann::json& obj, const std::string& where, const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(where.empty() ? key : where + "." + key, "unknown key",
             fmt::format("remove it or use one of: {}", fmt::join(allowed, ", ")));
    }
  }

  const nlohmann::json& object(const nlohmann::json& parent, const std::string& key, const std::string& where) const {
    const nlohmann::json& v = parent.at(key);
    if (!v.is_object()) fail(where, "must be an object", "write it as {...}");
    return v;
  }

  std::string string(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, fmt::format("must be a string, found {}", v.type_name()), "quote the value");
    return v.get<std::string>();
  }

  // Params may be written as strings or numbers; both are kept as text.
  std::string scalar(const nlohmann::json& v, const std::string& where) const {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    if (v.is_number()) return fmt::format("{}", v.get<double>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    fail(where, fmt::format("must be a string or a number, found {}", v.type_name()), "write a scalar value");
  }

  std::vector<std::string> strings(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_array()) fail(where, "must be an array of strings", "write it as [\"...\", ...]");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) out.push_back(string(v[i], fmt::format("{}[{}]", where, i)));
    return out;
  }

  double positive(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_number() || v.get<double>() <= 0) fail(where, "must be a positive number", "e.g. 600");
    return v.get<double>();
  }

 private:
  std::filesystem::path file_;
};

}  // namespace abtest
