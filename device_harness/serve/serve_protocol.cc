#include "device_harness/serve/serve_protocol.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/wire.h"
#include "model/base/status.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

constexpr absl::string_view kHelloMagic = "LDH1";
constexpr absl::string_view kRequestMagic = "LDQ1";
constexpr absl::string_view kAnswerMagic = "LDA1";
constexpr uint32_t kMaxListEntries = 256;

enum AnswerKind : uint32_t { kOk = 0, kUnsupported = 1, kFault = 2, kRefused = 3 };

void PutList(std::string* out, const std::vector<std::string>& list) {
  PutU32(out, static_cast<uint32_t>(list.size()));
  for (const std::string& s : list) PutString(out, s);
}

absl::StatusOr<std::vector<std::string>> ReadList(WireReader& r, absl::string_view field) {
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, r.U32(field));
  if (n > kMaxListEntries) {
    return absl::DataLossError(absl::StrCat("exec-serve hello: ", n, " ", field, " (at most ",
                                            kMaxListEntries, ")"));
  }
  std::vector<std::string> out;
  for (uint32_t i = 0; i < n; ++i) {
    LANEDIFF_ASSIGN_OR_RETURN(std::string s, r.String(field));
    out.push_back(std::move(s));
  }
  return out;
}

absl::StatusCode CodeFrom(uint32_t code) {
  if (code == 0 || code > 16) return absl::StatusCode::kUnknown;
  return static_cast<absl::StatusCode>(code);
}

}  // namespace

absl::Status ServeHello::Covers(const DeviceBatch& batch) const {
  const std::string target = batch.target == nullptr ? "" : std::string(batch.target->name);
  if (!targets.empty() && std::find(targets.begin(), targets.end(), target) == targets.end()) {
    return Unsupported(absl::StrCat("target ", target, " is not one the device's hello lists (",
                                    absl::StrJoin(targets, ","), ")"));
  }
  const std::string instr(InstrName(batch.instr));
  if (!instrs.empty() && std::find(instrs.begin(), instrs.end(), instr) == instrs.end()) {
    return Unsupported(absl::StrCat("instruction ", instr,
                                    " is not one the device's hello lists (",
                                    absl::StrJoin(instrs, ","), ")"));
  }
  return absl::OkStatus();
}

std::string EncodeHello(const ServeHello& hello) {
  std::string out(kHelloMagic);
  PutU32(&out, kServeProtocolVersion);
  PutString(&out, hello.device);
  PutList(&out, hello.targets);
  PutList(&out, hello.instrs);
  return out;
}

absl::StatusOr<ServeHello> DecodeHello(absl::string_view payload) {
  WireReader r(payload, "exec-serve hello");
  LANEDIFF_RETURN_IF_ERROR(r.Magic(kHelloMagic));
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t version, r.U32("version"));
  if (version != kServeProtocolVersion) {
    return absl::DataLossError(absl::StrCat("exec-serve hello: protocol version ", version,
                                            "; this lanediff speaks ", kServeProtocolVersion));
  }
  ServeHello h;
  LANEDIFF_ASSIGN_OR_RETURN(std::string device, r.String("device"));
  h.device = ToValidUtf8(device);  // the device's own words: any bytes, made UTF-8 once here
  LANEDIFF_ASSIGN_OR_RETURN(h.targets, ReadList(r, "targets"));
  LANEDIFF_ASSIGN_OR_RETURN(h.instrs, ReadList(r, "instrs"));
  LANEDIFF_RETURN_IF_ERROR(r.End());
  return h;
}

absl::StatusOr<std::string> EncodeRequest(uint32_t id, const DeviceBatch& batch) {
  LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, batch.words));
  const Modifiers& m = d.ctx.mods;
  const LaneView v = d.resolved.view();
  std::string out(kRequestMagic);
  out.reserve(128 + 32 * v.size);
  PutU32(&out, id);
  PutString(&out, d.ctx.target->name);
  PutString(&out, InstrName(d.ctx.instr));
  for (uint32_t f : {static_cast<uint32_t>(m.opsel), static_cast<uint32_t>(m.neg),
                     static_cast<uint32_t>(m.abs), static_cast<uint32_t>(m.clamp ? 1 : 0),
                     static_cast<uint32_t>(m.omod), d.requested_mode}) {
    PutU32(&out, f);
  }
  PutU32(&out, static_cast<uint32_t>(v.size));
  // Each source's n * N dwords (N from the row's LaneShape: 1 but for a wide row's tuples,
  // lane i's at [i * N, i * N + N)), then vdst_old's n.
  for (int s = 0; s < 3; ++s) PutWords(&out, v.src(s), v.size * v.shape.src_dwords[s]);
  PutWords(&out, v.vdst_old, v.size);
  PutString(&out, EncodeBatch(batch));
  return out;
}

