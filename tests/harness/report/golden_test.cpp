// Golden tests: markdown and JSON reports of the fixed database must equal the files in golden/
// byte for byte. After an intended change, regenerate with ABTEST_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "db/results_store.hpp"
#include "harness/report/exporter.hpp"
#include "report_fixture.hpp"

namespace abtest::report {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void check_golden(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(ABTEST_GOLDEN_DIR) / name;
  if (std::getenv("ABTEST_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << text;
    GTEST_SKIP() << "golden file " << path << " rewritten";
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing — run with ABTEST_UPDATE_GOLDEN=1";
  EXPECT_EQ(text, read(path)) << "report differs from " << path;
}

class golden : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("abtest-report-golden-" + std::to_string(::getpid()) + ".db");
    testing::write_fixture(path_);
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix);
  }
  std::filesystem::path path_;
};

TEST_F(golden, markdown_of_one_experiment) {
  db::results_store store(path_, db::open_mode::read_only);
  check_golden("experiment.md", make_exporter(format::markdown)->render(load_experiment(store, "n-6")));
}

TEST_F(golden, markdown_of_the_nightly_view) {
  db::results_store store(path_, db::open_mode::read_only);
  check_golden("nightly.md", make_exporter(format::markdown)->render(load_nightly(store)));
}

TEST_F(golden, json_of_the_nightly_view) {
  db::results_store store(path_, db::open_mode::read_only);
  check_golden("nightly.json", make_exporter(format::json)->render(load_nightly(store)));
}

TEST_F(golden, unknown_experiment_and_format_are_refused) {
  db::results_store store(path_, db::open_mode::read_only);
  EXPECT_THROW(load_experiment(store, "n-99"), std::runtime_error);
  EXPECT_THROW(parse_format("pdf"), std::invalid_argument);
  EXPECT_EQ(parse_format("md"), format::markdown);
}

}  // namespace
}  // namespace abtest::report
