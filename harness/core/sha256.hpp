// SHA-256 of files and strings, for build-binary identity and experiment ids (FIPS 180-4).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace abtest {

// Lower-case hex digest.
std::string sha256_hex(std::string_view data);
// Throws user_error when the file cannot be read.
std::string sha256_file(const std::filesystem::path& path);

}  // namespace abtest
