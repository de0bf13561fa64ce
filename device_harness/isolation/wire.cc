#include "device_harness/isolation/wire.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "model/base/status.h"

namespace lanediff {
namespace {

constexpr absl::string_view kBatchMagic = "LDB1";
constexpr uint32_t kBatchAllowUndefined = 1;  // batch flags bit 0: DeviceBatch::allow_undefined
constexpr absl::string_view kResultMagic = "LDR1";

}  // namespace

void PutU32(std::string* out, uint32_t v) {
  char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
               static_cast<char>(v >> 24)};
  out->append(b, 4);
}
void PutString(std::string* out, absl::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out->append(s.data(), s.size());
}
void PutWords(std::string* out, const uint32_t* w, size_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    out->append(reinterpret_cast<const char*>(w), n * 4);
  } else {
    for (size_t i = 0; i < n; ++i) PutU32(out, w[i]);
  }
}

absl::Status WireReader::Magic(absl::string_view magic) {
  if (data_.substr(0, magic.size()) != magic) {
    return absl::DataLossError(absl::StrCat(what_, ": bad magic, want '", magic, "'"));
  }
  data_.remove_prefix(magic.size());
  return absl::OkStatus();
}
absl::StatusOr<uint32_t> WireReader::U32(absl::string_view field) {
  if (data_.size() < 4) return Short(field);
  const auto* p = reinterpret_cast<const unsigned char*>(data_.data());
  uint32_t v = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
  data_.remove_prefix(4);
  return v;
}
absl::StatusOr<std::string> WireReader::String(absl::string_view field) {
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, U32(field));
  if (data_.size() < n) return Short(field);
  std::string s(data_.substr(0, n));
  data_.remove_prefix(n);
  return s;
}
absl::Status WireReader::Words(absl::string_view field, size_t n, std::vector<uint32_t>* out) {
  if (data_.size() / 4 < n) return Short(field);
  out->resize(n);
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0) std::memcpy(out->data(), data_.data(), n * 4);
    data_.remove_prefix(n * 4);
  } else {
    for (size_t i = 0; i < n; ++i) (*out)[i] = *U32(field);
  }
  return absl::OkStatus();
}
absl::Status WireReader::End() {
  if (!data_.empty()) {
    return absl::DataLossError(absl::StrCat(what_, ": ", data_.size(), " trailing bytes"));
  }
  return absl::OkStatus();
}
absl::Status WireReader::Short(absl::string_view field) {
  return absl::DataLossError(absl::StrCat(what_, ": truncated at field '", field, "'"));
}

std::string EncodeBatch(const DeviceBatch& batch) {
  std::string out(kBatchMagic);
  out.reserve(64 + 4 * batch.words.size() + 16 * batch.lanes.size());
  PutString(&out, batch.target == nullptr ? "" : batch.target->name);
  PutU32(&out, static_cast<uint32_t>(batch.instr));
  PutU32(&out, static_cast<uint32_t>(batch.words.size()));
  PutWords(&out, batch.words.data(), batch.words.size());
  PutU32(&out, batch.mode);
  PutWords(&out, batch.sgpr_values.data(), 3);
  const LaneView v = batch.lanes.view();
  PutU32(&out, static_cast<uint32_t>(v.size));
  // Each source's dwords as the row's LaneShape lays them out (one a lane but for a wide row's
  // tuples), so a one-dword row's frame is what it was before the wide rows.
  for (int s = 0; s < 3; ++s) PutWords(&out, v.src(s), v.size * v.shape.src_dwords[s]);
  PutWords(&out, v.vdst_old, v.size);
  // Optional trailing flags: absent when zero, so frames without them stay what they were.
  if (batch.allow_undefined) PutU32(&out, kBatchAllowUndefined);
  return out;
}

absl::StatusOr<DeviceBatch> DecodeBatch(absl::string_view payload) {
  WireReader r(payload);
  DeviceBatch b;
  LANEDIFF_RETURN_IF_ERROR(r.Magic(kBatchMagic));
  LANEDIFF_ASSIGN_OR_RETURN(std::string target, r.String("target"));
  if (!target.empty()) {
    LANEDIFF_ASSIGN_OR_RETURN(b.target, FindTarget(target));
  }
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t instr, r.U32("instr"));
  if (instr >= static_cast<uint32_t>(kNumInstrs)) {
    return absl::DataLossError(absl::StrCat("isolation frame: instr ", instr, " out of range"));
  }
  b.instr = static_cast<Instr>(instr);
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t nwords, r.U32("words"));
  if (nwords > 16) return absl::DataLossError("isolation frame: more than 16 words");
  LANEDIFF_RETURN_IF_ERROR(r.Words("words", nwords, &b.words));
  LANEDIFF_ASSIGN_OR_RETURN(b.mode, r.U32("mode"));
  for (int i = 0; i < 3; ++i) {
    LANEDIFF_ASSIGN_OR_RETURN(b.sgpr_values[i], r.U32("sgpr_values"));
  }
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, r.U32("lanes"));
  // The lanes are in the row's shape (EncodeBatch; DecodeDeviceBatch refuses any other).
  b.lanes.SetShape(GetInstrInfo(b.instr).lane_shape());
  const char* names[3] = {"src0", "src1", "src2"};
  for (int s = 0; s < 3; ++s) {
    LANEDIFF_RETURN_IF_ERROR(r.Words(names[s], size_t{n} * b.lanes.shape().src_dwords[s], &b.lanes.src(s)));
  }
  LANEDIFF_RETURN_IF_ERROR(r.Words("vdst_old", n, &b.lanes.vdst_old()));
  if (!r.AtEnd()) {
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t flags, r.U32("flags"));
    if ((flags & ~kBatchAllowUndefined) != 0) {
      return absl::DataLossError(absl::StrCat("isolation frame: unknown batch flags 0x", absl::Hex(flags)));
    }
    b.allow_undefined = (flags & kBatchAllowUndefined) != 0;
  }
  LANEDIFF_RETURN_IF_ERROR(r.End());
  return b;
}

