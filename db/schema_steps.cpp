// db schema steps: the SQL of each numbered migration, append-only (tables documented in db/README.md).
#include "db/migrations.hpp"

#include <string_view>

namespace abtest::db {

namespace {

// Conventions: STRICT tables (SQLite ≥ 3.37) so a value of the wrong type is an error, not a
// silent conversion; times are UTC ISO-8601 text ("2026-12-02T15:45:01.123Z"), which sorts and
// works with SQLite's date functions; JSON columns are TEXT checked with json_valid.

constexpr std::string_view v1_measurements = R"sql(
CREATE TABLE machine (
  id          INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL UNIQUE,
  hostname    TEXT NOT NULL,
  cpu_model   TEXT NOT NULL,
  cores       INTEGER,
  memory_mib  INTEGER,
  gpu         TEXT,
  os          TEXT,
  compiler    TEXT,
  details     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details))
) STRICT;

CREATE TABLE build (
  id          INTEGER PRIMARY KEY,
  uuid        TEXT NOT NULL UNIQUE,
  variant     TEXT NOT NULL,
  levels      TEXT NOT NULL CHECK (json_valid(levels)),
  source_dir  TEXT NOT NULL,
  commit_sha  TEXT,
  dirty       INTEGER NOT NULL CHECK (dirty IN (0, 1)),
  compiler    TEXT,
  flags       TEXT,
  build_dir   TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  duration_s  REAL,
  status      TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  log_path    TEXT,
  log_tail    TEXT,
  machine_id  INTEGER REFERENCES machine(id)
) STRICT;
CREATE INDEX build_by_variant ON build(variant, commit_sha, status, started_at);

CREATE TABLE build_binary (
  build_id INTEGER NOT NULL REFERENCES build(id) ON DELETE CASCADE,
  target   TEXT NOT NULL,
  path     TEXT NOT NULL,
  sha256   TEXT NOT NULL,
  PRIMARY KEY (build_id, target)
) STRICT, WITHOUT ROWID;

CREATE TABLE experiment (
  id            TEXT PRIMARY KEY,
  uuid          TEXT NOT NULL UNIQUE,
  kind          TEXT NOT NULL CHECK (kind IN ('run', 'matrix', 'bisect', 'nightly', 'noise-floor', 'check')),
  command_line  TEXT NOT NULL,
  manifest_path TEXT,
  project       TEXT,
  config        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config)),
  seed          INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete', 'failed')),
  started_at    TEXT NOT NULL,
  finished_at   TEXT,
  machine_id    INTEGER REFERENCES machine(id)
) STRICT;
CREATE INDEX experiment_by_time ON experiment(started_at);

CREATE TABLE arm (
  experiment_id TEXT NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
  idx           INTEGER NOT NULL CHECK (idx >= 0),
  variant       TEXT NOT NULL,
  levels        TEXT NOT NULL CHECK (json_valid(levels)),
  build_id      INTEGER REFERENCES build(id),
  role          TEXT NOT NULL CHECK (role IN ('baseline', 'candidate')),
  PRIMARY KEY (experiment_id, idx)
) STRICT, WITHOUT ROWID;

CREATE TABLE sample (
  id            INTEGER PRIMARY KEY,
  uuid          TEXT NOT NULL UNIQUE,
  experiment_id TEXT NOT NULL,
  arm_idx       INTEGER NOT NULL,
  benchmark     TEXT NOT NULL,
  round         INTEGER NOT NULL CHECK (round >= 0),
  position      INTEGER NOT NULL CHECK (position >= 0),
  warmup        INTEGER NOT NULL CHECK (warmup IN (0, 1)),
  machine_id    INTEGER NOT NULL REFERENCES machine(id),
  build_id      INTEGER REFERENCES build(id),
  binary_hash   TEXT,
  started_at    TEXT NOT NULL,
  duration_s    REAL,
  load_avg      REAL,
  status        TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'timeout', 'crashed', 'no_metrics', 'bad_output')),
  exit_code     INTEGER,
  signal        INTEGER,
  error         TEXT,
  backend       TEXT,
  checks        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(checks)),
  context       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(context)),
  FOREIGN KEY (experiment_id, arm_idx) REFERENCES arm(experiment_id, idx) ON DELETE CASCADE,
  UNIQUE (experiment_id, arm_idx, benchmark, round, warmup)
) STRICT;

