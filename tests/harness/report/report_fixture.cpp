// The fixed database of the report tests (see report_fixture.hpp).
#include "report_fixture.hpp"

#include "db/results_store.hpp"
#include "db/time_text.hpp"

namespace abtest::report::testing {

void write_fixture(const std::filesystem::path& path) {
  std::filesystem::remove(path);
  db::results_store store(path);
  db::machine_record m;
  m.fingerprint = "fixture";
  m.hostname = "prover-1";
  m.cpu_model = "test cpu";
  const auto machine = store.upsert_machine(m);
  for (int night = 1; night <= 6; ++night) {
    db::experiment_record e;
    e.id = "n-" + std::to_string(night);
    e.kind = db::experiment_kind::nightly;
    e.command_line = "abtest matrix --nightly";
    e.project = "fixture";
    e.status = db::experiment_status::complete;
    e.started_at = db::parse_utc("2026-11-0" + std::to_string(night) + "T02:00:00.000Z");
    e.machine_id = machine;
    e.arms = {{0, "base", {}, std::nullopt, db::arm_role::baseline}, {1, "A1=4", {{"A1", "4"}}, std::nullopt, db::arm_role::candidate}};
    store.create_experiment(e);
    for (int arm = 0; arm < 2; ++arm)
      for (int round = 1; round <= 3; ++round) {
        sample s;
        s.experiment_id = e.id;
        s.arm = arm;
        s.benchmark = "proof";
        s.round = round;
        s.position = arm;
        s.machine_id = machine;
        s.started_at = e.started_at;
        const double step = arm == 1 && night >= 4 ? 1.06 : 1.0;
        const double synth = (1.0 + 0.01 * round) * step, msm = 0.5 + 0.005 * round;
        s.metrics = {{"proof.total_s", synth + msm}, {"proof.synthesis_s", synth}, {"proof.msm_a_s", msm}};
        store.insert_sample(s);
      }
  }
  db::verdict_record v;
  v.experiment_id = "n-6";
  v.variant = "A1=4";
  v.baseline = "base";
  v.metric = "proof.total_s";
  v.n = 3;
  v.baseline_median = 1.52;
  v.candidate_median = 1.5812;
  v.ratio = 1.0403;
  v.ci_low = 1.031;
  v.ci_high = 1.049;
  v.p_value = 0.0004;
  v.p_adjusted = 0.0012;
  v.verdict = db::verdict_kind::slower;
  v.created_at = db::parse_utc("2026-11-06T03:00:00.000Z");
  store.replace_verdicts("n-6", std::vector{v});
  db::effect_record fx{"n-6", "proof.total_s", "A1=4", 0.0395, 0.004, 0.031, 0.048, 0.0002, 0.0006, std::nullopt};
  store.replace_effects("n-6", std::vector{fx});
  db::changepoint_record c;
  c.variant = "A1=4";
  c.metric = "proof.total_s";
  c.at_experiment = "n-4";
  c.at_time = db::parse_utc("2026-11-04T02:00:00.000Z");
  c.magnitude = 0.0395;
  c.p_value = 0.0003;
  store.record_changepoint(c);
}

}  // namespace abtest::report::testing