std::string EncodeResult(const absl::StatusOr<DeviceResult>& result) {
  std::string out(kResultMagic);
  PutU32(&out, result.ok() ? 1 : 0);
  if (result.ok()) {
    PutU32(&out, static_cast<uint32_t>(result->vdst.size()));
    PutWords(&out, result->vdst.data(), result->vdst.size());
    PutString(&out, result->provenance.SerializeAsString());
    PutU32(&out, result->mode_readback.has_value() ? 1 : 0);
    PutU32(&out, result->mode_readback.value_or(0));
  } else {
    PutU32(&out, static_cast<uint32_t>(result.status().code()));
    PutString(&out, result.status().message());
    PutU32(&out, IsDeviceFault(result.status()) ? 1 : 0);
  }
  return out;
}

absl::StatusOr<absl::StatusOr<DeviceResult>> DecodeResult(absl::string_view payload) {
  WireReader r(payload);
  LANEDIFF_RETURN_IF_ERROR(r.Magic(kResultMagic));
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t ok, r.U32("ok"));
  if (ok == 1) {
    DeviceResult d;
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t n, r.U32("vdst"));
    LANEDIFF_RETURN_IF_ERROR(r.Words("vdst", n, &d.vdst));
    LANEDIFF_ASSIGN_OR_RETURN(std::string prov, r.String("provenance"));
    if (!d.provenance.ParseFromString(prov)) {
      return absl::DataLossError("isolation frame: provenance does not parse");
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t has_mode, r.U32("mode readback flag"));
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t mode, r.U32("mode readback"));
    if (has_mode) d.mode_readback = mode;
    LANEDIFF_RETURN_IF_ERROR(r.End());
    return absl::StatusOr<DeviceResult>(std::move(d));
  }
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t code, r.U32("code"));
  LANEDIFF_ASSIGN_OR_RETURN(std::string message, r.String("message"));
  LANEDIFF_ASSIGN_OR_RETURN(uint32_t fault, r.U32("fault"));
  LANEDIFF_RETURN_IF_ERROR(r.End());
  if (code == 0 || code > 16) code = static_cast<uint32_t>(absl::StatusCode::kUnknown);
  const auto status_code = static_cast<absl::StatusCode>(code);
  if (fault) return absl::StatusOr<DeviceResult>(DeviceFault(status_code, message));
  return absl::StatusOr<DeviceResult>(absl::Status(status_code, message));
}

