// Factorial effects over shards, each paired with its own base, by generalized least squares.
#include "harness/search/sharded_effects.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "harness/search/effects.hpp"
#include "harness/search/least_squares.hpp"

namespace abtest::search {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// One non-base configuration: its difference from its shard's base.
struct difference {
  std::size_t config = 0;  // index into design.runs
  double d = 0.0;
  std::size_t shard = 0;
};

struct pooled {
  std::vector<difference> rows;
  std::vector<double> shard_rounds;   // R_s
  std::vector<std::size_t> shard_size;  // n_s: non-base configurations of shard s
  double sigma = nan;
  double df = 0.0;
  int min_rounds = 0;
};

pooled prepare(const design& d, const std::vector<shard_values>& shards) {
  if (shards.empty()) throw std::invalid_argument("error: no shard has values — nothing to analyse");
  pooled out;
  double ss_total = 0.0;
  std::set<std::size_t> seen;
  out.min_rounds = std::numeric_limits<int>::max();
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const shard_values& sh = shards[s];
    if (sh.configs.size() != sh.y.size())
      throw std::invalid_argument("error: shard " + std::to_string(s) + " has " + std::to_string(sh.y.size()) +
                                  " rows for " + std::to_string(sh.configs.size()) + " configurations");
    std::vector<std::size_t> used;  // rows with any value
    std::size_t width = 0, base_row = sh.configs.size();
    for (std::size_t i = 0; i < sh.configs.size(); ++i) {
      if (sh.configs[i] >= d.runs.size()) throw std::invalid_argument("error: configuration index outside the design");
      width = std::max(width, sh.y[i].size());
      const bool any = std::any_of(sh.y[i].begin(), sh.y[i].end(), [](double v) { return !std::isnan(v); });
      if (!any) continue;
      used.push_back(i);
      if (sh.configs[i] == 0) base_row = i;
    }
    if (base_row == sh.configs.size())
      throw std::invalid_argument("error: shard " + std::to_string(s) + " has no base values — every shard is compared with its own base");
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < width; ++r) {
      bool complete = true;
      for (std::size_t i : used) complete = complete && r < sh.y[i].size() && !std::isnan(sh.y[i][r]);
      if (complete) kept.push_back(r);
    }
    if (kept.empty())
      throw std::invalid_argument("error: shard " + std::to_string(s) + " has no round with a value for every configuration");
    const double rr = static_cast<double>(kept.size());
    std::vector<double> mean(used.size(), 0.0), round_mean(kept.size(), 0.0);
    double grand = 0.0;
    for (std::size_t u = 0; u < used.size(); ++u) {
      for (std::size_t k = 0; k < kept.size(); ++k) {
        mean[u] += sh.y[used[u]][kept[k]] / rr;
        round_mean[k] += sh.y[used[u]][kept[k]] / static_cast<double>(used.size());
      }
      grand += mean[u] / static_cast<double>(used.size());
    }
    for (std::size_t u = 0; u < used.size(); ++u)
      for (std::size_t k = 0; k < kept.size(); ++k) {
        const double e = sh.y[used[u]][kept[k]] - mean[u] - round_mean[k] + grand;
        ss_total += e * e;
      }
    out.df += (static_cast<double>(used.size()) - 1.0) * (rr - 1.0);
    const double base_mean = mean[static_cast<std::size_t>(std::find(used.begin(), used.end(), base_row) - used.begin())];
    std::size_t n = 0;
    for (std::size_t u = 0; u < used.size(); ++u) {
      const std::size_t c = sh.configs[used[u]];
      if (c == 0) continue;
      if (!seen.insert(c).second)
        throw std::invalid_argument("error: design run " + std::to_string(c) +
                                    " was measured by two shards — pass each shard's experiment once");
      out.rows.push_back({c, mean[u] - base_mean, s});
      ++n;
    }
    out.shard_rounds.push_back(rr);
    out.shard_size.push_back(n);
    out.min_rounds = std::min(out.min_rounds, static_cast<int>(kept.size()));
  }
  if (out.df > 0.0) out.sigma = std::sqrt(ss_total / out.df);
  return out;
}

double column(const std::vector<int>& run, const std::vector<int>& term) {
  double v = 1.0;
  for (int j : term) v *= run.at(static_cast<std::size_t>(j));
  return v;
}