CREATE TABLE metric (
  sample_id INTEGER NOT NULL REFERENCES sample(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  value     REAL NOT NULL,
  PRIMARY KEY (sample_id, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX metric_by_name ON metric(name);

CREATE VIEW v_sample_metric AS
SELECT s.experiment_id, e.kind AS experiment_kind, s.id AS sample_id, s.arm_idx, a.variant, a.role,
       s.benchmark, s.round, s.position, s.warmup, s.status, s.machine_id, s.build_id, s.started_at,
       m.name AS metric, m.value
FROM sample s
JOIN metric m ON m.sample_id = s.id
JOIN experiment e ON e.id = s.experiment_id
JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx;
)sql";

constexpr std::string_view v2_analysis = R"sql(
CREATE TABLE verdict (
  experiment_id    TEXT NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
  variant          TEXT NOT NULL,
  baseline         TEXT NOT NULL,
  metric           TEXT NOT NULL,
  n                INTEGER NOT NULL CHECK (n >= 0),
  baseline_median  REAL,
  candidate_median REAL,
  ratio            REAL,
  ci_low           REAL,
  ci_high          REAL,
  hl_ratio         REAL,
  hl_low           REAL,
  hl_high          REAL,
  p_value          REAL,
  p_adjusted       REAL,
  verdict          TEXT NOT NULL CHECK (verdict IN ('slower', 'faster', 'same', 'inconclusive', 'invalid')),
  immaterial       INTEGER NOT NULL DEFAULT 0 CHECK (immaterial IN (0, 1)),
  note             TEXT,
  created_at       TEXT NOT NULL,
  PRIMARY KEY (experiment_id, variant, baseline, metric)
) STRICT;
CREATE INDEX verdict_by_variant ON verdict(variant, metric, created_at);

CREATE TABLE effect (
  experiment_id TEXT NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
  metric        TEXT NOT NULL,
  term          TEXT NOT NULL,
  estimate      REAL NOT NULL,
  se            REAL,
  ci_low        REAL,
  ci_high       REAL,
  p_value       REAL,
  p_adjusted    REAL,
  PRIMARY KEY (experiment_id, metric, term)
) STRICT;

CREATE TABLE bisect_step (
  experiment_id TEXT NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
  step          INTEGER NOT NULL CHECK (step >= 0),
  from_variant  TEXT NOT NULL,
  to_variant    TEXT NOT NULL,
  verdict       TEXT CHECK (verdict IN ('slower', 'faster', 'same', 'inconclusive', 'invalid')),
  rounds        INTEGER NOT NULL DEFAULT 0,
  ratio         REAL,
  note          TEXT,
  PRIMARY KEY (experiment_id, step)
) STRICT;

CREATE TABLE changepoint (
  id            INTEGER PRIMARY KEY,
  variant       TEXT NOT NULL,
  metric        TEXT NOT NULL,
  at_experiment TEXT REFERENCES experiment(id) ON DELETE SET NULL,
  at_time       TEXT NOT NULL,
  magnitude     REAL NOT NULL,
  p_value       REAL,
  state         TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'acknowledged', 'fixed', 'false_positive')),
  note          TEXT,
  UNIQUE (variant, metric, at_time)
) STRICT;

CREATE TABLE reference (
  id     INTEGER PRIMARY KEY,
  label  TEXT NOT NULL,
  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  metric TEXT NOT NULL,
  value  REAL NOT NULL,
  UNIQUE (label, params, metric)
) STRICT;

CREATE VIEW v_latest_verdict AS
SELECT experiment_id, variant, baseline, metric, n, baseline_median, candidate_median, ratio, ci_low, ci_high,
       hl_ratio, hl_low, hl_high, p_value, p_adjusted, verdict, immaterial, note, created_at
