// CMake's file API codemodel and CMakeCache.txt, read for the builder ({bin}/NAME) and `abtest init`.
#include "harness/builder/cmake_file_api.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/builder/file_text.hpp"

namespace abtest {
namespace fs = std::filesystem;

void request_codemodel(const fs::path& dir) {
  fs::create_directories(dir / ".cmake/api/v1/query");
  std::ofstream(dir / ".cmake/api/v1/query/codemodel-v2");
}

std::vector<cmake_target> read_codemodel(const fs::path& dir) {
  std::vector<cmake_target> out;
  const fs::path reply = dir / ".cmake/api/v1/reply";
  std::error_code ec;
  fs::path index;
  for (const auto& e : fs::directory_iterator(reply, ec))
    if (e.path().filename().string().rfind("index-", 0) == 0 && (index.empty() || e.path() > index)) index = e.path();
  if (index.empty()) return out;
  try {
    const auto idx = nlohmann::json::parse(read_text_file(index));
    for (const auto& obj : idx.at("objects")) {
      if (obj.at("kind") != "codemodel") continue;
      const auto model = nlohmann::json::parse(read_text_file(reply / obj.at("jsonFile").get<std::string>()));
      const auto& config = model.at("configurations").at(0);
      for (const auto& t : config.at("targets")) {
        const auto target = nlohmann::json::parse(read_text_file(reply / t.at("jsonFile").get<std::string>()));
        cmake_target c{t.at("name").get<std::string>(), target.value("type", ""), {}, {}};
        if (target.contains("artifacts") && !target["artifacts"].empty()) {
          const fs::path p = target["artifacts"].at(0).at("path").get<std::string>();
          c.artifact = p.is_absolute() ? p : dir / p;
        }
        if (target.contains("link"))
          for (const auto& f : target["link"].value("commandFragments", nlohmann::json::array()))
            c.link_command += f.value("fragment", "") + " ";
        out.push_back(std::move(c));
      }
    }
  } catch (const std::exception&) {
    out.clear();  // an unreadable reply: the callers fall back to {bin}/NAME
  }
  return out;
}

std::map<std::string, cmake_cache_entry> read_cmake_cache(const fs::path& cache_file) {
  std::map<std::string, cmake_cache_entry> out;
  std::map<std::string, std::string> internal;  // NAME-ADVANCED, NAME-STRINGS, …
  std::ifstream in(cache_file);
  std::string line, help;
  while (std::getline(in, line)) {
    if (line.rfind("//", 0) == 0) {
      // CMake wraps a help string at a space past 60 characters, the space starting the next line,
      // and writes a newline as a line that starts with a literal "\n" (cmCacheManager::
      // OutputHelpString): the lines joined as they are give the string back.
      std::string part = line.substr(2);
      if (part.rfind("\\n", 0) == 0) {
        help += '\n';
        part.erase(0, 2);
      }
      help += part;
      continue;
    }
    const auto colon = line.find(':'), eq = line.find('=');
    if (line.empty() || line[0] == '#' || colon == std::string::npos || eq == std::string::npos || eq < colon) {
      help.clear();
      continue;
    }
    cmake_cache_entry e{line.substr(0, colon), line.substr(colon + 1, eq - colon - 1), line.substr(eq + 1), help, false, {}};
    help.clear();
    if (const auto dash = e.name.rfind('-'); dash != std::string::npos && e.type == "INTERNAL") {
      internal[e.name] = e.value;
      continue;
    }
    out[e.name] = std::move(e);
  }
  for (auto& [name, e] : out) {
    e.advanced = internal.count(name + "-ADVANCED") && internal[name + "-ADVANCED"] == "1";
    if (const auto it = internal.find(name + "-STRINGS"); it != internal.end()) {
      std::istringstream s(it->second);
      for (std::string v; std::getline(s, v, ';');) e.strings.push_back(v);
    }
  }
  return out;
}

}  // namespace abtest
