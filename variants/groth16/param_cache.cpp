// Binary parameter cache: a fixed header, then every vector as a length and its raw points.
#include "groth16/param_cache.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
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
  void text(const std::string& s) { vec(std::vector<char>(s.begin(), s.end())); }
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
  void u64(uint64_t& v) { v = u64(); }
  // limit: a sanity bound on a vector's length, so a corrupt length fails instead of allocating.
  template <class T>
  void vec(std::vector<T>& v, uint64_t limit = uint64_t{1} << 36) {
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
  void text(std::string& s) {
    std::vector<char> chars;
    vec(chars, 256);
    s.assign(chars.begin(), chars.end());
  }
};

// Everything after the magic and the point sizes, in file order: one list that the writer reads
// (P = const parameters) and the reader fills (P = parameters).
template <class Io, class P>
void fields(Io& io, P& p) {
  io.u64(p.num_inputs);
  io.u64(p.num_aux);
  io.u64(p.num_constraints);
  io.u64(p.domain_size);
  io.text(p.circuit_digest);
  io.pod(p.vk.alpha_g1);
  io.pod(p.vk.beta_g1);
  io.pod(p.vk.beta_g2);
  io.pod(p.vk.gamma_g2);
  io.pod(p.vk.delta_g1);
  io.pod(p.vk.delta_g2);
  io.vec(p.vk.ic);
  io.vec(p.h);
  io.vec(p.l);
  io.vec(p.a);
  io.vec(p.b_g1);
  io.vec(p.b_g2);
}

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
  fields(r, p);
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
    fields(w, p);
    if (std::fflush(f.get()) != 0) throw std::runtime_error("write failed: " + tmp.string());
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace zk::groth16
