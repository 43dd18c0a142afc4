// The gnuplot driver: runs gnuplot on a script and inline data, returns the SVG it drew.
#pragma once

#include <optional>
#include <string>

namespace abtest::report {

// True when a `gnuplot` program is on PATH.
bool gnuplot_available();

// Runs `gnuplot` (found on PATH, started without a shell) on `script`, after setting the terminal
// to `svg size width,height` and the output to a temporary file, and returns the SVG text.
// `script` carries its data inline (`$data << EOD … EOD`). nullopt when gnuplot is missing or
// fails; `error` then says why (with gnuplot's stderr tail).
std::optional<std::string> plot_svg(const std::string& script, int width, int height, std::string* error = nullptr);

}  // namespace abtest::report