absl::StatusOr<ServeRequest> DecodeRequest(absl::string_view payload) {
  WireReader r(payload, "exec-serve request");
  LANEDIFF_RETURN_IF_ERROR(r.Magic(kRequestMagic));
  ServeRequest q;
  LANEDIFF_ASSIGN_OR_RETURN(q.id, r.U32("id"));
  LANEDIFF_ASSIGN_OR_RETURN(std::string target, r.String("target"));
  LANEDIFF_ASSIGN_OR_RETURN(std::string instr, r.String("instr"));
  for (absl::string_view f : {"opsel", "neg", "abs", "clamp", "omod", "mode"}) {
    LANEDIFF_RETURN_IF_ERROR(r.U32(f).status());
  }
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, r.U32("n"));
  absl::StatusOr<Instr> named = ParseInstr(instr);
  if (!named.ok()) return absl::DataLossError(absl::StrCat("exec-serve request: ", named.status().message()));
  const LaneShape shape = GetInstrInfo(*named).lane_shape();
  std::vector<uint32_t> skip;
  const char* names[4] = {"src0", "src1", "src2", "vdst_old"};
  for (int s = 0; s < 4; ++s) {
    LANEDIFF_RETURN_IF_ERROR(r.Words(names[s], size_t{n} * (s < 3 ? shape.src_dwords[s] : 1), &skip));
  }
  LANEDIFF_ASSIGN_OR_RETURN(std::string raw, r.String("batch"));
  LANEDIFF_RETURN_IF_ERROR(r.End());
  LANEDIFF_ASSIGN_OR_RETURN(q.batch, DecodeBatch(raw));
  if (q.batch.target == nullptr || q.batch.target->name != target ||
      InstrName(q.batch.instr) != instr || q.batch.lanes.size() != n) {
    return absl::DataLossError(
        "exec-serve request: the header (target, instr, n) does not match the batch");
  }
  return q;
}

std::string EncodeAnswer(uint32_t id, const absl::StatusOr<DeviceResult>& result) {
  std::string out(kAnswerMagic);
  PutU32(&out, id);
  if (result.ok()) {
    PutU32(&out, kOk);
    PutU32(&out, static_cast<uint32_t>(result->vdst.size()));
    PutWords(&out, result->vdst.data(), result->vdst.size());
    PutString(&out, result->provenance.SerializeAsString());
    return out;
  }
  const absl::Status& s = result.status();
  if (IsUnsupported(s)) {
    PutU32(&out, kUnsupported);
    PutString(&out, s.message());
    return out;
  }
  PutU32(&out, IsDeviceFault(s) ? kFault : kRefused);
  PutU32(&out, static_cast<uint32_t>(s.code()));
  PutString(&out, s.message());
  return out;
}

absl::StatusOr<ServeAnswer> DecodeAnswer(absl::string_view payload, size_t max_lanes) {
  WireReader r(payload, "exec-serve answer");
  LANEDIFF_RETURN_IF_ERROR(r.Magic(kAnswerMagic));
  ServeAnswer a;
  LANEDIFF_ASSIGN_OR_RETURN(a.id, r.U32("id"));
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t kind, r.U32("kind"));
  switch (kind) {
    case kOk: {
      DeviceResult d;
      LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, r.U32("n"));
      if (n > max_lanes) {
        return absl::DataLossError(
            absl::StrCat("exec-serve answer: ", n, " VDST words for ", max_lanes, " lanes"));
      }
      LANEDIFF_RETURN_IF_ERROR(r.Words("vdst", n, &d.vdst));
      LANEDIFF_ASSIGN_OR_RETURN(std::string prov, r.String("provenance"));
      if (!d.provenance.ParseFromString(prov)) {
        return absl::DataLossError("exec-serve answer: provenance does not parse");
      }
      MakeStringsValidUtf8(&d.provenance);
      a.result = std::move(d);
      break;
    }
    case kUnsupported: {
      LANEDIFF_ASSIGN_OR_RETURN(std::string reason, r.String("reason"));
      a.result = Unsupported(ToValidUtf8(reason));
      break;
    }
    case kFault:
    case kRefused: {
      LANEDIFF_ASSIGN_OR_RETURN(uint32_t code, r.U32("code"));
      LANEDIFF_ASSIGN_OR_RETURN(std::string raw, r.String("message"));
      const std::string message = ToValidUtf8(raw);  // stored in a finding: made UTF-8 here
      if (kind == kFault) {
        a.result = DeviceFault(CodeFrom(code), message);
      } else {
        absl::StatusCode c = CodeFrom(code);
        // A refusal must not read as a fault or as "unsupported" on this side.
        if (c == absl::StatusCode::kUnimplemented) c = absl::StatusCode::kFailedPrecondition;
        a.result = absl::Status(c, message);
      }
      break;
    }
    default:
      return absl::DataLossError(absl::StrCat("exec-serve answer: unknown kind ", kind,
                                              " (0 ok, 1 unsupported, 2 fault, 3 refused)"));
  }
  LANEDIFF_RETURN_IF_ERROR(r.End());
  return a;
}

absl::Status ServeDevice(Runner& runner, const ServeHello& hello, int in_fd, int out_fd) {
  LANEDIFF_RETURN_IF_ERROR(WriteFrame(out_fd, EncodeHello(hello)));
  for (;;) {
    absl::StatusOr<std::string> payload =
        ReadFrame(in_fd, absl::InfiniteDuration(), kServeMaxRequestBytes);
    if (!payload.ok()) {
      if (payload.status().message() == "peer closed the pipe") return absl::OkStatus();
      return payload.status();
    }
    LANEDIFF_ASSIGN_OR_RETURN(ServeRequest q, DecodeRequest(*payload));
    LANEDIFF_RETURN_IF_ERROR(WriteFrame(out_fd, EncodeAnswer(q.id, runner.Run(q.batch))));
  }
}

}  // namespace lanediff