struct gls {
  std::vector<double> gamma;
  std::vector<std::vector<double>> cov;  // Cov(γ̂) / σ²
};

// GLS of d on the 0/1 columns of `terms` minus those of run 0 (d_c = Σ γ (z_c − z_0); no intercept).
// Run 0 is all-low in full and one-at-a-time designs; in a half fraction it has the generated factor
// high (E = ABCD is +1 when A..D are all −1), which the differences of columns take care of. The
// covariance of d is σ² W, W block-diagonal per shard with block (I + J)/R_s, whose inverse is
// R_s (I − J/(n_s + 1)); its symmetric root L = √R_s (I − c J), c = (1 − 1/√(n_s + 1))/n_s, whitens
// the rows so that ordinary least squares on (L Z, L d) is the GLS fit and (ZᵀW⁻¹Z)⁻¹ comes with it.
gls fit_gls(const design& d, const pooled& p, const std::vector<std::vector<int>>& terms) {
  std::vector<std::vector<double>> z, zw;
  std::vector<double> y, yw;
  for (const difference& r : p.rows) {
    std::vector<double> row;
    for (const auto& t : terms) row.push_back(column(d.runs[r.config], t) - column(d.runs[0], t));
    z.push_back(std::move(row));
    y.push_back(r.d);
  }
  std::vector<std::vector<double>> shard_sum(p.shard_size.size(), std::vector<double>(terms.size(), 0.0));
  std::vector<double> shard_dsum(p.shard_size.size(), 0.0);
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    for (std::size_t t = 0; t < terms.size(); ++t) shard_sum[p.rows[i].shard][t] += z[i][t];
    shard_dsum[p.rows[i].shard] += y[i];
  }
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const std::size_t s = p.rows[i].shard;
    const double n = static_cast<double>(p.shard_size[s]);
    const double c = (1.0 - 1.0 / std::sqrt(n + 1.0)) / n, root = std::sqrt(p.shard_rounds[s]);
    std::vector<double> row;
    for (std::size_t t = 0; t < terms.size(); ++t) row.push_back(root * (z[i][t] - c * shard_sum[s][t]));
    zw.push_back(std::move(row));
    yw.push_back(root * (y[i] - c * shard_dsum[s]));
  }
  const ls_fit f = least_squares(zw, yw);
  return {f.coef, f.xtx_inverse};
}

std::vector<term_effect> gamma_table(const pooled& p, const gls& g, const std::vector<std::vector<int>>& terms,
                                     double confidence) {
  const bool have_se = std::isfinite(p.sigma) && p.df > 0.0;
  std::vector<term_effect> out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    term_effect e;
    e.factors = terms[i];
    e.estimate = g.gamma[i];
    e.se = have_se ? p.sigma * std::sqrt(g.cov[i][i]) : nan;
    out.push_back(std::move(e));
  }
  complete_table(out, have_se, p.df, confidence);
  return out;
}

// The ±1 effects as linear maps of γ: E_i = γ_i + ½ Σ_j γ_ij, E_ij = ½ γ_ij.
std::vector<term_effect> effect_table(const pooled& p, const gls& g, const std::vector<std::vector<int>>& terms,
                                      double confidence) {
  const bool have_se = std::isfinite(p.sigma) && p.df > 0.0;
  std::vector<term_effect> out;
  for (const auto& term : terms) {
    std::vector<double> a(terms.size(), 0.0);
    for (std::size_t t = 0; t < terms.size(); ++t) {
      if (terms[t] == term) a[t] = term.size() == 1 ? 1.0 : 0.5;
      else if (term.size() == 1 && terms[t].size() == 2 && (terms[t][0] == term[0] || terms[t][1] == term[0])) a[t] = 0.5;
    }
    term_effect e;
    e.factors = term;
    double var = 0.0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      e.estimate += a[i] * g.gamma[i];
      for (std::size_t j = 0; j < terms.size(); ++j) var += a[i] * g.cov[i][j] * a[j];
    }
    e.se = have_se ? p.sigma * std::sqrt(std::max(var, 0.0)) : nan;
    out.push_back(std::move(e));
  }
  complete_table(out, have_se, p.df, confidence);
  return out;
}

}  // namespace

