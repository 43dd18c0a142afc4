// The gnuplot scripts of the HTML report's plots (see plots.hpp).
#include "harness/report/plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/report/exporter.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {
namespace {

constexpr int row_px = 18;              // a row per arm or term: the 11 pt labels are ~13 px tall
constexpr std::size_t few_series = 6;   // up to this many nightly series share one frame
constexpr std::size_t max_panels = 12;  // small multiples of a trend
constexpr int red = 0xc0504d, green = 0x4e9a06, blue = 0x3b6ea5, grey = 0x555555;

// A gnuplot string literal.
std::string q(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A tic label: gnuplot reads it as a format for the tic's value, so a literal % is written %%.
std::string tic(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return q(out);
}

// The verdict of `variant` on `metric`, or null.
const db::verdict_record* verdict_of(const report_data& r, const std::string& variant, const std::string& metric) {
  for (const auto& v : r.verdicts)
    if (v.variant == variant && v.metric == metric) return &v;
  return nullptr;
}

// Red a regression, green a material improvement, blue anything else, grey the baseline.
int colour_of(const db::verdict_record* v, bool baseline) {
  if (baseline) return grey;
  if (v && !v->immaterial && v->verdict == db::verdict_kind::slower) return red;
  if (v && !v->immaterial && v->verdict == db::verdict_kind::faster) return green;
  return blue;
}

// The rows of a per-arm plot: the baseline, then the arms in the order of the verdict table for the
// headline metric, then any arm without a verdict, as stored.
std::vector<std::string> arm_rows(const report_data& r, const std::vector<std::string>& arms) {
  std::vector<std::string> rows;
  const auto take = [&](const std::string& a) {
    if (std::find(arms.begin(), arms.end(), a) != arms.end() && std::find(rows.begin(), rows.end(), a) == rows.end()) rows.push_back(a);
  };
  take(r.baseline);
  for (const auto& v : r.verdicts)
    if (v.metric == r.headline_metric) take(v.variant);
  for (const auto& a : arms) take(a);
  return rows;
}

// The frame of a plot of `labels.size()` horizontal rows, row 1 at the top: each label on the left,
// each note (a change) on the right.
std::string row_axes(const std::vector<std::string>& labels, const std::vector<std::string>& notes) {
  std::string s = fmt::format("set key off\nset yrange [{}.6:0.4]\nset ytics nomirror scale 0 (", labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) s += fmt::format("{}{} {}", i ? ", " : "", tic(labels[i]), i + 1);
  s += ")\nset link y2\nset y2tics scale 0 (";
  for (std::size_t i = 0; i < notes.size(); ++i) s += fmt::format("{}{} {}", i ? ", " : "", tic(notes[i]), i + 1);
  return s + ")\nset grid xtics lc rgb '#e6e6e6'\nset offsets graph 0.02, graph 0.02, 0, 0\n";
}

int rows_height(std::size_t rows) { return std::max(170, 90 + row_px * static_cast<int>(rows)); }

// Type-7 quantile (linear between order statistics; Hyndman & Fan 1996) of sorted values.
double quantile(const std::vector<double>& v, double p) {
  const double h = (v.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  return lo + 1 < v.size() ? v[lo] + (h - lo) * (v[lo + 1] - v[lo]) : v[lo];
}

// The median of the baseline's samples: the dashed reference of the box plots.
std::optional<double> baseline_median(const report_data& r) {
  for (const auto& d : r.distributions)
    if (d.variant == r.baseline && !d.values.empty()) {
      auto v = d.values;
      std::sort(v.begin(), v.end());
      return quantile(v, 0.5);
    }
  return std::nullopt;
}

std::string change_note(const db::verdict_record* v) { return v && v->ratio ? format_change(*v->ratio) : ""; }

}  // namespace

plot distributions_plot(const report_data& r) {
  std::vector<std::string> arms;
  for (const auto& d : r.distributions) arms.push_back(d.variant);
  const auto rows = arm_rows(r, arms);
  std::vector<std::string> notes;
  std::string boxes = "$b << EOD\n", outliers;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& d = *std::find_if(r.distributions.begin(), r.distributions.end(), [&](const auto& d) { return d.variant == rows[i]; });
    const auto* v = verdict_of(r, rows[i], r.headline_metric);
    notes.push_back(rows[i] == r.baseline ? "baseline" : change_note(v));
    if (d.values.empty()) continue;
    auto x = d.values;
    std::sort(x.begin(), x.end());
    // Tukey's box: whiskers to the furthest values within 1.5 IQR of the quartiles, the rest outliers.
    const double q1 = quantile(x, 0.25), q3 = quantile(x, 0.75), reach = 1.5 * (q3 - q1);
    double lo = q1, hi = q3;
    const int colour = colour_of(v, rows[i] == r.baseline);
    for (double y : x) {
      if (y < q1 - reach || y > q3 + reach) outliers += fmt::format("{:.9g} {} {}\n", y, i + 1, colour);
      else lo = std::min(lo, y), hi = std::max(hi, y);
    }
    boxes += fmt::format("{} {:.9g} {:.9g} {:.9g} {:.9g} {:.9g} {}\n", i + 1, q1, q3, quantile(x, 0.5), lo, hi, colour);
  }
  std::string s = row_axes(rows, notes) + "set style fill solid 0.35 border\nset xlabel " + q(r.headline_metric) + "\n";
  if (const auto m = baseline_median(r))
    s += fmt::format("set arrow 1 from {:.9g}, graph 0 to {:.9g}, graph 1 nohead dt 2 lc rgb '#555555'\n", *m, *m);
  s += boxes + "EOD\n";
  if (!outliers.empty()) s += "$o << EOD\n" + outliers + "EOD\n";
  // $b's columns: 1 row, 2 q1, 3 q3, 4 median, 5 lower whisker, 6 upper whisker, 7 colour
  s += "plot $b using 4:1:2:3:($1-0.32):($1+0.32):7 with boxxyerror lc rgb variable, "
       "$b using 4:($1-0.32):(0):(0.64):7 with vectors nohead lw 2 lc rgb variable, "
       "$b using 5:1:($2-$5):(0):7 with vectors nohead lc rgb variable, "
       "$b using 3:1:($6-$3):(0):7 with vectors nohead lc rgb variable, "
       "$b using 5:($1-0.15):(0):(0.3):7 with vectors nohead lc rgb variable, "
       "$b using 6:($1-0.15):(0):(0.3):7 with vectors nohead lc rgb variable";
  s += outliers.empty() ? "\n" : ", $o using 1:2:3 with points pt 6 ps 0.5 lc rgb variable\n";
  return {"Distribution per variant: " + r.headline_metric +
              " (box: quartiles and median; red: a regression, green: an improvement; dashed: the baseline's median)",
          s, 1000, rows_height(rows.size())};
}

plot effects_plot(const report_data& r) {
  std::vector<std::string> labels, notes;
  std::string data = "$e << EOD\n";
  for (std::size_t i = 0; i < r.effects.size(); ++i) {
    const auto& e = r.effects[i];
    const double lo = e.ci_low.value_or(e.estimate), hi = e.ci_high.value_or(e.estimate);
    const double worse = r.direction(e.metric) == stats::better::lower ? 1 : -1;
    const int colour = lo * worse > 0 && hi * worse > 0 ? red : lo * worse < 0 && hi * worse < 0 ? green : grey;
    labels.push_back(e.metric == r.headline_metric ? e.term : e.metric + ": " + e.term);
    notes.push_back(format_change(std::exp(e.estimate)));
    data += fmt::format("{} {:.9g} {:.9g} {:.9g} {}\n", i + 1, e.estimate, lo, hi, colour);
  }
  // the x range reaches 0 whatever the effects, so that the zero line is always there to read them by
  const std::string s = row_axes(labels, notes) + "set xlabel 'effect (ln ratio)'\nset xrange [*<0:0<*]\n" +
                        "set arrow 1 from 0, graph 0 to 0, graph 1 nohead lc rgb '#555555'\n" + data +
                        "EOD\nplot $e using 2:1:3:4:5 with xerrorbars pt 7 ps 0.8 lc rgb variable\n";
  return {"Effects and interactions (ln ratio, 95% CI; red: worse, green: better, grey: not resolved)", s, 1000,
          rows_height(r.effects.size())};
}

plot phases_plot(const report_data& r) {
  std::vector<std::string> arms, names;
  std::set<std::string> seen;
  for (const auto& p : r.phases) {
    arms.push_back(p.variant);
    for (const auto& [k, v] : p.phases)
      if (seen.insert(k).second) names.push_back(k);
  }
  std::sort(names.begin(), names.end());
  const auto rows = arm_rows(r, arms);
  std::vector<std::string> totals;
  std::vector<std::string> blocks(names.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& p = *std::find_if(r.phases.begin(), r.phases.end(), [&](const auto& p) { return p.variant == rows[i]; });
    double left = 0;
    for (std::size_t k = 0; k < names.size(); ++k) {
      const auto it = p.phases.find(names[k]);
      const double w = it == p.phases.end() ? 0.0 : it->second;
      blocks[k] += fmt::format("{} {:.9g} {:.9g}\n", i + 1, left, left + w);
      left += w;
    }
    totals.push_back(format_number(left) + " s");
  }
  // Okabe & Ito's colour-blind-safe palette, cycled when there are more phases.
  static const char* palette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#999999"};
  std::string s = row_axes(rows, totals) + "set key outside top center horizontal\nset style fill solid 0.8 border -1\n"
                                           "set xlabel 'median s'\nset xrange [0:*]\nset offsets 0, graph 0.02, 0, 0\n";
  std::string plots;
  for (std::size_t k = 0; k < names.size(); ++k) {
    s += fmt::format("$p{} << EOD\n{}EOD\n", k, blocks[k]);
    plots += fmt::format("{}$p{} using (($2+$3)/2):1:2:3:($1-0.32):($1+0.32) with boxxyerror fc rgb '{}' title {}", k ? ", " : "", k,
                         palette[k % 8], q(names[k]));
  }
  return {"Phase breakdown (median s)", s + "plot " + plots + "\n", 1000, rows_height(rows.size()) + 30};
}

plot trend_plot(const report_data& r, const std::string& metric) {
  std::vector<const trend*> ts;
  std::set<std::string> times;
  for (const auto& t : r.trends)
    if (t.metric == metric) {
      ts.push_back(&t);
      for (const auto& p : t.points) times.insert(p.first);
    }
  // x is the night's number among every series' nights (UTC times sort as text).
  const std::vector<std::string> nights(times.begin(), times.end());
  const auto x_of = [&](const std::string& at) {  // the night a change point falls in: the last one not after it
    const auto it = std::upper_bound(nights.begin(), nights.end(), at);
    return static_cast<int>(it - nights.begin());
  };
  const auto data = [&](const trend& t) {
    std::string d;
    for (const auto& [at, v] : t.points) d += fmt::format("{} {:.9g}\n", x_of(at), v);
    return d;
  };
  std::string s = fmt::format("set xrange [0.5:{}.5]\nset format x '%.0f'\n{}", nights.size(), nights.size() <= 12 ? "set xtics 1\n" : "");
  if (ts.size() <= few_series) {
    s += "set key outside right\nset xlabel 'night'\nset ylabel " + q(metric) + "\n";
    int arrow = 1;
    for (const auto& c : r.changepoints)
      if (c.metric == metric && x_of(c.at) > 0)
        s += fmt::format("set arrow {} from {},graph 0 to {},graph 1 nohead front lc rgb '#d62728' dt 2 lw 2\n", arrow++, x_of(c.at),
                         x_of(c.at));
    std::string plots;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      s += fmt::format("$t{} << EOD\n{}EOD\n", i, data(*ts[i]));
      plots += fmt::format("{}$t{} using 1:2 with linespoints pt 7 ps 0.6 title {}", i ? ", " : "", i, q(ts[i]->variant));
    }
    return {"Nightly trend: " + metric + " (red dashed: a change point)", s + "plot " + plots + "\n", 1000, 380};
  }
  // Small multiples: the series with a change point in the order of the change points' table (open
  // and worse first, then the largest), each over the band of every series, with the baseline dashed.
  std::vector<std::pair<const changepoint_row*, const trend*>> flagged;
  for (const auto& c : r.changepoints) {
    const auto t = std::find_if(ts.begin(), ts.end(), [&](const trend* t) { return t->variant == c.variant; });
    if (c.metric == metric && t != ts.end() &&
        std::none_of(flagged.begin(), flagged.end(), [&](const auto& f) { return f.first->variant == c.variant; }))
      flagged.emplace_back(&c, *t);
  }
  const std::size_t shown = std::min(flagged.size(), max_panels);
  std::map<int, std::pair<double, double>> band;
  double y_min = HUGE_VAL, y_max = -HUGE_VAL;
  const trend* base = nullptr;
  for (const auto* t : ts) {
    if (t->variant == r.baseline) base = t;
    for (const auto& [at, v] : t->points) {
      auto [it, fresh] = band.emplace(x_of(at), std::pair{v, v});
      it->second = {std::min(it->second.first, v), std::max(it->second.second, v)};
      y_min = std::min(y_min, v), y_max = std::max(y_max, v);
    }
  }
  if (band.empty()) y_min = 0, y_max = 1;  // series without points: an empty frame
  const double pad = (y_max - y_min) * 0.08 + 1e-9 * std::fabs(y_max);
  s += "$band << EOD\n";
  for (const auto& [x, mm] : band) s += fmt::format("{} {:.9g} {:.9g}\n", x, mm.first, mm.second);
  s += "EOD\n";
  if (base) s += "$base << EOD\n" + data(*base) + "EOD\n";
  const std::size_t panels = std::max<std::size_t>(shown, 1), cols = std::min<std::size_t>(panels, 3), rows = (panels + cols - 1) / cols;
  s += fmt::format("set key off\nset yrange [{:.9g}:{:.9g}]\nset tics font ',9'\nset title font ',10'\nset multiplot layout {},{}\n",
                   y_min - pad, y_max + pad, rows, cols);
  const std::string context = "$band using 1:2:3 with filledcurves fc rgb '#e3e3e3'" +
                              std::string(base ? ", $base using 1:2 with lines dt 2 lc rgb '#555555'" : "");
  if (shown == 0) s += fmt::format("set title {}\nplot {}\n", q(fmt::format("no change point among {} series", ts.size())), context);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& [c, t] = flagged[i];
    const bool worse = c->magnitude * (r.direction(metric) == stats::better::lower ? 1 : -1) > 0;
    s += "unset arrow\nset title " + q(c->variant + "  " + format_change(1 + c->magnitude)) + "\n";
    int arrow = 1;
    for (const auto& other : r.changepoints)  // every change point of the series
      if (other.variant == c->variant && other.metric == metric)
        s += fmt::format("set arrow {} from {},graph 0 to {},graph 1 nohead front lc rgb '#d62728' dt 2 lw 1.5\n", arrow++,
                         x_of(other.at), x_of(other.at));
    s += fmt::format("$s{} << EOD\n{}EOD\nplot {}, $s{} using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 lc rgb '#{:06x}'\n", i, data(*t),
                     context, i, worse ? red : green);
  }
  s += "unset multiplot\n";
  const std::string what = shown < flagged.size()
                               ? fmt::format("{} of the {} series with a change point, as the table orders them (all are there)", shown,
                                             flagged.size())
                               : fmt::format("the {} series with a change point", flagged.size());
  return {fmt::format("Nightly trend: {} — {}; grey band: the range of all {} series, dashed: {}, red dashed: a change point", metric,
                      what, ts.size(), r.baseline.empty() ? "base" : r.baseline),
          s, 1000, 30 + 200 * static_cast<int>(rows)};
}

}  // namespace abtest::report
