# Shared by the bench-*.sh scripts (sourced, not run): a clone of the working tree as it is, and
# commands timed by wall and CPU seconds.

# bench_clone ROOT DEST: a fresh clone of ROOT at DEST with ROOT's uncommitted edits applied, so the
# figures are of the code as it stands; no hard links, so nothing is shared with ROOT's objects.
bench_clone() {
  local root="$1" dest="$2"
  rm -rf "$dest"
  git clone -q --no-hardlinks "$root" "$dest"
  (cd "$root" && git diff HEAD) | (cd "$dest" && git apply --allow-empty)
}

# bench_timed FILE CMD...: runs CMD and writes "wall_s user_s sys_s" to FILE. User and sys are of
# CMD and every process it waited for (a build's compilers, a run's benchmarks): CPU seconds move
# much less than wall time when the machine is shared. Returns CMD's exit status.
bench_timed() {
  local file="$1"; shift
  local status=0
  /usr/bin/time -f "%e %U %S" -o "$file" "$@" || status=$?
  # time(1) writes "Command exited with non-zero status N" before the figures on a failure.
  tail -n 1 "$file" >"$file.last" && mv "$file.last" "$file"
  return "$status"
}

# bench_load: the 1-, 5- and 15-minute load averages, e.g. "1.93 1.20 0.77".
bench_load() { cut -d' ' -f1-3 /proc/loadavg; }
