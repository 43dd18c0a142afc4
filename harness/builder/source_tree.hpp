// A variant's source tree: the project folder itself, or a git worktree of a snapshot of it with
// the variant's patch and revert toggles applied (design §3.1).
//
//   source_snapshot snap = snapshot_source(m);             // HEAD, or `git stash create` when dirty
//   source_tree t = prepare_source_tree(m, v, snap, dir);  // dir/src, patches applied in manifest order
//   if (!t.ok) skip(t.error);                              // git's reason: a patch that does not apply
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"

namespace abtest {

// What the variants are built from: one commit for all of them, taken once per command.
struct source_snapshot {
  std::filesystem::path repo;     // the repository's top folder; empty outside git
  std::string head;               // `git rev-parse HEAD`
  std::string tree_commit;        // the commit checked out in worktrees: HEAD, or a stash commit of the edits
  bool dirty = false;             // uncommitted changes to tracked files (they are in tree_commit)
  std::vector<std::string> untracked;  // files git does not track: not in any worktree
};
source_snapshot snapshot_source(const manifest& m);

struct source_tree {
  bool ok = true;
  std::filesystem::path root;     // the worktree's top folder (empty: the project folder is used as it is)
  std::filesystem::path source;   // where source_dir lies in it
  std::string error;              // why it could not be prepared (git's own words)
  std::vector<std::string> applied;  // "P1: patches/p1.diff", "R1: revert 3f2a9c1"
};

// Without worktrees (no source toggles, not a command build): source_dir as it is. Otherwise a
// worktree at `folder` checked out at `snap.tree_commit` with v's patch/revert toggles applied;
// reused when it already holds exactly that, so unchanged files keep their timestamps.
source_tree prepare_source_tree(const manifest& m, const variant& v, const source_snapshot& snap,
                                const std::filesystem::path& folder);

}  // namespace abtest
