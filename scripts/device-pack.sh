#!/usr/bin/env bash
# Builds, on a machine without a GPU, everything the device run needs — the GPU tests, gpu-bench and
# porep-bench with CUDA for sm_90 (Release), a second gpu-bench with the MSM kernels the first device
# run timed (ABTEST_GPU_MSM_KERNELS=first_run: the before column of the MSM's phase table), ptxas's
# registers and spills per kernel of both, and the mission's abtest bundle (B1, D4 and B1+D4 against
# base, the proof on cuda in interleaved rounds: `abtest run … --bundle`, design §3.2) — into one
# folder under 64 MiB whose run.sh needs only the NVIDIA driver: nothing is compiled on the device.
#
# Usage: scripts/device-pack.sh [--build-dir DIR] [--no-bundle] [OUT_DIR]  (OUT_DIR: default build/device-pack)
#   --build-dir DIR  take the programs from an existing CUDA build folder (build/ci: its objects, for
#                    sm_80 and sm_90) instead of configuring build/device-pack-build (sm_90 only);
#                    ptxas.txt then says ptxas was not asked (that folder's flags stay as they are)
#   --no-bundle      leave the abtest bundle out (its four CUDA builds are most of the packing time)
# Env:   ABTEST_PACK_CUDA_ARCHITECTURES (default 90), ABTEST_JOBS (default 2); the bundle's
#        ABTEST_PACK_PRESET (default small), ABTEST_PACK_ROUNDS (default 8), ABTEST_PACK_SEED (default 23)
# Exit:  0 done; 1 a build or check failed; 77 no CUDA compiler here (nothing to pack).
#
# The folder: run.sh (scripts/device-pack-run.sh: `run.sh --dry-run` lists its stages), bin/ (the
# programs, CUDA runtime linked statically), lib/ (every shared library they load besides the C
# library and the CUDA driver — libstdc++, libgcc_s, libfmt; run.sh puts it on LD_LIBRARY_PATH),
# PACK.txt (commit, flags, architectures, the glibc the programs need), ptxas.txt and
# ptxas_first_run.txt (per kernel: registers, stack frame, spill stores / loads), bundle/ (the abtest bundle:
# its own runner, plan and programs, built with the manifest's build.bundle_args).
# bin/porep-bench is a link to the bundle's base program, and the bundle's libraries equal to lib/'s
# are links there (copy with tar or cp -r, which keep links; ~8 MB less).
# Then: copy the folder to the device and run `OUT=out ./run.sh` there (under 6 minutes on an H200);
# its summary prints the MSM's phases before/after and the bundle's verdicts, and back here
# `./abtest import out/abtest` stores them. `./run.sh --msm` is the GPU MSM's check alone (< 5 min).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"

build="" out="" bundle=1
while (($#)); do
  case "$1" in
    --build-dir) build="${2:?--build-dir needs a folder}"; shift 2 ;;
    --no-bundle) bundle=0; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "error: unknown option $1 — see scripts/device-pack.sh --help" >&2; exit 1 ;;
    *) out="$1"; shift ;;
  esac
done
out="${out:-build/device-pack}"
jobs="${ABTEST_JOBS:-2}"
limit_mib=64
start=$SECONDS
fail() { echo "error: $1" >&2; exit 1; }

# The programs of the pack: name → path inside a build folder.
programs=(gpu/gpu-bench porep-bench tests/gpu/gpu_api_test tests/gpu/gpu_field_test tests/gpu/gpu_ntt_test
          tests/gpu/gpu_msm_test tests/variants/groth16/groth16_gpu_prover_test)
targets=()
for p in "${programs[@]}"; do targets+=("$(basename "$p")"); done

