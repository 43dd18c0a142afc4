// Running gnuplot without a shell (posix_spawnp) on a temporary script (see gnuplot.hpp).
#include "harness/report/gnuplot.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace abtest::report {
namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A private temporary folder, removed with everything in it when the object goes.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    std::string templ = (std::filesystem::temp_directory_path() / "abtest-plot-XXXXXX").string();
    if (mkdtemp(templ.data())) path = templ;
  }
  ~temp_dir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

bool gnuplot_available() {
  const char* env = std::getenv("PATH");
  std::stringstream dirs(env ? env : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && access((std::filesystem::path(d) / "gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

std::optional<std::string> plot_svg(const std::string& script, int width, int height, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<std::string> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (!gnuplot_available()) return fail("gnuplot is not installed — `apt-get install gnuplot-nox` (scripts/setup.sh)");
  temp_dir dir;
  if (dir.path.empty()) return fail("cannot create a temporary folder for the plot");
  const auto gp = dir.path / "plot.gp", svg = dir.path / "plot.svg", err = dir.path / "stderr.txt";
  {
    std::ofstream out(gp);
    out << fmt::format("set terminal svg size {},{} font 'sans,11' background '#ffffff'\nset termoption noenhanced\nset output '{}'\n", width,
                       height, svg.string())
        << script << "\nunset output\n";
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string prog = "gnuplot", arg = gp.string();
  char* argv[] = {prog.data(), arg.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return fail(fmt::format("cannot start gnuplot: {}", std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string text = std::filesystem::exists(svg) ? read_all(svg) : "";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.find("<svg") == std::string::npos) {
    std::string tail = read_all(err);
    if (tail.size() > 400) tail = tail.substr(tail.size() - 400);
    return fail(fmt::format("gnuplot failed: {}", tail));
  }
  return text.substr(text.find("<svg"));
}

}  // namespace abtest::report
