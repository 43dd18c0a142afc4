// scripts/nightly.slurm on a single-node Slurm cluster that the test starts on localhost (issue 7):
// 4 shards as a job array plus the dependent merge job, compared with a single-host
// `abtest matrix --nightly` of the same scenario. Skips (never passes) without slurm-wlm or root.
//
// What "equal" means here, precisely:
// - experiments: the merged database holds 4 nightly experiments, one per shard index 0..3, all of
//   one group; the single-host run is 1 experiment. Together the shards' arms are the single run's
//   arms, and each configuration other than base and the canary is in exactly one shard.
// - samples: per configuration, as many measured samples merged as on the single host (rounds ×
//   benchmarks); base and the canary are measured by every shard, so they have 4× the single
//   host's count; the totals follow (single + 3 × (base + canary)).
// - machines and uuids: every sample of every shard file is in the merged file once, under the same
//   uuid and with the same machine (fingerprint); no uuid repeats; `abtest db check` passes.
// - analysis: the merge job's `matrix --analyze` over the 4 shards names the scenario's planted
//   culprits, as the single-host matrix does.
// Then a night whose shard 2 fails: the merge job names it and exits 4, merging nothing.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "db/results_store.hpp"
#include "tests/nightly/nightly_support.hpp"

namespace abtest::nightly_test {
namespace {

using clock_type = std::chrono::steady_clock;

const fs::path scenario = fs::path(ABTEST_SOURCE_DIR) / "tests" / "scenarios" / "incident.json";
constexpr int rounds = 6;

// A TCP port nobody listens on now (the kernel's pick for port 0).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

std::optional<std::string> missing_slurm() {
  if (::geteuid() != 0) return "not root: a throwaway single-node cluster runs slurmd as root";
  for (const char* tool : {"slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo"})
    if (shell(std::string("PATH=$PATH:/usr/sbin command -v ") + tool).code != 0)
      return std::string(tool) + " not found — scripts/setup.sh --with-tests (or apt-get install slurm-wlm) installs it";
  return std::nullopt;
}

// "Key=Value" out of `scontrol show job -o ID`.
std::string field(const std::string& line, const std::string& key) {
  const auto at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const auto start = at + key.size() + 2;
  return line.substr(start, line.find(' ', start) - start);
}

struct sample_facts {
  std::string variant, fingerprint;
};

// uuid → (variant, machine fingerprint) of the measured samples of one results file.
std::map<std::string, sample_facts> samples_of(const fs::path& db_file, std::map<std::string, int>* per_variant = nullptr,
                                               std::vector<db::experiment_record>* experiments = nullptr) {
  db::results_store store(db_file, db::open_mode::read_only);
  std::map<std::int64_t, std::string> fingerprint;
  for (const auto& m : store.list_machines()) fingerprint[m.id] = m.fingerprint;
  std::map<std::string, sample_facts> out;
  const auto all = store.list_experiments(db::experiment_kind::nightly);
  if (experiments) *experiments = all;
  for (const auto& e : all) {
    std::map<int, std::string> variant;
    for (const auto& a : e.arms) variant[a.idx] = a.variant;
    for (const auto& s : store.list_samples(e.id)) {
      EXPECT_TRUE(out.emplace(s.uuid, sample_facts{variant[s.arm], fingerprint[s.machine_id]}).second)
          << "uuid " << s.uuid << " twice in " << db_file;
      if (per_variant && !s.warmup && s.status == sample_status::ok) ++(*per_variant)[variant[s.arm]];
    }
  }
  return out;
}

std::set<std::string> culprits(const nlohmann::json& effects) {
  std::set<std::string> out;
  for (const auto& m : effects)
    if (m["metric"] == "proof.total_s")
      for (const auto& e : m["effects"])
        if (e["culprit"].get<bool>()) out.insert(e["term"].get<std::string>());
  return out;
}

class slurm_cluster : public scratch_test {
 protected:
  void SetUp() override {
    if (const auto why = missing_slurm()) GTEST_SKIP() << "no single-node Slurm here: " << *why;
    scratch_test::SetUp();
    const std::string hostname = shell("hostname -s").out, host = hostname.substr(0, hostname.find('\n'));
    const long mem_mib = ::sysconf(_SC_PHYS_PAGES) / 1024 * ::sysconf(_SC_PAGE_SIZE) / 1024;
    const int ctld_port = free_port(), d_port = free_port();
    ASSERT_GT(ctld_port, 0);
    ASSERT_GT(d_port, 0);
    ASSERT_NE(ctld_port, d_port);
    fs::create_directories(dir_ / "state");
    fs::create_directories(dir_ / "spool");
    const std::string d = dir_.string();
    std::ofstream(dir_ / "slurm.conf") << "ClusterName=abtest\nSlurmctldHost=" << host << "\nSlurmctldPort=" << ctld_port
                                       << "\nSlurmdPort=" << d_port
                                       << "\nAuthType=auth/none\nCredType=cred/none\nSlurmUser=root\nSlurmdUser=root\n"
                                       << "StateSaveLocation=" << d << "/state\nSlurmdSpoolDir=" << d << "/spool\n"
                                       << "SlurmctldPidFile=" << d << "/slurmctld.pid\nSlurmdPidFile=" << d << "/slurmd.pid\n"
                                       << "SlurmctldLogFile=" << d << "/ctld.log\nSlurmdLogFile=" << d << "/d.log\n"
                                       << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                                       << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\n"
                                       << "AccountingStorageType=accounting_storage/none\nMinJobAge=600\n"
                                       << "NodeName=" << host << " CPUs=" << std::thread::hardware_concurrency()
                                       << " RealMemory=" << mem_mib / 2 << " State=UNKNOWN\n"
                                       << "PartitionName=main Nodes=" << host << " Default=YES MaxTime=INFINITE State=UP\n";
    conf_ = "SLURM_CONF=" + quote((dir_ / "slurm.conf").string()) + " PATH=$PATH:/usr/sbin ";
    const auto ctld = shell(conf_ + "slurmctld -f " + quote((dir_ / "slurm.conf").string()));
    ASSERT_EQ(ctld.code, 0) << ctld.out;
    const auto slurmd = shell(conf_ + "slurmd -f " + quote((dir_ / "slurm.conf").string()));
    ASSERT_EQ(slurmd.code, 0) << slurmd.out;
    const auto deadline = clock_type::now() + std::chrono::seconds(60);
    while (shell(conf_ + "sinfo -h -o %T").out.find("idle") == std::string::npos) {
      ASSERT_LT(clock_type::now(), deadline) << "the node never became idle\n" << read(dir_ / "ctld.log") << read(dir_ / "d.log");
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  void TearDown() override {
    if (dir_.empty()) return;
    if (!jobs_.empty()) shell(conf_ + "scancel " + jobs_);
    // Stop the daemons this test started, by their pids, and wait for them to go.
    for (const char* pidfile : {"slurmd.pid", "slurmctld.pid"}) {
      const std::string text = read(dir_ / pidfile);
      if (text.empty()) continue;
      const pid_t pid = static_cast<pid_t>(std::stol(text));
      ::kill(pid, SIGTERM);
      for (int i = 0; i < 100 && ::kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (::kill(pid, 0) == 0) ::kill(pid, SIGKILL);
    }
    scratch_test::TearDown();
  }

  // Waits for a job to leave the queue; returns its `scontrol show job -o` line.
  std::string wait_for(const std::string& job, std::chrono::seconds limit) {
    const auto deadline = clock_type::now() + limit;
    for (;;) {
      const std::string line = shell(conf_ + "scontrol show job -o " + job).out;
      const std::string state = field(" " + line, "JobState");
      if (state != "PENDING" && state != "RUNNING" && state != "CONFIGURING" && state != "COMPLETING") return line;
      if (clock_type::now() > deadline) return "timeout: " + line;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  std::string conf_;  // environment prefix of the Slurm client commands
  std::string jobs_;  // submitted job ids, cancelled on the way out
};

TEST_F(slurm_cluster, four_shards_merged_equal_a_single_host_run) {
  const auto t0 = clock_type::now();
  const fs::path merged = dir_ / "merged.db", out = dir_ / "out";
  const auto submit = shell(conf_ + "ABTEST=" + quote(ABTEST_BINARY) + " " + quote(ABTEST_NIGHTLY_SLURM) +
                            " submit --shards 4 --canary frozen --simulate " + quote(scenario.string()) + " --rounds " +
                            std::to_string(rounds) + " --db " + quote(merged.string()) + " --out " + quote(out.string()));
  ASSERT_EQ(submit.code, 0) << submit.out;
  std::map<std::string, std::string> printed;
  std::istringstream lines(submit.out);
  for (std::string key, value; lines >> key >> value;) printed[key] = value;
  ASSERT_TRUE(printed.count("array") && printed.count("merge") && printed.count("group") && printed.count("shards")) << submit.out;
  jobs_ = printed["array"] + " " + printed["merge"];
  const std::string merge = wait_for(printed["merge"], std::chrono::seconds(240));
  const fs::path shard_dir = printed["shards"];
  ASSERT_EQ(field(" " + merge, "JobState"), "COMPLETED") << merge << "\n" << read(shard_dir / "merge.log");
  EXPECT_EQ(field(" " + merge, "ExitCode"), "0:0") << read(shard_dir / "merge.log");
  for (int i = 0; i < 4; ++i) {
    const std::string task = shell(conf_ + "scontrol show job -o " + printed["array"] + "_" + std::to_string(i)).out;
    EXPECT_EQ(field(" " + task, "JobState"), "COMPLETED") << task << read(shard_dir / ("shard-" + std::to_string(i) + ".log"));
  }
  const double cluster_s = std::chrono::duration<double>(clock_type::now() - t0).count();

  // The single-host run of the same design.
  const fs::path single = dir_ / "single.db";
  const auto one = shell(std::string(ABTEST_BINARY) + " --json --db " + quote(single.string()) + " matrix --nightly --canary frozen --simulate " +
                         quote(scenario.string()) + " --rounds " + std::to_string(rounds));
  ASSERT_EQ(one.code, 0) << one.out;

  // Experiments.
  std::vector<db::experiment_record> merged_experiments, single_experiments;
  std::map<std::string, int> merged_count, single_count;
  const auto merged_samples = samples_of(merged, &merged_count, &merged_experiments);
  samples_of(single, &single_count, &single_experiments);
  ASSERT_EQ(single_experiments.size(), 1u);
  ASSERT_EQ(merged_experiments.size(), 4u);
  std::set<int> indices;
  std::map<std::string, int> shards_of_variant;
  for (const auto& e : merged_experiments) {
    EXPECT_EQ(e.config.value("group", ""), printed["group"]);
    EXPECT_EQ(e.config["shard"]["count"], 4);
    indices.insert(e.config["shard"]["index"].get<int>());
    for (const auto& a : e.arms) ++shards_of_variant[a.variant];
  }
  EXPECT_EQ(indices, (std::set<int>{0, 1, 2, 3}));
  std::set<std::string> single_variants;
  for (const auto& a : single_experiments[0].arms) single_variants.insert(a.variant);
  EXPECT_EQ(single_variants.size(), 33u) << "2^5 configurations and the canary";
  for (const auto& v : single_variants)
    EXPECT_EQ(shards_of_variant[v], v == "base" || v == "canary" ? 4 : 1) << v;
  EXPECT_EQ(shards_of_variant.size(), single_variants.size());

  // Samples per configuration.
  int single_total = 0, merged_total = 0;
  for (const auto& v : single_variants) {
    const int factor = v == "base" || v == "canary" ? 4 : 1;
    EXPECT_EQ(single_count[v], rounds) << v;
    EXPECT_EQ(merged_count[v], factor * single_count[v]) << v;
    single_total += single_count[v];
    merged_total += merged_count[v];
  }
  EXPECT_EQ(merged_total, single_total + 3 * 2 * rounds);
  EXPECT_EQ(static_cast<int>(merged_samples.size()), merged_total) << "simulated runs have no warm-ups or failures";

  // Every shard's samples are in the merged file once, with their machine.
  std::size_t from_shards = 0;
  for (int i = 0; i < 4; ++i) {
    const auto part = samples_of(shard_dir / ("shard-" + std::to_string(i) + ".db"));
    from_shards += part.size();
    for (const auto& [uuid, facts] : part) {
      const auto it = merged_samples.find(uuid);
      ASSERT_NE(it, merged_samples.end()) << "sample " << uuid << " of shard " << i << " was not merged";
      EXPECT_EQ(it->second.fingerprint, facts.fingerprint) << uuid;
      EXPECT_EQ(it->second.variant, facts.variant) << uuid;
    }
  }
  EXPECT_EQ(from_shards, merged_samples.size());
  const auto check = shell(std::string(ABTEST_BINARY) + " --db " + quote(merged.string()) + " db check");
  EXPECT_EQ(check.code, 0) << check.out;

  // The design analysed over the shards names the planted culprits, as the single host does.
  const auto effects = nlohmann::json::parse(read(out / "effects.json"));
  EXPECT_EQ(effects["experiments"].size(), 4u);
  const std::set<std::string> planted{"A1=4", "B1", "A1=4*B1"};
  const auto from_merge = culprits(effects["effects"]), from_single = culprits(nlohmann::json::parse(one.out)["effects"]);
  for (const auto& c : planted) {
    EXPECT_TRUE(from_merge.count(c)) << c << " not found over the merged shards: " << effects["effects"].dump(2);
    EXPECT_TRUE(from_single.count(c)) << c << " not found on the single host";
  }
  for (const char* report : {"report.md", "report.json", "report.html", "history.json"}) EXPECT_TRUE(fs::exists(out / report)) << report;
  const double compared_s = std::chrono::duration<double>(clock_type::now() - t0).count();

  // A shard that fails (here: abtest refuses shard 2) leaves no results file; the merge job still
  // runs (afterany), names the shard and fails with exit 4 instead of merging three quarters.
  const fs::path failing = dir_ / "abtest-failing-shard-2";
  std::ofstream(failing) << "#!/bin/sh\ncase \" $* \" in *\" --shard 2/4 \"*) echo 'shard 2 refused' >&2; exit 3;; esac\nexec "
                         << quote(ABTEST_BINARY) << " \"$@\"\n";
  fs::permissions(failing, fs::perms::owner_all);
  const auto second = shell(conf_ + "ABTEST=" + quote(failing.string()) + " " + quote(ABTEST_NIGHTLY_SLURM) + " submit --shards 4 --simulate " +
                            quote(scenario.string()) + " --rounds 2 --db " + quote((dir_ / "second.db").string()));
  ASSERT_EQ(second.code, 0) << second.out;
  std::map<std::string, std::string> ids;
  std::istringstream second_lines(second.out);
  for (std::string key, value; second_lines >> key >> value;) ids[key] = value;
  jobs_ += " " + ids["array"] + " " + ids["merge"];
  const std::string failed_merge = wait_for(ids["merge"], std::chrono::seconds(240));
  EXPECT_EQ(field(" " + failed_merge, "JobState"), "FAILED") << failed_merge;
  EXPECT_EQ(field(" " + failed_merge, "ExitCode"), "4:0") << failed_merge;
  const std::string merge_log = read(fs::path(ids["shards"]) / "merge.log");
  EXPECT_NE(merge_log.find("shard(s) 2 of 4 wrote no results"), std::string::npos) << merge_log;
  EXPECT_FALSE(fs::exists(dir_ / "second.db")) << "nothing merged";

  std::printf("[ measured ] cluster up to merge job done %.1f s (whole test so far %.1f s); single host %d samples in 1 experiment, "
              "merged %d samples in 4 experiments (base and canary %d each vs %d); culprits merged {%s}; failed-shard night %.1f s\n",
              cluster_s, compared_s, single_total, merged_total,
              merged_count["base"], single_count["base"], [&] {
                std::string s;
                for (const auto& c : from_merge) s += (s.empty() ? "" : ", ") + c;
                return s;
              }().c_str(),
              std::chrono::duration<double>(clock_type::now() - t0).count() - compared_s);
}

}  // namespace
}  // namespace abtest::nightly_test
