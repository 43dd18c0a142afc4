// libFuzzer target: abtest::search::parse_scenario (design §12) on arbitrary JSON. Invalid JSON is
// the JSON library's business; a valid document must parse or fail with std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/search/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    abtest::search::parse_scenario(doc);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