FROM (SELECT v.*, row_number() OVER (PARTITION BY variant, baseline, metric
                                      ORDER BY created_at DESC, experiment_id DESC) AS newest
      FROM verdict v)
WHERE newest = 1;

CREATE VIEW v_variant_summary AS
WITH ranked AS (
  SELECT s.experiment_id, s.arm_idx, a.variant, m.name AS metric, m.value,
         row_number() OVER w AS rank,
         count(*) OVER (PARTITION BY s.experiment_id, s.arm_idx, m.name) AS count
  FROM sample s
  JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx
  JOIN metric m ON m.sample_id = s.id
  WHERE s.warmup = 0 AND s.status = 'ok'
  WINDOW w AS (PARTITION BY s.experiment_id, s.arm_idx, m.name ORDER BY m.value))
SELECT experiment_id, arm_idx, variant, metric, count(*) AS n, min(value) AS min, max(value) AS max,
       avg(value) AS mean,
       avg(CASE WHEN rank IN ((count + 1) / 2, (count + 2) / 2) THEN value END) AS median
FROM ranked
GROUP BY experiment_id, arm_idx, variant, metric;

CREATE VIEW v_series AS
SELECT e.started_at, e.kind, e.status, s.experiment_id, s.arm_idx, s.variant, s.metric, s.n, s.median, s.min,
       s.max
FROM v_variant_summary s
JOIN experiment e ON e.id = s.experiment_id;
)sql";

// v3: what a build cost and why (design §5): compiles, cache hits and misses, links, and the
// build system's details (tools, {bin}, patches applied, notes) as JSON.
constexpr std::string_view v3_build_cost = R"sql(
ALTER TABLE build ADD COLUMN objects_compiled INTEGER;
ALTER TABLE build ADD COLUMN cache_hits INTEGER;
ALTER TABLE build ADD COLUMN cache_misses INTEGER;
ALTER TABLE build ADD COLUMN links INTEGER;
ALTER TABLE build ADD COLUMN details TEXT CHECK (details IS NULL OR json_valid(details));
)sql";

// v4: deterministic counts (design §6): each arm's benchmarks run once under Valgrind,
// kept apart from the timing samples. `counts` is harness/counts' count_set as JSON; a failed run
// keeps its error instead. v_count: one row per stored total, for ad-hoc queries.
constexpr std::string_view v4_counts = R"sql(
CREATE TABLE counts (
  experiment_id TEXT NOT NULL,
  arm_idx       INTEGER NOT NULL,
  benchmark     TEXT NOT NULL,
  spec          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(spec)),
  counts        TEXT CHECK (counts IS NULL OR json_valid(counts)),
  error         TEXT,
  wall_s        REAL,
  recorded_at   TEXT NOT NULL,
  CHECK ((counts IS NULL) <> (error IS NULL)),
  FOREIGN KEY (experiment_id, arm_idx) REFERENCES arm(experiment_id, idx) ON DELETE CASCADE,
  PRIMARY KEY (experiment_id, arm_idx, benchmark)
) STRICT;

CREATE VIEW v_count AS
SELECT c.experiment_id, c.arm_idx, a.variant, c.benchmark, t.key AS name, t.value
FROM counts c
JOIN arm a ON a.experiment_id = c.experiment_id AND a.idx = c.arm_idx
JOIN json_each(c.counts, '$.totals') t
WHERE c.counts IS NOT NULL;
)sql";

// v5: what a verdict's interval is made of beyond the rounds (design §6): with --layouts the split
// of its variance between layouts and runs, as JSON ({"layouts": {...}}); NULL for a plain row.
constexpr std::string_view v5_verdict_details = R"sql(
ALTER TABLE verdict ADD COLUMN details TEXT CHECK (details IS NULL OR json_valid(details));
)sql";

