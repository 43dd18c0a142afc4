// The text of a gnuplot SVG as boxes on the canvas, to check without a browser that labels do not
// collide: each label's box from its anchor, rotation, font size and DejaVu Sans advance widths.
#pragma once

#include <array>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abtest::report::testing {

struct svg_text {
  std::string text;
  double x = 0, y = 0, angle = 0, font_size = 0;  // anchor point (baseline), rotation in degrees
  std::string anchor;                             // start | middle | end
  std::array<std::pair<double, double>, 4> corners{};  // the glyphs' box, on the canvas
};

// Advance width of a character in em, DejaVu Sans (the "sans" of Debian's fontconfig): the widths of
// its glyphs rounded up; 0.65 em for any other character.
inline double advance_em(char c) {
  static constexpr std::string_view chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+=-.,:% *_()[]/";
  static constexpr double widths[] = {
      .64, .64, .64, .64, .64, .64, .64, .64, .64, .64,                                          // digits
      .69, .69, .70, .77, .64, .58, .78, .76, .30, .30, .66, .56, .87, .75, .79, .61, .79, .70,  // A–R
      .64, .62, .74, .69, .99, .69, .62, .69,                                                    // S–Z
      .62, .64, .55, .64, .62, .36, .64, .64, .28, .28, .58, .28, .98, .64, .62, .64, .64, .42,  // a–r
      .53, .40, .64, .60, .82, .60, .60, .53,                                                    // s–z
      .84, .84, .37, .32, .32, .34, .95, .32, .50, .50, .40, .40, .40, .40, .34};
  static_assert(std::size(widths) == chars.size());
  const auto i = chars.find(c);
  return i == std::string::npos ? 0.65 : widths[i];
}

inline std::string unescape(std::string s) {
  for (const auto& [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}})
    for (std::size_t p; (p = s.find(from)) != std::string::npos;) s.replace(p, std::string(from).size(), to);
  return s;
}

inline std::string attribute(const std::string& tag, const std::string& name) {
  const auto p = tag.find(name + "=\"");
  if (p == std::string::npos) return "";
  const auto from = p + name.size() + 2;
  return tag.substr(from, tag.find('"', from) - from);
}

// gnuplot writes each label as <g transform="translate(x,y) rotate(a)" … font-size="…"
// text-anchor="…"><text>…</text></g>.
inline std::vector<svg_text> texts_of(const std::string& svg) {
  std::vector<svg_text> out;
  for (std::size_t p = svg.find("<g transform=\"translate("); p != std::string::npos; p = svg.find("<g transform=\"translate(", p + 1)) {
    const std::string tag = svg.substr(p, svg.find('>', p) - p);
    const auto body = svg.find_first_not_of(" \t\r\n", p + tag.size() + 1);
    if (svg.compare(body, 5, "<text") != 0) continue;
    const auto open = svg.find('>', body) + 1, close = svg.find("</text>", open);
    svg_text t;
    t.text = unescape(svg.substr(open, close - open));
    const std::string transform = attribute(tag, "transform");
    t.x = std::strtod(transform.c_str() + 10, nullptr);
    t.y = std::strtod(transform.c_str() + transform.find(',') + 1, nullptr);
    if (const auto r = transform.find("rotate("); r != std::string::npos) t.angle = std::strtod(transform.c_str() + r + 7, nullptr);
    t.font_size = std::strtod(attribute(tag, "font-size").c_str(), nullptr);
    t.anchor = attribute(tag, "text-anchor");
    // The inked part: leading and trailing spaces take room but show nothing.
    double lead = 0, ink = 0, trail = 0;
    const auto first = t.text.find_first_not_of(' '), last = t.text.find_last_not_of(' ');
    if (first == std::string::npos) continue;
    for (std::size_t i = 0; i < t.text.size(); ++i) (i < first ? lead : i > last ? trail : ink) += advance_em(t.text[i]) * t.font_size;
    const double whole = lead + ink + trail;
    const double left = (t.anchor == "end" ? -whole : t.anchor == "middle" ? -whole / 2 : 0) + lead;
    const double a = t.angle * std::acos(-1.0) / 180, c = std::cos(a), s = std::sin(a);
    // ascent 0.76 em (DejaVu's cap height 0.73), descent 0.24 em
    const std::array<std::pair<double, double>, 4> local{{{left, -0.76 * t.font_size},
                                                          {left + ink, -0.76 * t.font_size},
                                                          {left + ink, 0.24 * t.font_size},
                                                          {left, 0.24 * t.font_size}}};
    for (std::size_t i = 0; i < 4; ++i)
      t.corners[i] = {t.x + c * local[i].first - s * local[i].second, t.y + s * local[i].first + c * local[i].second};
    out.push_back(std::move(t));
  }
  return out;
}

// How far two boxes overlap along the axis that separates them best (separating axis theorem, two
// convex quadrilaterals); ≤ 0 when they do not overlap.
inline double overlap(const svg_text& a, const svg_text& b) {
  double least = HUGE_VAL;
  for (const auto* box : {&a.corners, &b.corners})
    for (std::size_t i = 0; i < 2; ++i) {
      const double nx = -((*box)[i + 1].second - (*box)[i].second), ny = (*box)[i + 1].first - (*box)[i].first;
      const double len = std::hypot(nx, ny);
      double a_lo = HUGE_VAL, a_hi = -HUGE_VAL, b_lo = HUGE_VAL, b_hi = -HUGE_VAL;
      for (const auto& [x, y] : a.corners) a_lo = std::min(a_lo, (x * nx + y * ny) / len), a_hi = std::max(a_hi, (x * nx + y * ny) / len);
      for (const auto& [x, y] : b.corners) b_lo = std::min(b_lo, (x * nx + y * ny) / len), b_hi = std::max(b_hi, (x * nx + y * ny) / len);
      least = std::min(least, std::min(a_hi, b_hi) - std::max(a_lo, b_lo));
    }
  return least;
}

// The canvas size of an SVG: its width and height attributes.
inline std::pair<double, double> canvas_of(const std::string& svg) {
  const std::string tag = svg.substr(0, svg.find('>'));
  return {std::strtod(attribute(tag, "width").c_str(), nullptr), std::strtod(attribute(tag, "height").c_str(), nullptr)};
}

// The distinct colours of the SVG's strokes that are not grey (r, g, b within 24 of each other),
// as gnuplot writes them: stroke='rgb(192,  80,  77)'.
inline std::set<std::string> stroke_colours(const std::string& svg) {
  std::set<std::string> out;
  for (const char* quote : {"stroke='rgb(", "stroke=\"rgb("})
    for (std::size_t p = svg.find(quote); p != std::string::npos; p = svg.find(quote, p + 1)) {
      const char* s = svg.c_str() + p + 12;
      char* end = nullptr;
      const long r = std::strtol(s, &end, 10), g = std::strtol(end + 1, &end, 10), b = std::strtol(end + 1, &end, 10);
      if (std::max({r, g, b}) - std::min({r, g, b}) > 24) out.insert(std::to_string(r) + "," + std::to_string(g) + "," + std::to_string(b));
    }
  return out;
}

}  // namespace abtest::report::testing
