// The on-disk parameter cache (the SRS-cache analog): one binary file per (circuit digest, seed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "groth16/parameters.hpp"

namespace zk::groth16 {

// <dir>/groth16-<digest>-<seed>.params
std::filesystem::path cache_path(const std::filesystem::path& dir, const std::string& circuit_digest, uint64_t seed);

// The points are stored as their in-memory (Montgomery) images and read back with one read per
// vector — no parsing, no curve or subgroup checks: the cache is trusted local state written by
// save_parameters. Absent file → nullopt. A file of another format version, layout or truncated
// → nullopt as well (it is simply regenerated and overwritten).
std::optional<parameters> load_parameters(const std::filesystem::path& file);

// Writes to a temporary file and renames it into place, so readers never see half a file.
// Throws std::runtime_error on I/O failure.
void save_parameters(const parameters& p, const std::filesystem::path& file);

}  // namespace zk::groth16
