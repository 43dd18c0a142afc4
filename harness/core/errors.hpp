// The error type every command throws to end with a documented exit code (design §9).
#pragma once

#include <stdexcept>
#include <string>

namespace abtest {

// Exit codes of the abtest CLI — a contract (design §9).
enum class exit_code : int {
  ok = 0,
  regression = 1,      // a regression was found and the command was asked to fail on it
  usage = 2,           // bad flags, bad manifest, bad input file
  build_failed = 3,    // a build failed where it could not be skipped
  bench_failed = 4,    // a benchmark failed or a variant was INVALID
  skip = 125,          // `abtest check`: tell `git bisect run` to skip this commit
};

// An error the user can act on. `what()` reads "<what went wrong> — <what to do next>";
// main() prints it as "error: ..." and exits with `code`.
class user_error : public std::runtime_error {
 public:
  user_error(exit_code code, const std::string& message) : std::runtime_error(message), code_(code) {}
  exit_code code() const noexcept { return code_; }

 private:
  exit_code code_;
};

// Shorthand for the most common kind: bad flags or bad input (exit 2).
inline user_error usage_error(const std::string& message) { return user_error(exit_code::usage, message); }

// A library message without its leading "error: " (main() prints its own): "error: x — y" → "x — y".
inline std::string without_error_prefix(const std::string& what) {
  return what.rfind("error: ", 0) == 0 ? what.substr(7) : what;
}

// A library's exception (std::invalid_argument, std::runtime_error) as a usage error (exit 2).
inline user_error usage_error_from(const std::exception& e) { return usage_error(without_error_prefix(e.what())); }

}  // namespace abtest
