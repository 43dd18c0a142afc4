// /proc files through open(2) and read(2): every error is an answer, never an exception.
#include "harness/exec/proc_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace abtest::exec {

std::optional<std::string> read_to_end(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    ::close(fd);
    if (n < 0) return std::nullopt;
    return text;
  }
}

std::optional<std::string> read_proc_text(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return read_to_end(fd);
}

}  // namespace abtest::exec
