// zk::gpu without a device: clean gpu_disabled / no_device answers, window resolution (D4), B1's
// default, and (with CUDA) kernels built for the configured architectures (sm_80 and sm_90 by default).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "abtest/toggles/b1.hpp"
#include "gpu/api.hpp"

namespace zk::gpu {
namespace {

bool has_device() { return device_status().ok(); }

TEST(gpu_api, without_a_device_every_entry_point_reports_why) {
  if (has_device()) GTEST_SKIP() << "a device is present: " << device_status().message;
  const status_code expected = compiled_with_cuda() ? status_code::no_device : status_code::gpu_disabled;
  std::string why;
  EXPECT_FALSE(device_available(&why));
  EXPECT_FALSE(why.empty());
  const status dev = device_status();
  EXPECT_EQ(dev.code, expected) << dev.message;
  EXPECT_EQ(why, dev.message);

  std::vector<fr> data(16, fr::one());
  const status n = ntt(data.data(), 4, ntt_direction::forward, ntt_domain::natural);
  EXPECT_EQ(n.code, expected) << n.message;
  EXPECT_FALSE(n.ok());
  EXPECT_EQ(data[0], fr::one()) << "a failed call must not touch its input";

  const std::vector<g1_affine> points(4, g1_generator());
  const std::vector<scalar_t> scalars(4, scalar_t{1, 0, 0, 0});
  g1_jacobian out = g1_jacobian::from_affine(g1_generator());
  msm_report rep;
  const status m = msm_g1(points, scalars, {}, &out, &rep);
  EXPECT_EQ(m.code, expected) << m.message;
  EXPECT_EQ(out, g1_jacobian::from_affine(g1_generator())) << "a failed call must not write its output";
}

TEST(gpu_api, the_stub_says_how_to_get_the_kernels) {
  if (compiled_with_cuda()) GTEST_SKIP() << "this build has the CUDA kernels";
  EXPECT_NE(device_status().message.find("ABTEST_CUDA=ON"), std::string::npos) << device_status().message;
}

TEST(gpu_api, status_names) {
  EXPECT_STREQ(to_string(status_code::ok), "ok");
  EXPECT_STREQ(to_string(status_code::gpu_disabled), "gpu_disabled");
  EXPECT_STREQ(to_string(status_code::no_device), "no_device");
  EXPECT_STREQ(to_string(status_code::invalid_argument), "invalid_argument");
  EXPECT_STREQ(to_string(status_code::cuda_error), "cuda_error");
  EXPECT_TRUE(status{}.ok());
}

TEST(gpu_api, b1_default_follows_the_toggle_header) {
  EXPECT_EQ(default_host_register(), ABTEST_B1_HOST_REGISTER != 0);
  EXPECT_EQ(msm_config{}.host_register, ABTEST_B1_HOST_REGISTER != 0);
  EXPECT_EQ(ntt_config{}.host_register, ABTEST_B1_HOST_REGISTER != 0);
  EXPECT_EQ(msm_config{}.window, default_msm_window_policy());
}

TEST(gpu_api, window_model_grows_with_the_msm) {
  unsigned prev = 0;
  for (unsigned lg = 4; lg <= 26; lg += 2) {
    const unsigned c = msm_window_bits(size_t{1} << lg);
    EXPECT_GE(c, prev) << "lg " << lg;
    EXPECT_GE(c, 1u);
    EXPECT_LE(c, 18u);
    prev = c;
  }
  EXPECT_LT(msm_window_bits(1 << 8), msm_window_bits(1 << 20));
}

TEST(gpu_api, d4_per_msm_window_versus_one_shared_size) {
  const size_t small = 1 << 10, large = 1 << 20, average = (small + large) / 2;
  // Per MSM (D4 on): each MSM's own length.
  const msm_config per{.wbits = 0, .window = msm_window_policy::per_msm, .shared_npoints = average};
  EXPECT_EQ(resolve_wbits(per, small), msm_window_bits(small));
  EXPECT_EQ(resolve_wbits(per, large), msm_window_bits(large));
  // Shared (D4 off): the proof's average length, whatever this MSM's.
  const msm_config shared{.wbits = 0, .window = msm_window_policy::shared, .shared_npoints = average};
  EXPECT_EQ(resolve_wbits(shared, small), msm_window_bits(average));
  EXPECT_EQ(resolve_wbits(shared, large), msm_window_bits(average));
  EXPECT_NE(resolve_wbits(shared, small), resolve_wbits(per, small));
  // Shared without the proof's sizes falls back to this MSM's own; an explicit wbits always wins.
  EXPECT_EQ(resolve_wbits({.wbits = 0, .window = msm_window_policy::shared}, small), msm_window_bits(small));
  EXPECT_EQ(resolve_wbits({.wbits = 7, .window = msm_window_policy::per_msm}, large), 7u);
  EXPECT_EQ(resolve_wbits({.wbits = 7, .window = msm_window_policy::shared, .shared_npoints = average}, small), 7u);
}

// The architectures of the cubins (ELF entries) in every fat binary of the program `library`, read
// from the fat-binary container headers as nvcc 12–13 write them (cross-checked against
// `cuobjdump --list-elf` where the toolkit has it): a 16-byte header — u32 magic 0xBA55ED50, u16
// version, u16 header size, u64 size of the entries — then entries of u16 kind (1 PTX, 2 ELF),
// u16 version, u32 header size, u64 payload size, …, u32 SM number at byte 28 (80 = sm_80).
// Every entry must end exactly where the container says, or the parse fails.
struct fatbin_listing {
  std::vector<std::vector<unsigned>> elf_archs;  // per fat binary
  std::string error;
};

// The file range [offset, offset + size) of the ELF64 section `name` (the executable's .nv_fatbin,
// where nvcc puts the fat binaries: searching the whole file would also find the magic number in
// the CUDA runtime's own code), or {0, 0}.
std::pair<std::size_t, std::size_t> elf_section(const std::string& bytes, const std::string& name) {
  auto read = [&](std::size_t at, auto value) {
    if (at + sizeof value <= bytes.size()) std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
  };
  if (bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes.size() < 64 || bytes[4] != 2) return {0, 0};
  const auto shoff = read(0x28, std::uint64_t{});
  const auto shentsize = read(0x3a, std::uint16_t{}), shnum = read(0x3c, std::uint16_t{}), shstrndx = read(0x3e, std::uint16_t{});
  const std::size_t strtab = read(shoff + std::size_t{shstrndx} * shentsize + 0x18, std::uint64_t{});
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::size_t sh = shoff + i * shentsize;
    const std::size_t name_at = strtab + read(sh, std::uint32_t{});
    if (name_at < bytes.size() && bytes.compare(name_at, name.size() + 1, name.c_str(), name.size() + 1) == 0)
      return {read(sh + 0x18, std::uint64_t{}), read(sh + 0x20, std::uint64_t{})};
  }
  return {0, 0};
}

fatbin_listing list_fatbins(const std::string& library) {
  fatbin_listing out;
  std::FILE* f = std::fopen(library.c_str(), "rb");
  if (f == nullptr) return {{}, "cannot open " + library};
  std::string bytes;
  std::array<char, 1 << 16> buf;
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), f)) > 0;) bytes.append(buf.data(), n);
  std::fclose(f);
  const auto [section_at, section_size] = elf_section(bytes, ".nv_fatbin");
  if (section_size == 0 || section_at + section_size > bytes.size()) return {{}, "no .nv_fatbin section in " + library};
  bytes = bytes.substr(section_at, section_size);
  auto read = [&](std::size_t at, auto value) {
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
  };
  const std::string magic = {'\x50', '\xed', '\x55', '\xba'};
  for (std::size_t at = bytes.find(magic); at != std::string::npos; at = bytes.find(magic, at + 4)) {
    if (at + 16 > bytes.size()) return {{}, "truncated fat binary header"};
    const auto header = read(at + 6, std::uint16_t{});
    const auto size = read(at + 8, std::uint64_t{});
    std::size_t p = at + header;
    const std::size_t end = p + size;
    if (end > bytes.size()) return {{}, "fat binary runs past the file"};
    std::vector<unsigned> archs;
    while (p < end) {
      if (p + 32 > end) return {{}, "truncated fat binary entry"};
      const auto kind = read(p, std::uint16_t{});
      const auto entry_header = read(p + 4, std::uint32_t{});
      const auto payload = read(p + 8, std::uint64_t{});
      if (entry_header < 32) return {{}, "fat binary entry header too short"};
      if (kind == 2) archs.push_back(read(p + 28, std::uint32_t{}));
      p += entry_header + payload;
    }
    if (p != end) return {{}, "fat binary entries do not end where the container does"};
    out.elf_archs.push_back(archs);
  }
  if (out.elf_archs.empty()) out.error = "no fat binary in " + library;
  return out;
}

