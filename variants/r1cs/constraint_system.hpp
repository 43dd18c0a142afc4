// The constraint-system interface gadgets are written against (bellman's ConstraintSystem), as a concept.
//
// A constraint system `cs` of type CS offers:
//   typename CS::lc                               its linear-combination type
//   CS::one()                                     the constant-one variable (input 0)
//   cs.alloc(name_fn, value)  / alloc_input(...)  a new aux / input variable holding `value`
//   cs.enforce(name_fn, a, b, c)                  the constraint ⟨a⟩ · ⟨b⟩ = ⟨c⟩
//   cs.push_namespace(name_fn) / pop_namespace()  nested names for error messages
// name_fn is any callable returning something convertible to std::string; systems that do not keep
// names (the proving assignment) never call it, so naming costs nothing where speed matters.
//
//   template <constraint_system CS>
//   variable square(CS& cs, variable x, const fr& xv) {
//     namespace_guard ns(cs, [] { return "square"; });
//     const variable y = cs.alloc([] { return "y"; }, xv * xv);
//     cs.enforce([] { return "y = x²"; }, typename CS::lc{} + x, typename CS::lc{} + x, typename CS::lc{} + y);
//     return y;
//   }
#pragma once

#include <concepts>
#include <string>
#include <utility>

#include "ff/fr.hpp"
#include "r1cs/variable.hpp"

namespace zk::r1cs {

namespace detail {
inline std::string no_name() { return {}; }
}  // namespace detail

template <class CS>
concept constraint_system = requires(CS& cs, const fr& v, const typename CS::lc& l) {
  typename CS::lc;
  { CS::one() } -> std::same_as<variable>;
  { cs.alloc(detail::no_name, v) } -> std::same_as<variable>;
  { cs.alloc_input(detail::no_name, v) } -> std::same_as<variable>;
  cs.enforce(detail::no_name, l, l, l);
  cs.push_namespace(detail::no_name);
  cs.pop_namespace();
};

// bellman's `cs.enforce(name, |lc| lc + a, |lc| lc + b, |lc| lc + c)`: each side is a closure that
// receives the zero combination by value and hands its side back by value, as the gadgets write it.
//
//   enforce(cs, [] { return "and"; }, [&](lc z) { return std::move(z) + a; },
//           [&](lc z) { return std::move(z) + b; }, [&](lc z) { return std::move(z) + c; });
template <constraint_system CS, class NameFn, class A, class B, class C>
void enforce(CS& cs, NameFn&& name, A&& a, B&& b, C&& c) {
  using lc = typename CS::lc;
  cs.enforce(std::forward<NameFn>(name), a(lc::zero()), b(lc::zero()), c(lc::zero()));
}

// Scoped namespace: pushes on construction, pops on destruction.
template <class CS>
class namespace_guard {
 public:
  template <class NameFn>
  namespace_guard(CS& cs, NameFn&& name) : cs_(cs) {
    cs_.push_namespace(std::forward<NameFn>(name));
  }
  ~namespace_guard() { cs_.pop_namespace(); }
  namespace_guard(const namespace_guard&) = delete;
  namespace_guard& operator=(const namespace_guard&) = delete;

 private:
  CS& cs_;
};

}  // namespace zk::r1cs
