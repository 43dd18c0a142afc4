// db ids: UUIDv4 (RFC 4122 §4.4) and experiment-id generation from a random device.
#include "db/ids.hpp"

#include <cstdio>
#include <ctime>
#include <random>

namespace abtest::db {

namespace {

// Straight from the random device, not a seeded engine: a forked child would otherwise repeat
// its parent's sequence (and its UUIDs).
std::uint64_t random_bits() {
  thread_local std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) | device();
}

}  // namespace

std::string new_uuid() {
  std::uint64_t hi = random_bits();
  std::uint64_t lo = random_bits();
  hi = (hi & ~0xf000ull) | 0x4000ull;                // version 4
  lo = (lo & ~(0x3ull << 62)) | (0x2ull << 62);      // variant 10xx
  char text[37];
  std::snprintf(text, sizeof text, "%08llx-%04llx-%04llx-%04llx-%012llx", static_cast<unsigned long long>(hi >> 32),
                static_cast<unsigned long long>((hi >> 16) & 0xffff), static_cast<unsigned long long>(hi & 0xffff),
                static_cast<unsigned long long>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffull));
  return text;
}

std::string new_experiment_id(experiment_kind kind, time_point started_at) {
  static constexpr char prefixes[] = {'r', 'm', 'b', 'n', 'f', 'c'};  // in experiment_kind order
  const std::time_t seconds = std::chrono::system_clock::to_time_t(started_at);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];  // room for any int the format could print
  // 32 random bits: 16 collided once in the suite, where a nightly run starts tens of experiments in
  // one second (two of n share an id with probability ≈ n²/2¹⁷; now ≈ n²/2³³).
  std::snprintf(text, sizeof text, "%c-%04d%02d%02d-%02d%02d%02d-%08x", prefixes[static_cast<int>(kind)],
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<unsigned>(random_bits() & 0xffffffffu));
  return text;
}

}  // namespace abtest::db
