// A partition's assignment as the MSMs' scalar vectors, in the layout of the parameters' queries.
#include <stdexcept>
#include <string>
#include <vector>

#include "groth16/phases.hpp"

namespace zk::groth16::detail {

partition_scalars gather(const parameters& p, const assignment_view& w, unsigned nthreads, size_t index) {
  partition_scalars s;
  const std::vector<scalar_t> in = to_scalars(w.inputs, nthreads);
  const std::vector<scalar_t> aux = to_scalars(w.aux, nthreads);
  s.l = aux;
  s.a = in;
  for (size_t j = 0; j < aux.size(); ++j)
    if (w.a_aux_density->get(j)) s.a.push_back(aux[j]);
  for (size_t j = 0; j < in.size(); ++j)
    if (w.b_input_density->get(j)) s.b.push_back(in[j]);
  for (size_t j = 0; j < aux.size(); ++j)
    if (w.b_aux_density->get(j)) s.b.push_back(aux[j]);
  if (s.a.size() != p.a.size() || s.b.size() != p.b_g1.size())
    throw std::invalid_argument("prover: partition " + std::to_string(index) +
                                ": A/B densities do not match the parameters — regenerate them for this circuit");
  return s;
}

}  // namespace zk::groth16::detail
