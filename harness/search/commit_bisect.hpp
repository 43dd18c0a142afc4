// Commit bisection: the first bad commit of an ordered range, with a three-valued oracle (like git bisect).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace abtest::search {

enum class commit_state { good, bad, skip };

struct commit_bisect_result {
  bool found = false;
  std::size_t first_bad = 0;             // valid when found
  std::vector<std::size_t> candidates;   // when not found: the commits the first bad one could be (skips + bound)
  std::vector<std::size_t> tested;       // indices asked, in order
};

// commits[0] is known good and commits[count − 1] known bad (git bisect good / bad; they are not
// tested again). Midpoint search over the open range: test the middle commit; good → it becomes the
// lower bound, bad → the upper bound, skip (unbuildable, INCONCLUSIVE) → try the untested commit
// nearest the middle instead, as git bisect does. Each index is tested at most once, so ⌈log2(count − 1)⌉
// tests without skips. When only skipped commits remain between the bounds, the answer is ambiguous:
// `candidates` lists them and the bad bound. Throws std::invalid_argument when count < 2.
commit_bisect_result bisect_commits(std::size_t count, const std::function<commit_state(std::size_t)>& test);

}  // namespace abtest::search
