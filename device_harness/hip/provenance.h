// What the HIP runner's provenance records beside the runtime's own version numbers, HIP-free
// so it is tested without a GPU: the ROCm release and the amdgpu kernel driver's version as
// the machine states them in files, and the stepping text, which on gfx1250 says whether AMD's
// A0 binary translator (which rewrites some fp8 conversions in software) is known to be active.
//
//   info.runtime += absl::StrCat("; ", HostVersions("/opt/rocm", "/sys/module/amdgpu"));
//   provenance.set_stepping(SteppingText(*target, props.asicRevision));
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_PROVENANCE_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_PROVENANCE_H_

#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "model/targets/targets.h"

namespace lanediff {

// The first line of `path`, trimmed, or "" when it cannot be read.
inline std::string FirstLineOf(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return std::string(absl::StripAsciiWhitespace(line));
}

// "ROCm 6.4.1, amdgpu driver 6.12.12": ROCm from <rocm_root>/.info/version (what ROCm installs),
// the kernel driver from <amdgpu_module>/version (the DKMS amdgpu module states it; an in-tree
// driver has none). Each "unknown" when its file is not there.
inline std::string HostVersions(const std::string& rocm_root, const std::string& amdgpu_module) {
  const std::string rocm = FirstLineOf(rocm_root + "/.info/version");
  const std::string kmd = FirstLineOf(amdgpu_module + "/version");
  return absl::StrCat("ROCm ", rocm.empty() ? "unknown" : rocm, ", amdgpu driver ",
                      kmd.empty() ? "unknown (no version file: an in-tree driver?)" : kmd);
}

// The silicon stepping as recorded: "asicRevision N". On gfx1250/gfx1251 AMD's A0 parts run a
// binary translator that rewrites some fp8 conversions (the CLAMP forms of the packed and SR
// f32 -> fp8 and of fp8 -> f32) into software sequences, so a finding there may measure the
// translator; no runtime interface lanediff knows says whether it is active, nor which
// asicRevision is A0, so the text says so.
inline std::string SteppingText(const TargetTraits& target, int asic_revision) {
  std::string out = absl::StrCat("asicRevision ", asic_revision);
  if (target.family == Family::gfx1250) {
    absl::StrAppend(&out, "; A0 binary translation unknown (the runtime does not expose whether "
                          "AMD's A0 translator rewrites fp8 conversions on this part)");
  }
  return out;
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_PROVENANCE_H_