namespace {

// A write to a pipe whose reader is gone raises SIGPIPE in the writing thread, whose default
// action kills the whole process (a device child that died idle would take the campaign with
// it). For the scope of a WriteFrame, SIGPIPE is blocked in this thread, so the write fails
// with EPIPE instead; a SIGPIPE the write raised is consumed before the old mask comes back
// (sigtimedwait with a zero timeout), and one pending before is left alone. The process's
// disposition of SIGPIPE is not changed: `lanediff ... | head` still ends quietly.
class SigpipeBlockedInThisThread {
 public:
  SigpipeBlockedInThisThread() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    was_pending_ = ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlockedInThisThread() {
    sigset_t pending;
    sigemptyset(&pending);
    if (!was_pending_ && ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const timespec zero{};
      while (::sigtimedwait(&pipe_, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlockedInThisThread(const SigpipeBlockedInThisThread&) = delete;
  SigpipeBlockedInThisThread& operator=(const SigpipeBlockedInThisThread&) = delete;

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

absl::Status WriteError(int e) {
  if (e == EPIPE) {
    return absl::UnavailableError(
        "writing to the isolation pipe: the reader is gone (the device child died): Broken pipe");
  }
  return absl::UnavailableError(absl::StrCat("writing to the isolation pipe: ", std::strerror(e)));
}

absl::Status WriteAll(int fd, const char* data, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = ::write(fd, data + done, n - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return WriteError(errno);
    }
    done += static_cast<size_t>(w);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteFrame(int fd, absl::string_view payload) {
  if (payload.size() > kMaxFrameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("isolation frame of ", payload.size(), " bytes exceeds ", kMaxFrameBytes));
  }
  std::string len;
  PutU32(&len, static_cast<uint32_t>(payload.size()));
  const SigpipeBlockedInThisThread no_sigpipe;
  // One writev for the common case (small frames: one wake-up of the reader), then the rest.
  iovec iov[2] = {{len.data(), 4}, {const_cast<char*>(payload.data()), payload.size()}};
  ssize_t w;
  do {
    w = ::writev(fd, iov, 2);
  } while (w < 0 && errno == EINTR);
  if (w < 0) return WriteError(errno);
  const size_t done = static_cast<size_t>(w);
  if (done < 4) {
    LANEDIFF_RETURN_IF_ERROR(WriteAll(fd, len.data() + done, 4 - done));
    return WriteAll(fd, payload.data(), payload.size());
  }
  return WriteAll(fd, payload.data() + (done - 4), payload.size() - (done - 4));
}

std::string Frame(absl::string_view payload) {
  std::string out;
  out.reserve(4 + payload.size());
  PutU32(&out, static_cast<uint32_t>(payload.size()));
  out.append(payload.data(), payload.size());
  return out;
}

absl::StatusOr<std::optional<std::string>> PopFrame(std::string* buffer, uint32_t max_bytes) {
  if (buffer->size() < 4) return std::nullopt;
  const auto* b = reinterpret_cast<const unsigned char*>(buffer->data());
  const uint32_t n = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  if (n > max_bytes) {
    return absl::DataLossError(absl::StrCat("frame length ", n, " exceeds the limit ", max_bytes));
  }
  if (buffer->size() - 4 < n) return std::nullopt;
  std::string payload = buffer->substr(4, n);
  buffer->erase(0, 4 + static_cast<size_t>(n));
  return payload;
}

namespace {

constexpr absl::Duration kSlice = absl::Milliseconds(200);
constexpr absl::Duration kLateness = absl::Milliseconds(100);

}  // namespace

StopAwareTimer::StopAwareTimer(absl::Duration budget)
    : budget_(budget), used_(absl::ZeroDuration()), asked_(absl::ZeroDuration()),
      last_(absl::Now()) {}

void StopAwareTimer::Charge() {
  const absl::Time now = absl::Now();
  // Time not spent waiting (reading, decoding) is charged as it is, up to the lateness bound.
  used_ += std::min(now - last_, asked_ + kLateness);
  last_ = now;
  asked_ = absl::ZeroDuration();
}

bool StopAwareTimer::Expired() {
  Charge();
  return used_ >= budget_;
}

int StopAwareTimer::NextWaitMs() {
  Charge();
  asked_ = std::clamp(budget_ - used_, absl::Milliseconds(1), kSlice);
  return static_cast<int>(absl::ToInt64Milliseconds(absl::Ceil(asked_, absl::Milliseconds(1))));
}

namespace {

bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, 0);
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

// Reads exactly n bytes before `timer` expires (no timer: blocks).
absl::Status ReadExact(int fd, char* out, size_t n, StopAwareTimer* timer) {
  size_t done = 0;
  while (done < n) {
    if (timer != nullptr) {
      if (timer->Expired()) {
        // Out of time, but an answer already written is read: it is complete, not a hang.
        if (!Readable(fd)) {
          return absl::DeadlineExceededError(
              "no answer on the isolation pipe before the deadline");
        }
      } else {
        pollfd p{fd, POLLIN, 0};
        int rc = ::poll(&p, 1, timer->NextWaitMs());
        if (rc < 0) {
          if (errno == EINTR) continue;
          return absl::InternalError(absl::StrCat("poll: ", std::strerror(errno)));
        }
        if (rc == 0) continue;  // re-check the timer
      }
    }
    ssize_t got = ::read(fd, out + done, n - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(
          absl::StrCat("reading the isolation pipe: ", std::strerror(errno)));
    }
    if (got == 0) {
      return absl::UnavailableError(
          done == 0 ? "peer closed the pipe" : "peer closed the pipe in the middle of a frame");
    }
    done += static_cast<size_t>(got);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ReadFrame(int fd, absl::Duration timeout, uint32_t max_bytes) {
  std::optional<StopAwareTimer> timer;
  if (timeout != absl::InfiniteDuration()) timer.emplace(timeout);
  StopAwareTimer* t = timer ? &*timer : nullptr;
  unsigned char len[4];
  LANEDIFF_RETURN_IF_ERROR(ReadExact(fd, reinterpret_cast<char*>(len), 4, t));
  const uint32_t n = len[0] | (len[1] << 8) | (len[2] << 16) | (static_cast<uint32_t>(len[3]) << 24);
  if (n > max_bytes) {
    return absl::DataLossError(absl::StrCat("frame length ", n, " exceeds the limit ", max_bytes));
  }
  std::string payload(n, '\0');
  LANEDIFF_RETURN_IF_ERROR(ReadExact(fd, payload.data(), n, t));
  return payload;
}

}  // namespace lanediff
