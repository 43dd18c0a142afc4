// Sorted (index, coefficient) terms of one half (inputs or aux) of a linear combination (design §10).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "ff/fr.hpp"

namespace zk::r1cs {

struct indexed_term {
  uint32_t index;
  fr coeff;
};

// The storage A1 swaps: std::vector for 0, else boost small_vector with that many terms inline.
// Inline storage makes every indexer — and so every linear combination — that much bigger, and a
// move copies the inline terms instead of three pointers.
template <size_t InlineCap>
using term_storage = std::conditional_t<InlineCap == 0, std::vector<indexed_term>,
                                        boost::container::small_vector<indexed_term, InlineCap == 0 ? 1 : InlineCap>>;

#ifdef ZK_R1CS_COUNT_TERM_COPIES
// Test-only instrumentation (lc_copies_test defines the macro; no benchmark does): how many terms
// indexers copied when they were copied or moved — a move of std::vector copies none, a move of a
// small_vector whose terms are inline copies every one of them.
inline size_t term_copies = 0;
#endif

// bellman's Indexer: insert_or_update keeps terms sorted by index with three paths, fastest first —
// the key just inserted (add in place), a key past the end (append), else binary search + insert.
template <size_t InlineCap>
class indexer {
 public:
  using storage = term_storage<InlineCap>;

  void add(uint32_t index, const fr& coeff) {
    if (has_last_ && terms_[last_].index == index) {
      terms_[last_].coeff += coeff;
      return;
    }
    if (terms_.empty() || terms_.back().index < index) {
      terms_.push_back({index, coeff});
      last_ = terms_.size() - 1;
      has_last_ = true;
      return;
    }
    const auto it = std::lower_bound(terms_.begin(), terms_.end(), index,
                                     [](const indexed_term& t, uint32_t k) { return t.index < k; });
    if (it->index == index) {
      it->coeff += coeff;
      return;
    }
    last_ = static_cast<size_t>(it - terms_.begin());
    terms_.insert(it, indexed_term{index, coeff});
    has_last_ = true;
  }

#ifdef ZK_R1CS_COUNT_TERM_COPIES
  indexer() = default;
  indexer(const indexer& o) : terms_(o.terms_), last_(o.last_), has_last_(o.has_last_) { term_copies += o.size(); }
  indexer(indexer&& o) noexcept : last_(o.last_), has_last_(o.has_last_) {
    term_copies += o.inline_terms();
    terms_ = std::move(o.terms_);
  }
  indexer& operator=(const indexer& o) {
    term_copies += o.size();
    terms_ = o.terms_, last_ = o.last_, has_last_ = o.has_last_;
    return *this;
  }
  indexer& operator=(indexer&& o) noexcept {
    term_copies += o.inline_terms();
    terms_ = std::move(o.terms_), last_ = o.last_, has_last_ = o.has_last_;
    return *this;
  }
  ~indexer() = default;

  // Terms held in the object itself (a small_vector that has not spilled), which a move must copy.
  size_t inline_terms() const {
    const auto* self = reinterpret_cast<const unsigned char*>(&terms_);
    const auto* data = reinterpret_cast<const unsigned char*>(terms_.data());
    return data >= self && data < self + sizeof(terms_) ? terms_.size() : 0;
  }
#endif

  size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  auto begin() const { return terms_.begin(); }
  auto end() const { return terms_.end(); }

 private:
  storage terms_;
  size_t last_ = 0;
  bool has_last_ = false;
};

}  // namespace zk::r1cs