// v6: alerts (design §9.1) — one per (source, subject, benchmark, change), the change's regressed
// metrics grouped under it, every later sighting attached, every state change an event with a note.
// `subject` is the branch a PR came from or the variant of a nightly series; `change` names the
// change: "<base sha>..<head sha>" for a PR, the experiment of the night at the change point.
constexpr std::string_view v6_alerts = R"sql(
CREATE TABLE alert (
  id         INTEGER PRIMARY KEY,
  uuid       TEXT NOT NULL UNIQUE,
  source     TEXT NOT NULL CHECK (source IN ('pr', 'nightly')),
  subject    TEXT NOT NULL,
  benchmark  TEXT NOT NULL,
  change     TEXT NOT NULL,
  state      TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'acknowledged', 'expected', 'invalid', 'fixed')),
  opened_at  TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source, subject, benchmark, change)
) STRICT;

CREATE TABLE alert_metric (
  alert_id      INTEGER NOT NULL REFERENCES alert(id) ON DELETE CASCADE,
  metric        TEXT NOT NULL,
  ratio         REAL NOT NULL,
  ci_low        REAL,
  ci_high       REAL,
  before_median REAL,
  after_median  REAL,
  PRIMARY KEY (alert_id, metric)
) STRICT;

CREATE TABLE alert_sighting (
  id            INTEGER PRIMARY KEY,
  alert_id      INTEGER NOT NULL REFERENCES alert(id) ON DELETE CASCADE,
  metric        TEXT NOT NULL,
  change        TEXT NOT NULL,
  experiment_id TEXT REFERENCES experiment(id) ON DELETE SET NULL,
  seen_at       TEXT NOT NULL,
  ratio         REAL NOT NULL,
  UNIQUE (alert_id, metric, change, experiment_id)
) STRICT;

CREATE TABLE alert_event (
  id         INTEGER PRIMARY KEY,
  alert_id   INTEGER NOT NULL REFERENCES alert(id) ON DELETE CASCADE,
  at         TEXT NOT NULL,
  from_state TEXT,
  to_state   TEXT NOT NULL,
  note       TEXT NOT NULL
) STRICT;
CREATE INDEX alert_event_by_alert ON alert_event(alert_id, id);

CREATE VIEW v_open_alert AS
  SELECT a.id, a.source, a.subject, a.benchmark, a.change, a.state, a.opened_at, m.metric, m.ratio, m.ci_low, m.ci_high,
         (SELECT count(*) FROM alert_sighting s WHERE s.alert_id = a.id AND s.metric = m.metric) AS sightings
  FROM alert a JOIN alert_metric m ON m.alert_id = a.id
  WHERE a.state IN ('new', 'acknowledged', 'expected');
)sql";

// A bisection's terms keep the role the search gave them: a culprit pushes the way of the overall
// verdict, an offset pulls the other way, a rejected candidate did not hold up in its confirmations.
// NULL for other experiments' effects and for bisections recorded before version 7 (the report then
// derives culprit or offset from the sign, as it did).
constexpr std::string_view v7_effect_role = R"sql(
ALTER TABLE effect ADD COLUMN role TEXT CHECK (role IS NULL OR role IN ('culprit', 'offset', 'rejected'));
)sql";

constexpr migration all_migrations[] = {
    {1, "measurements: machine, build, experiment, arm, sample, metric", v1_measurements},
    {2, "analysis: verdict, effect, bisect_step, changepoint, reference, summary views", v2_analysis},
    {3, "build cost: objects compiled, cache hits and misses, links, details", v3_build_cost},
    {4, "counts: Valgrind counts per experiment, arm and benchmark; v_count", v4_counts},
    {5, "verdict details: the layout split of a --layouts verdict", v5_verdict_details},
    {6, "alerts: alert, alert_metric, alert_sighting, alert_event; v_open_alert", v6_alerts},
    {7, "effect role: a bisection's culprit, offset or rejected candidate", v7_effect_role},
};

}  // namespace

std::span<const migration> migrations() { return all_migrations; }

int latest_schema_version() { return migrations().back().version; }

}  // namespace abtest::db
