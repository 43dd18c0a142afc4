// A constraint system for tests (bellman's TestConstraintSystem): keeps every constraint with its
// namespaced name, checks satisfaction and names the first unsatisfied constraint.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"

namespace zk::r1cs {

template <size_t InlineCap = ABTEST_A1_INLINE_CAP>
class test_cs {
 public:
  using lc = linear_combination<InlineCap>;

  test_cs() : inputs_{fr::one()} {}

  static constexpr variable one() { return variable::one(); }

  template <class NameFn>
  variable alloc(NameFn&&, const fr& value) {
    aux_.push_back(value);
    return variable::aux(static_cast<uint32_t>(aux_.size() - 1));
  }

  template <class NameFn>
  variable alloc_input(NameFn&&, const fr& value) {
    inputs_.push_back(value);
    return variable::input(static_cast<uint32_t>(inputs_.size() - 1));
  }

  template <class NameFn>
  void enforce(NameFn&& name, const lc& a, const lc& b, const lc& c) {
    constraints_.push_back({a, b, c, path_ + std::string(name())});
  }

  template <class NameFn>
  void push_namespace(NameFn&& name) {
    marks_.push_back(path_.size());
    path_ += std::string(name());
    path_ += '/';
  }
  void pop_namespace() {
    path_.resize(marks_.back());
    marks_.pop_back();
  }

  fr eval(const lc& l) const {
    fr acc = fr::zero();
    for (const auto& t : l.inputs()) acc += inputs_[t.index] * t.coeff;
    for (const auto& t : l.aux()) acc += aux_[t.index] * t.coeff;
    return acc;
  }

  // The namespaced name ("sha256/round 3/maj") of the first constraint with ⟨a⟩·⟨b⟩ ≠ ⟨c⟩.
  std::optional<std::string> which_is_unsatisfied() const {
    for (const auto& k : constraints_) {
      if (eval(k.a) * eval(k.b) != eval(k.c)) return k.name;
    }
    return std::nullopt;
  }
  bool is_satisfied() const { return !which_is_unsatisfied(); }

  size_t num_constraints() const { return constraints_.size(); }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }
  const fr& aux_value(size_t i) const { return aux_[i]; }
  // Tampers with a witness value, for tests that the checks notice.
  void set_aux_value(size_t i, const fr& v) { aux_[i] = v; }

 private:
  struct constraint {
    lc a, b, c;
    std::string name;
  };
  std::vector<fr> inputs_, aux_;
  std::vector<constraint> constraints_;
  std::string path_;
  std::vector<size_t> marks_;
};

}  // namespace zk::r1cs
