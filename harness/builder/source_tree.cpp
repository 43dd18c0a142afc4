// Worktrees per variant: a snapshot of the project (HEAD plus uncommitted edits), patches applied
// with `git apply`, reverts as the reverse diff of their commit; reused when nothing changed.
#include "harness/builder/source_tree.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <sstream>

#include "harness/builder/file_text.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/toggles/toggle_kind.hpp"
#include "harness/exec/git.hpp"

namespace abtest {
namespace fs = std::filesystem;
namespace {

exec::git_result git(const fs::path& dir, const std::vector<std::string>& args) { return exec::run_git(dir, args); }

}  // namespace

source_snapshot snapshot_source(const manifest& m) {
  source_snapshot s;
  const auto top = git(m.source_dir, {"rev-parse", "--show-toplevel"});
  if (!top.ok) return s;
  s.repo = top.out;
  s.head = git(s.repo, {"rev-parse", "HEAD"}).out;
  s.tree_commit = s.head;
  // `git stash create` records the edits to tracked files as a commit without touching the
  // working tree, the index or the stash list; it prints nothing when there are none.
  const auto stash = git(s.repo, {"stash", "create", "abtest: the working tree as built"});
  if (stash.ok && !stash.out.empty()) {
    s.dirty = true;
    s.tree_commit = stash.out;
  }
  // abtest's own files — its state folder, the manifest, the toggles' patches — are read from the
  // project folder, not from the worktrees: leave them out.
  std::vector<std::string> args{"ls-files", "--others", "--exclude-standard", "--", ".",
                                ":(exclude)" + fs::relative(m.state_dir(), s.repo).string(),
                                ":(exclude)" + fs::relative(m.path, s.repo).string()};
  for (const auto& t : m.toggles)
    for (const auto& file : t.kind->own_files(t)) args.push_back(":(exclude)" + fs::relative(file, s.repo).string());
  const auto untracked = git(s.repo, args);
  std::istringstream in(untracked.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) s.untracked.push_back(line);
  return s;
}

source_tree prepare_source_tree(const manifest& m, const variant& v, const source_snapshot& snap, const fs::path& folder) {
  source_tree t;
  if (!m.needs_worktrees()) {
    t.source = m.source_dir;
    return t;
  }
  if (snap.repo.empty()) {
    t.ok = false;
    t.error = fmt::format("{} is not in a git repository: worktrees need one", m.source_dir.string());
    return t;
  }
  t.root = folder;
  t.source = folder / fs::relative(m.source_dir, snap.repo);
  if (t.source.filename() == ".") t.source = t.source.parent_path();

  // What the worktree must hold: the snapshot and each applied toggle with its diff's hash.
  std::vector<std::pair<const toggle_spec*, std::string>> steps;  // toggle, diff file
  std::string want = snap.tree_commit + "\n";
  const fs::path diffs = folder.parent_path() / (folder.filename().string() + "-diffs");
  fs::create_directories(diffs);
  for (const auto& tg : m.toggles) {
    if (!tg.changes_source() || !v.levels.count(tg.id)) continue;
    const source_change change = tg.kind->source_diff(tg, m, snap.repo, diffs);
    if (!change.error.empty()) {
      t.ok = false;
      t.error = change.error;
      return t;
    }
    const fs::path& diff = change.diff;
    t.applied.push_back(change.applied);
    want += tg.id + "=" + sha256_hex(read_text_file(diff)) + "\n";
    steps.emplace_back(&tg, diff.string());
  }
  const fs::path stamp = folder.parent_path() / (folder.filename().string() + "-state.txt");
  if (fs::exists(folder / ".git") && read_text_file(stamp) == want) return t;  // already exactly this

  std::error_code ec;
  fs::remove(stamp, ec);
  if (!fs::exists(folder / ".git")) {
    fs::remove_all(folder, ec);
    git(snap.repo, {"worktree", "prune"});
    const auto add = git(snap.repo, {"worktree", "add", "--detach", "--force", folder.string(), snap.tree_commit});
    if (!add.ok) {
      t.ok = false;
      t.error = fmt::format("git worktree add failed: {}", first_line(add.err));
      return t;
    }
  } else {
    // Back to the snapshot: only files that differ are rewritten, so the rest keep their times.
    const auto co = git(folder, {"checkout", "--detach", "--force", snap.tree_commit});
    if (!co.ok) {
      t.ok = false;
      t.error = fmt::format("git checkout in {} failed: {}", folder.string(), first_line(co.err));
      return t;
    }
  }
  // Files a previous version of a patch added are untracked now; ignored files (build outputs of an
  // in-source build) stay.
  git(folder, {"clean", "-fdq"});
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& [tg, diff] = steps[i];
    const auto ap = git(folder, {"apply", "--whitespace=nowarn", diff});
    if (!ap.ok) {
      const std::vector<std::string> before(t.applied.begin(), t.applied.begin() + static_cast<std::ptrdiff_t>(i));
      t.ok = false;
      t.error = fmt::format("{} does not apply{}: {}", tg->id,
                            before.empty() ? "" : fmt::format(" after {}", fmt::join(before, ", ")),
                            ap.err.empty() ? "git apply failed" : ap.err);
      while (!t.error.empty() && t.error.back() == '\n') t.error.pop_back();
      git(folder, {"checkout", "--detach", "--force", snap.tree_commit});  // leave it clean for the next use
      return t;
    }
  }
  std::ofstream(stamp, std::ios::trunc) << want;
  return t;
}

}  // namespace abtest
