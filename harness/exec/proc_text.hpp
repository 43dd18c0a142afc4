// A /proc file read whole, without exceptions: a process's files vanish with it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace abtest::exec {

// The contents of `path`, or nullopt when it cannot be opened or read. Made for /proc/<pid>/…, which
// can disappear between opening and reading when the process exits; std::ifstream would then throw
// from its read (libstdc++'s filebuf turns the ESRCH of read(2) into std::ios_base::failure — seen as
// "basic_filebuf::underflow error reading the file: No such process" from the load check).
std::optional<std::string> read_proc_text(const std::filesystem::path& path);

// The rest of open descriptor `fd`, which it closes; nullopt on a read error.
std::optional<std::string> read_to_end(int fd);

}  // namespace abtest::exec