factorial_analysis analyze_sharded(const design& d, const std::vector<shard_values>& shards, double confidence) {
  const pooled p = prepare(d, shards);
  const auto terms = default_terms(d);
  const gls g = fit_gls(d, p, terms);
  factorial_analysis out;
  out.configs = static_cast<int>(p.rows.size()) + 1;
  out.rounds = p.min_rounds;
  out.sigma = p.sigma;
  out.df = p.df;
  out.effects = effect_table(p, g, terms, confidence);
  out.attribution = gamma_table(p, g, terms, confidence);
  return out;
}

factorial_outcome attribute_sharded(const design& d, const std::vector<shard_values>& shards, double alpha, double margin) {
  factorial_outcome out;
  out.plan = d;
  out.screen = analyze_sharded(d, shards);
  const std::vector<std::vector<int>> terms = active_terms(out.screen.effects, alpha);
  if (terms.empty()) return out;
  const pooled p = prepare(d, shards);
  out.refit = gamma_table(p, fit_gls(d, p, terms), terms, 0.95);
  out.culprits = culprits_among(out.refit, alpha, margin);
  return out;
}

std::vector<int> balanced_shards(const design& d, int shards) {
  const std::size_t n = d.runs.size();
  std::vector<int> out(n, 0);
  if (shards <= 1 || n < 2) return out;
  const auto terms = default_terms(d);
  // x[c][t]: the ±1 column of term t at run c.
  std::vector<std::vector<int>> x(n, std::vector<int>(terms.size()));
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t t = 0; t < terms.size(); ++t) {
      int v = 1;
      for (int j : terms[t]) v *= 2 * d.runs[c][static_cast<std::size_t>(j)] - 1;
      x[c][t] = v;
    }
  std::vector<std::vector<int>> sum(static_cast<std::size_t>(shards), std::vector<int>(terms.size(), 0));
  for (std::size_t c = 1; c < n; ++c) {
    out[c] = static_cast<int>(c % static_cast<std::size_t>(shards));
    for (std::size_t t = 0; t < terms.size(); ++t) sum[static_cast<std::size_t>(out[c])][t] += x[c][t];
  }
  // Objective Σ_s Σ_t S_st²; swapping runs a (shard p) and b (shard q) changes S_p by x_b − x_a and
  // S_q by x_a − x_b.
  for (bool improved = true; improved;) {
    improved = false;
    for (std::size_t a = 1; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        const auto p = static_cast<std::size_t>(out[a]), q = static_cast<std::size_t>(out[b]);
        if (p == q) continue;
        long delta = 0;
        for (std::size_t t = 0; t < terms.size(); ++t) {
          const int m = x[b][t] - x[a][t];
          delta += (sum[p][t] + m) * (sum[p][t] + m) - sum[p][t] * sum[p][t] + (sum[q][t] - m) * (sum[q][t] - m) -
                   sum[q][t] * sum[q][t];
        }
        if (delta >= 0) continue;
        for (std::size_t t = 0; t < terms.size(); ++t) {
          const int m = x[b][t] - x[a][t];
          sum[p][t] += m;
          sum[q][t] -= m;
        }
        std::swap(out[a], out[b]);
        improved = true;
      }
  }
  return out;
}

std::vector<double> measured_log_ratios(const design& d, const std::vector<shard_values>& shards) {
  std::vector<double> out(d.runs.size(), nan);
  for (const shard_values& sh : shards) {
    const auto base = std::find(sh.configs.begin(), sh.configs.end(), std::size_t{0});
    if (base == sh.configs.end()) continue;
    const auto& b = sh.y[static_cast<std::size_t>(base - sh.configs.begin())];
    for (std::size_t i = 0; i < sh.configs.size(); ++i) {
      double sum = 0.0;
      int n = 0;
      for (std::size_t r = 0; r < sh.y[i].size() && r < b.size(); ++r)
        if (std::isfinite(sh.y[i][r]) && std::isfinite(b[r])) sum += sh.y[i][r] - b[r], ++n;
      if (n > 0 && sh.configs[i] < out.size()) out[sh.configs[i]] = sum / n;
    }
  }
  return out;
}

}  // namespace abtest::search
