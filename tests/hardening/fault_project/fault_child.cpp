// A benchmark that misbehaves as asked by argv[1], for the child-fault tests of `abtest run`:
//   ok               one valid json-format report
//   hang PIDFILE     forks a grandchild (writes its pid to PIDFILE), then both sleep for ever
//   crash            dies by SIGSEGV
//   garbage          prints bytes that are no report at all
//   flood            prints 100 MB, then a valid report at the very end
//   silent           exits 0 with a valid report that holds no metrics
//   empty            exits 0 and prints nothing
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "ok";
  const char* report = "{\"metrics\": {\"total_s\": 0.5}, \"checks\": {\"digest\": \"d\"}, \"context\": {\"tag\": \"" FAULT_TAG "\"}}\n";
  if (mode == "ok") {
    std::fputs(report, stdout);
  } else if (mode == "hang") {
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      for (;;) ::pause();
    }
    if (argc > 2) std::ofstream(argv[2]) << grandchild << "\n";
    for (;;) ::pause();
  } else if (mode == "crash") {
    ::raise(SIGSEGV);
  } else if (mode == "garbage") {
    std::fputs("{{{ not json \x01\x02\xff NaN]]]\n", stdout);
  } else if (mode == "flood") {
    std::string line(1023, 'x');
    line += '\n';
    for (int i = 0; i < 100 * 1024; ++i) std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputs(report, stdout);
  } else if (mode == "silent") {
    std::fputs("{\"metrics\": {}, \"checks\": {}}\n", stdout);
  } else if (mode != "empty") {
    return 2;
  }
  return 0;
}