// The architectures the build was configured for (CUDA_ARCHITECTURES of zk_gpu, "80,90" or
// "90-real"): their SM numbers.
std::vector<unsigned> configured_archs() {
  std::vector<unsigned> out;
  const std::string list = ABTEST_CUDA_ARCHITECTURES;
  for (size_t at = 0; at < list.size();) {
    size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    const unsigned sm = static_cast<unsigned>(std::strtoul(list.substr(at, end - at).c_str(), nullptr, 10));
    if (sm != 0) out.push_back(sm);
    at = end + 1;
  }
  return out;
}

// Every kernel object linked into this very program carries a cubin for each configured architecture
// (no JIT from PTX needed: sm_80 for A100, sm_90 for H100 / H200). The program, not the library, is
// read, so the check holds where the binary runs without its build folder (a device pack). With
// cuobjdump, its listing must agree.
TEST(gpu_api, kernels_are_built_for_the_configured_architectures) {
  if (!compiled_with_cuda()) GTEST_SKIP() << "stub build (no CUDA): no kernels to inspect";
  const std::vector<unsigned> wanted = configured_archs();
  ASSERT_FALSE(wanted.empty()) << "no architecture in '" << ABTEST_CUDA_ARCHITECTURES << "'";
  const std::string self = "/proc/self/exe";
  const fatbin_listing l = list_fatbins(self);
  ASSERT_TRUE(l.error.empty()) << l.error;
  for (const auto& archs : l.elf_archs) {
    if (archs.empty()) continue;  // a fat binary with PTX only (none of ours)
    for (unsigned sm : wanted) EXPECT_NE(std::find(archs.begin(), archs.end(), sm), archs.end()) << "sm_" << sm;
  }
  const std::string cuobjdump = ABTEST_CUOBJDUMP;
  if (cuobjdump.empty() || access(cuobjdump.c_str(), X_OK) != 0) return;  // no binary utilities: the headers decided
  const std::string cmd = cuobjdump + " --list-elf " + self + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  ASSERT_TRUE(pipe) << cmd;
  std::string listing;
  std::array<char, 512> buf;
  while (fgets(buf.data(), buf.size(), pipe.get())) listing += buf.data();
  for (unsigned sm : wanted) EXPECT_NE(listing.find("sm_" + std::to_string(sm)), std::string::npos) << listing;
}

}  // namespace
}  // namespace zk::gpu
