// Binary parameter cache: a fixed header, then every vector as a length and its raw points.
#include "groth16/param_cache.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <unistd.h>

namespace zk::groth16 {
namespace {

constexpr char magic[8] = {'Z', 'K', 'G', '1', '6', 'P', '0', '1'};

static_assert(std::is_trivially_copyable_v<g1_affine> && std::is_trivially_copyable_v<g2_affine>);

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

struct writer {
  std::FILE* f;
  void raw(const void* p, size_t n) {
    if (n != 0 && std::fwrite(p, 1, n, f) != n) throw std::runtime_error("parameter cache: write failed (disk full?)");
  }
  void u64(uint64_t v) { raw(&v, 8); }
  template <class T>
  void vec(const std::vector<T>& v) {
    u64(v.size());
    raw(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  void pod(const T& v) { raw(&v, sizeof v); }
};

struct reader {
  std::FILE* f;
  bool ok = true;
  void raw(void* p, size_t n) {
    if (ok && n != 0 && std::fread(p, 1, n, f) != n) ok = false;
  }
  uint64_t u64() {
    uint64_t v = 0;
    raw(&v, 8);
    return v;
  }
  template <class T>
  void vec(std::vector<T>& v, uint64_t limit) {
    const uint64_t n = u64();
    if (!ok || n > limit) {
      ok = false;
      return;
    }
    v.resize(n);
    raw(v.data(), n * sizeof(T));
  }
  template <class T>
  void pod(T& v) { raw(&v, sizeof v); }
};

}  // namespace

std::filesystem::path cache_path(const std::filesystem::path& dir, const std::string& digest, uint64_t seed) {
  return dir / ("groth16-" + digest + "-" + std::to_string(seed) + ".params");
}

std::optional<parameters> load_parameters(const std::filesystem::path& file) {
  file_ptr f(std::fopen(file.c_str(), "rb"));
  if (!f) return std::nullopt;
  reader r{f.get()};
  char m[8] = {};
  r.raw(m, 8);
  if (!r.ok || std::char_traits<char>::compare(m, magic, 8) != 0) return std::nullopt;
  if (r.u64() != sizeof(g1_affine) || r.u64() != sizeof(g2_affine)) return std::nullopt;
  parameters p;
  p.num_inputs = r.u64();
  p.num_aux = r.u64();
  p.num_constraints = r.u64();
  p.domain_size = r.u64();
  const uint64_t limit = uint64_t{1} << 36;  // sanity bound on a vector's length
  std::vector<char> digest;
  r.vec(digest, 256);
  p.circuit_digest.assign(digest.begin(), digest.end());
  r.pod(p.vk.alpha_g1);
  r.pod(p.vk.beta_g1);
  r.pod(p.vk.beta_g2);
  r.pod(p.vk.gamma_g2);
  r.pod(p.vk.delta_g1);
  r.pod(p.vk.delta_g2);
  r.vec(p.vk.ic, limit);
  r.vec(p.h, limit);
  r.vec(p.l, limit);
  r.vec(p.a, limit);
  r.vec(p.b_g1, limit);
  r.vec(p.b_g2, limit);
  if (!r.ok || std::fgetc(f.get()) != EOF) return std::nullopt;
  return p;
}

void save_parameters(const parameters& p, const std::filesystem::path& file) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  // A per-process temporary name: two processes filling the same cache entry do not collide.
  const std::filesystem::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  {
    file_ptr f(std::fopen(tmp.c_str(), "wb"));
    if (!f) throw std::runtime_error("cannot create " + tmp.string());
    writer w{f.get()};
    w.raw(magic, 8);
    w.u64(sizeof(g1_affine));
    w.u64(sizeof(g2_affine));
    w.u64(p.num_inputs);
    w.u64(p.num_aux);
    w.u64(p.num_constraints);
    w.u64(p.domain_size);
    w.vec(std::vector<char>(p.circuit_digest.begin(), p.circuit_digest.end()));
    w.pod(p.vk.alpha_g1);
    w.pod(p.vk.beta_g1);
    w.pod(p.vk.beta_g2);
    w.pod(p.vk.gamma_g2);
    w.pod(p.vk.delta_g1);
    w.pod(p.vk.delta_g2);
    w.vec(p.vk.ic);
    w.vec(p.h);
    w.vec(p.l);
    w.vec(p.a);
    w.vec(p.b_g1);
    w.vec(p.b_g2);
    if (std::fflush(f.get()) != 0) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace zk::groth16
