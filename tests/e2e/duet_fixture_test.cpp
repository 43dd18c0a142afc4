// `abtest run --duet` end to end on the planted fixture and a two-thread program (design §6): both
// arms side by side, the exact work verdict, and the refusals (several threads, one CPU, three
// variants). A duet needs its two cores free, so these run alone (RUN_SERIAL) and skip, saying so,
// when something outside the suite keeps a core busy. Its rates: layouts_duet_test.cpp and
// scripts/bench-layouts-duet.sh.
#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"
#include "tests/e2e/planted_run.hpp"

namespace abtest::test {
namespace {

namespace fs = std::filesystem;

// abtest refuses a duet whose cores are busy with other work: not this test's failure.
#define SKIP_IF_CORES_BUSY(r) \
  if ((r).exit_code == 2 && (r).err.find("free of other work") != std::string::npos) GTEST_SKIP() << (r).err

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

TEST(run_duet, baseline_and_candidate_run_side_by_side) {
  if (usable_cpus() < 2) GTEST_SKIP() << "a duet needs two CPUs; this process may use " << usable_cpus();
  temp_dir tmp("e2e-duet");
  const auto r = run_planted(tmp, {"--toggle", "SLOW", "--duet", "--rounds", "3"});  // raised to 12: three blocks of four
  SKIP_IF_CORES_BUSY(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j.value("duet", false), true);
  const auto* work = find_verdict(j, "SLOW", "planted.work_count");
  ASSERT_NE(work, nullptr) << r.out;
  EXPECT_NEAR((*work)["ratio"].get<double>(), 1.3, 1e-9);
  EXPECT_EQ((*work)["verdict"], "slower");
  EXPECT_EQ((*work)["n"], 12) << "a duet runs three blocks of four rounds at least (plan.hpp duet_rounds)";
}

TEST(run_duet, a_benchmark_on_two_cores_is_refused_and_its_experiment_marked_failed) {
  if (usable_cpus() < 2) GTEST_SKIP() << "a duet needs two CPUs; this process may use " << usable_cpus();
  temp_dir tmp("e2e-duet-threads");
  const fs::path proj = tmp / "proj";
  fs::create_directories(proj);
  // Two threads spin for 0.3 s beside the main thread.
  std::ofstream(proj / "Makefile") << "out/bench: bench.c\n\tmkdir -p out\n\tcc -O1 -DWORK=$(WORK) bench.c -o out/bench -pthread\n";
  std::ofstream(proj / "bench.c")
      << "#include <pthread.h>\n#include <stdio.h>\n#include <time.h>\n"
         "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }\n"
         "static void* spin(void* arg) { (void)arg; volatile unsigned long x = 0; double t0 = now(); while (now() - t0 < 0.3) ++x; return 0; }\n"
         "int main(void) { pthread_t a, b; pthread_create(&a, 0, spin, 0); pthread_create(&b, 0, spin, 0);\n"
         "  pthread_join(a, 0); pthread_join(b, 0); printf(\"{\\\"metrics\\\": {\\\"work\\\": %d}}\\n\", WORK); return 0; }\n";
  std::ofstream(proj / "abtest.json") << R"({"project": "threads",
    "build": {"system": "command", "command": ["make", "WORK={WORK}"], "bin": "out", "targets": ["bench"]},
    "toggles": [{"id": "W", "var": "WORK", "levels": ["100", "200"]}],
    "benchmarks": [{"name": "threads", "format": "json", "warmups": 1, "command": ["{bin}/bench"]}]})";
  ASSERT_EQ(std::system(("cd '" + proj.string() + "' && git init -q && git add -A && git -c user.name=t -c user.email=t@t "
                         "commit -qm 'two threads'").c_str()),
            0);
  const fs::path db = tmp / "r.db";
  const auto r = run_cli({"--manifest", (proj / "abtest.json").string(), "--db", db.string(), "run", "--toggle", "W",
                          "--duet", "--rounds", "2"});
  SKIP_IF_CORES_BUSY(r);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  // Seen through /proc while it ran (main thread + 2), not from CPU time, which a busy host evens out.
  EXPECT_NE(r.err.find("ran 3 threads at once"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("without --duet"), std::string::npos) << r.err;
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM experiment WHERE status = 'failed'"), 1);
  // Without --duet the same benchmark runs as usual.
  const auto plain = run_cli({"--manifest", (proj / "abtest.json").string(), "--db", db.string(), "--json", "run", "--toggle",
                              "W", "--rounds", "2"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
}

TEST(run_duet, more_than_two_variants_or_one_cpu_is_refused) {
  temp_dir tmp("e2e-duet-bad");
  const auto three = run_planted(tmp, {"--toggle", "SLOW", "--variant", "PAIR1", "--duet"});
  EXPECT_EQ(three.exit_code, 2);
  EXPECT_NE(three.err.find("one candidate"), std::string::npos) << three.err;
  const auto one_cpu = run_planted(tmp, {"--toggle", "SLOW", "--duet", "--pin", "0"});
  EXPECT_EQ(one_cpu.exit_code, 2);
  EXPECT_NE(one_cpu.err.find("two cores"), std::string::npos) << one_cpu.err;
}

}  // namespace
}  // namespace abtest::test