export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$root")}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
nvcc="$(command -v nvcc || true)"
[[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
# configure_pack DIR [cmake args]: the ci preset's compile flags, so that ccache serves every object
# the ci build already made; only the kernels (one architecture) and the links are new. ptxas reports
# each kernel's registers and spills into the build output (ABTEST_GPU_PTXAS_VERBOSE).
configure_pack() {
  local dir="$1"
  shift
  mkdir -p build  # the configure log goes beside the build folder, in build/ (absent in a fresh clone)
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DABTEST_WERROR=ON -DABTEST_CUDA=ON -DABTEST_BUILD_HARNESS=OFF -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES="${ABTEST_PACK_CUDA_ARCHITECTURES:-90}" -DABTEST_GPU_PTXAS_VERBOSE=ON "$@" \
    >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; fail "configure of $dir failed — see above"; }
}
# build_pack DIR TARGET...: builds, keeping ptxas's lines in DIR/ptxas.txt: per kernel, demangled,
# its registers, stack frame and spills. Where ptxas is asked, the kernel objects are compiled every
# time (ccache replays an unchanged one's output in a second), so the file lists every kernel.
build_pack() {
  local dir="$1"
  shift
  if grep -q '^ABTEST_GPU_PTXAS_VERBOSE:BOOL=ON' "$dir/CMakeCache.txt"; then
    find "$dir/gpu/CMakeFiles/zk_gpu.dir" -name '*.cu.o' -delete 2>/dev/null || true
  fi
  cmake --build "$dir" -j "$jobs" --target "$@" 2>&1 | tee "$dir.build.log" || fail "the build in $dir failed — see the compiler output above"
  grep -q 'ptxas info' "$dir.build.log" || return 0
  local filt=cat
  command -v c++filt >/dev/null && filt=c++filt
  awk '/Compiling entry function/ { split($0, q, "\047"); name = q[2]; arch = q[4] }
       /bytes stack frame/ { stack = $1; spill_st = $5; spill_ld = $9 }
       /Used [0-9]+ registers/ && name != "" { for (i = 1; i < NF; ++i) if ($i == "Used") regs = $(i + 1)
         printf "%s\t%s\tregisters %s\tstack %s\tspill stores %s\tspill loads %s\n", arch, name, regs, stack, spill_st, spill_ld; name = "" }' \
    "$dir.build.log" | $filt | sort -u >"$dir/ptxas.txt"
}
if [[ -z "$build" ]]; then
  if [[ -z "$nvcc" ]]; then
    echo "device-pack: no CUDA compiler (nvcc) here — install the CUDA toolkit, or pass --build-dir of a CUDA build" >&2
    exit 77
  fi
  build=build/device-pack-build
  configure_pack "$build"
else
  [[ -f "$build/CMakeCache.txt" ]] || fail "$build is not a configured build folder — run cmake --preset ci first"
  if ! grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=.*nvcc' "$build/CMakeCache.txt"; then
    echo "device-pack: $build was configured without CUDA — nothing to pack (configure it with nvcc, or drop --build-dir)" >&2
    exit 77
  fi
fi
echo "device-pack: building ${targets[*]} in $build" >&2
build_pack "$build" "${targets[@]}"
# The before column: gpu-bench with the first device run's MSM kernels, in a folder of its own.
first_run=build/device-pack-first-run
[[ -n "$nvcc" ]] || fail "no nvcc for the first_run gpu-bench — put nvcc on PATH"
echo "device-pack: building gpu-bench with ABTEST_GPU_MSM_KERNELS=first_run in $first_run" >&2
configure_pack "$first_run" -DABTEST_GPU_MSM_KERNELS=first_run
build_pack "$first_run" gpu-bench

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
for p in "${programs[@]}"; do
  [[ -x "$build/$p" ]] || fail "$build/$p was not built"
  cp "$build/$p" "$out/bin/"
done
cp "$first_run/gpu/gpu-bench" "$out/bin/gpu-bench-first-run"
for f in "$build:ptxas.txt" "$first_run:ptxas_first_run.txt"; do
  if [[ -s "${f%%:*}/ptxas.txt" ]]; then cp "${f%%:*}/ptxas.txt" "$out/${f#*:}"
  else echo "ptxas was not asked for its resource usage in ${f%%:*} (configure with -DABTEST_GPU_PTXAS_VERBOSE=ON)" >"$out/${f#*:}"; fi
done
cp scripts/device-pack-run.sh "$out/run.sh"
chmod +x "$out/run.sh"

# The mission's experiment, measured on the device by abtest's own runner: base, B1, D4 and B1+D4, the
# proof on cuda, interleaved rounds (its runner and programs need only the C library and the driver).
rounds="${ABTEST_PACK_ROUNDS:-8}"
# The bundle's builds configure with build.bundle_args (CUDA on): CMake must find nvcc.
command -v nvcc >/dev/null || { [[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"; }
((bundle)) && echo "device-pack: the abtest bundle — B1, D4, B1+D4 vs base, proof on cuda, $rounds rounds" >&2
((bundle)) && { "$root/abtest" run --toggle B1 --variant D4 --variant B1+D4 --bench proof --param backend=cuda \
  --param preset="${ABTEST_PACK_PRESET:-small}" --rounds "$rounds" --seed "${ABTEST_PACK_SEED:-23}" -j "$jobs" \
  --bundle "$out/bundle" || fail "the abtest bundle could not be made — see above"; }
# One porep-bench in the pack: the bundle's base is the same program for the proof stages (B1 and D4
# off, CUDA for sm_90; those stages set both at run time), and each one is ~6 MB of the 64 MiB.
((bundle)) && ln -sf ../bundle/bin/base/porep-bench "$out/bin/porep-bench"

# What the device already has: the C library (glibc's parts and the loader) and the driver. Every
# other library a program loads travels in lib/. The CUDA runtime is static (CUDA::cudart_static);
# it loads libcuda.so.1 itself, at run time.
system_lib='^(linux-vdso\.so|ld-linux[-a-z0-9_]*\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libcuda\.so|libnvidia-)'
for f in "$out"/bin/*; do
  while read -r name arrow path _; do
    [[ "$arrow" == "=>" ]] || continue
    [[ "$name" =~ $system_lib ]] && continue
    [[ "$path" == "not" ]] && fail "$(basename "$f") needs $name, which this machine lacks too"
    [[ -f "$out/lib/$name" ]] || cp -L "$path" "$out/lib/$name"
  done < <(ldd "$f")
done

# One copy of each library: the bundle's that equal the pack's become links to them (the runner checks
# their content, which a link keeps).
if ((bundle)); then
  for f in "$out"/bundle/lib/*; do
    [[ -f "$out/lib/${f##*/}" ]] && cmp -s "$f" "$out/lib/${f##*/}" && ln -sf "../../lib/${f##*/}" "$f"
  done
fi

# The newest glibc symbol version any program or library asks for: the device's glibc must be as new.
glibc_needed="$(objdump -T "$out"/bin/* "$out"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 || true)"
archs="$(grep -o 'code=\[[^]]*\]' "$build/build.ninja" | grep -o 'sm_[0-9]*[a-z]*' | sort -u | tr '\n' ' ' || true)"
nvcc_version="$(grep -h 'CMAKE_CUDA_COMPILER_VERSION' "$build"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null | grep -o '"[^"]*"' | tr -d '"' | head -1 || true)"
toggle() { grep -o "$1 [0-9]*" "$build/generated/abtest/toggles/$2.hpp" 2>/dev/null | cut -d' ' -f2 || true; }
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD 2>/dev/null || commit="$commit+uncommitted"
{
  echo "abtest device pack"
  echo "commit:        $commit"
  echo "built:         $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), from $build"
  echo "build type:    $(grep -E '^CMAKE_BUILD_TYPE:' "$build/CMakeCache.txt" | cut -d= -f2 || true)"
  echo "cuda:          nvcc ${nvcc_version:-?}, kernels for ${archs:-?}(cubins), runtime linked statically"
  echo "toggles:       B1 $(toggle ABTEST_B1_HOST_REGISTER b1), D4 $(toggle ABTEST_D4_MSM_WINDOW d4) (run.sh times both levels through run-time overrides)"
  echo "needs:         the NVIDIA driver (libcuda.so.1, nvidia-smi), glibc ≥ ${glibc_needed#GLIBC_}, bash, coreutils"
  echo "programs:      $(cd "$out/bin" && echo *)"
  echo "libraries:     $(cd "$out/lib" && echo *)"
  [[ -f "$out/bundle/plan.json" ]] &&
    echo "abtest bundle: bundle/ ($(du -sk "$out/bundle" | cut -f1) KiB), $(grep -o '"experiment": "[^"]*"' "$out/bundle/plan.json" | head -1)"
} >"$out/PACK.txt"

size_kib=$(du -sk "$out" | cut -f1)
((size_kib < limit_mib * 1024)) || fail "the pack is $((size_kib / 1024)) MiB, over the $limit_mib MiB limit — strip the programs or drop one"
echo "size:          $((size_kib / 1024)) MiB ($size_kib KiB)" >>"$out/PACK.txt"
echo "device-pack: $out ($((size_kib / 1024)) MiB) in $((SECONDS - start)) s — copy it to the device and run: OUT=out ./run.sh" >&2
