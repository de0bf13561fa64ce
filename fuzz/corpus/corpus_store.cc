#include "fuzz/corpus/corpus_store.h"

#include "fuzz/triage/bucket_merge.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/corpus/corpus_merge.h"
#include "model/base/status.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// Every I/O error says what was lost when the disk is full.
absl::Status Errno(absl::string_view what, const std::string& path, int err) {
  absl::Status st = IoError(what, path, err);
  if (absl::IsResourceExhausted(st)) {
    return absl::ResourceExhaustedError(absl::StrCat(st.message(), ": the finding was NOT stored"));
  }
  return st;
}

absl::Status MakeDirs(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Errno("cannot create directory", dir, ec.value());
  return absl::OkStatus();
}

bool IsTextName(absl::string_view name) {
  return absl::EndsWith(name, ".textproto") || absl::EndsWith(name, ".txtpb");
}
bool IsBinaryName(absl::string_view name) {
  return absl::EndsWith(name, ".binpb") || absl::EndsWith(name, ".pb");
}

}  // namespace

absl::StatusOr<proto::Finding> ParseFindingFile(const std::string& path, absl::string_view data) {
  proto::Finding f;
  LANEDIFF_RETURN_IF_ERROR(IsTextName(BaseName(path)) ? ParseTextInto(data, path, &f)
                                                      : ParseBinaryInto(data, path, &f));
  if (absl::Status valid = ValidateFinding(f); !valid.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", valid.message()));
  }
  return f;
}

namespace {

// Removes temp files a killed writer left behind (older than a minute, so a live writer's
// temp file is never touched).
void CleanStaleTemps(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  const time_t now = ::time(nullptr);
  while (struct dirent* e = ::readdir(d)) {
    if (std::strncmp(e->d_name, ".tmp.", 5) != 0) continue;
    const std::string p = absl::StrCat(dir, "/", e->d_name);
    struct stat st;
    if (::stat(p.c_str(), &st) == 0 && now - st.st_mtime > 60) ::unlink(p.c_str());
  }
  ::closedir(d);
}

// Takes the per-signature lock for an update of `path` (making its directory first) and
// removes temp files killed writers left there.
absl::StatusOr<FileLock> LockForUpdate(const std::string& path, const std::string& signature) {
  const std::string dir = DirName(path);
  LANEDIFF_RETURN_IF_ERROR(MakeDirs(dir));
  LANEDIFF_ASSIGN_OR_RETURN(FileLock lock,
                            FileLock::Acquire(absl::StrCat(dir, "/.", signature, ".lock")));
  CleanStaleTemps(dir);
  return lock;
}

// <root>/.origin: the corpus's id, 16 random hex digits, made once. Two stores racing to make
// it may each keep its own: the counts stay right (each counts its hits under its id).
absl::StatusOr<std::string> ReadOrMakeOrigin(const std::string& root) {
  const std::string path = absl::StrCat(root, "/.origin");
  if (absl::StatusOr<std::string> id = ReadFile(path); id.ok()) {
    std::string s(absl::StripAsciiWhitespace(*id));
    if (IsValidSignature(s)) return s;
  }
  uint64_t r = 0;
  if (::getentropy(&r, sizeof r) != 0) return Errno("cannot get random bytes for", path, errno);
  std::string id = absl::StrCat(absl::Hex(r, absl::kZeroPad16));
  LANEDIFF_RETURN_IF_ERROR(WriteFileAtomic(path, id + "\n"));
  return id;
}

}  // namespace

std::string NowRfc3339() {
  const time_t t = ::time(nullptr);
  struct tm tm;
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

absl::StatusOr<CorpusStore> CorpusStore::Open(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  LANEDIFF_RETURN_IF_ERROR(MakeDirs(root));
  if (::access(root.c_str(), W_OK | X_OK) != 0) {
    return Errno("corpus directory is not writable", root, errno);
  }
  return CorpusStore(std::move(root));
}

absl::StatusOr<std::string> CorpusStore::Origin() {
  if (origin_.empty()) {
    absl::StatusOr<std::string> id = ReadOrMakeOrigin(root_);
    if (!id.ok()) {
      if (!absl::IsResourceExhausted(id.status())) return id.status();
      return absl::ResourceExhaustedError(
          absl::StrCat(id.status().message(), ": the finding was NOT stored"));
    }
    origin_ = *std::move(id);
  }
  return origin_;
}

std::string CorpusStore::PathFor(const proto::Finding& f) const {
  return absl::StrCat(root_, "/", f.testcase().target(), "/",
                      proto::Instruction_Name(f.testcase().instr()), "/", f.signature(),
                      ".textproto");
}

absl::StatusOr<RecordOutcome> CorpusStore::Record(const proto::Finding& finding) {
  LANEDIFF_RETURN_IF_ERROR(ValidateFinding(finding));
  LANEDIFF_ASSIGN_OR_RETURN(const std::string origin, Origin());
  const std::string path = PathFor(finding);
  LANEDIFF_ASSIGN_OR_RETURN(FileLock lock, LockForUpdate(path, finding.signature()));
  const uint64_t add = std::max<uint64_t>(1, finding.count());
  const std::string now = NowRfc3339();
  RecordOutcome out;
  out.path = path;
  proto::Finding stored;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    LANEDIFF_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    absl::StatusOr<proto::Finding> parsed = ParseFindingFile(path, text);
    if (!parsed.ok()) {
      return absl::DataLossError(absl::StrCat(
          "stored finding is malformed, left untouched (move it aside to re-record): ",
          parsed.status().message()));
    }
    stored = *std::move(parsed);
    NormalizeOrigins(&stored);
    AddHits(&stored, origin, add);
    const std::string first = finding.first_seen().empty() ? now : finding.first_seen();
    const std::string last = finding.last_seen().empty() ? now : finding.last_seen();
    if (stored.first_seen().empty() || first < stored.first_seen()) stored.set_first_seen(first);
    if (last > stored.last_seen()) stored.set_last_seen(last);
    MergeBucketFields(finding, &stored);  // fuzz/triage/bucket_merge.h
  } else if (errno == ENOENT) {
    out.is_new = true;
    stored = finding;
    stored.clear_origin_counts();
    AddHits(&stored, origin, add);
    if (stored.first_seen().empty()) stored.set_first_seen(now);
    if (stored.last_seen().empty()) stored.set_last_seen(stored.first_seen());
  } else {
    return Errno("cannot stat", path, errno);
  }
  // Fields this build does not know (a binary finding from a newer schema) would print as
  // "9: 0x..." lines that no text parser reads back: they are dropped, never stored.
  stored.DiscardUnknownFields();
  if (absl::Status st = WriteFileAtomic(path, ToText(stored)); !st.ok()) {
    if (!absl::IsResourceExhausted(st)) return st;
    return absl::ResourceExhaustedError(absl::StrCat(st.message(), ": the finding was NOT stored"));
  }
  out.count = stored.count();
  return out;
}

CorpusLoad LoadCorpus(const std::vector<std::string>& paths) {
  CorpusLoad out;
  FileWalk walk = WalkFiles(
      paths, [](absl::string_view name) { return IsTextName(name) || IsBinaryName(name); });
  out.errors = std::move(walk.errors);
  for (const std::string& path : walk.files) {
    absl::StatusOr<std::string> data = ReadFile(path);
    absl::StatusOr<proto::Finding> f =
        data.ok() ? ParseFindingFile(path, *data) : absl::StatusOr<proto::Finding>(data.status());
    if (!f.ok()) {
      out.errors.push_back(std::string(f.status().message()));
      continue;
    }
    out.findings.push_back({path, *std::move(f)});
  }
  std::sort(out.findings.begin(), out.findings.end(),
            [](const LoadedFinding& a, const LoadedFinding& b) { return a.path < b.path; });
  return out;
}

absl::StatusOr<CorpusStore::MergeResult> CorpusStore::Merge(const proto::Finding& finding) {
  LANEDIFF_RETURN_IF_ERROR(ValidateFinding(finding));
  const std::string path = PathFor(finding);
  LANEDIFF_ASSIGN_OR_RETURN(FileLock lock, LockForUpdate(path, finding.signature()));
  proto::Finding merged = finding;
  NormalizeOrigins(&merged);
  std::string before;
  if (absl::StatusOr<std::string> text = ReadFile(path); text.ok()) {
    absl::StatusOr<proto::Finding> stored = ParseFindingFile(path, *text);
    if (!stored.ok()) {
      return absl::DataLossError(absl::StrCat("stored finding ", path,
                                              " is malformed, left untouched (move it aside to "
                                              "merge): ", stored.status().message()));
    }
    merged = MergeFindings(*stored, finding);
    before = *std::move(text);
  } else if (!absl::IsNotFound(text.status())) {
    return text.status();
  }
  merged.DiscardUnknownFields();  // as in Record: never stored as unreadable "9: 0x..." text
  const std::string after = ToText(merged);
  if (after == before) return MergeResult::kUnchanged;
  LANEDIFF_RETURN_IF_ERROR(WriteFileAtomic(path, after));
  return before.empty() ? MergeResult::kAdded : MergeResult::kUpdated;
}

absl::StatusOr<MergeStats> MergeCorpora(const std::vector<std::string>& sources,
                                        const std::string& into) {
  // The destination must not lie inside a source: its new files would be loaded again with
  // that source (replay twice, counts twice in a report).
  std::error_code ec;
  const std::filesystem::path dest = std::filesystem::weakly_canonical(into, ec);
  for (const std::string& src : sources) {
    const std::filesystem::path s = std::filesystem::weakly_canonical(src, ec);
    if (ec || s.empty() || s == dest) continue;
    auto [si, di] = std::mismatch(s.begin(), s.end(), dest.begin(), dest.end());
    if (si == s.end() && std::filesystem::is_directory(s)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "destination ", into, " is inside source ", src,
          ": the merged copies would load again with the source (every finding twice); "
          "merge into a directory outside every source"));
    }
  }
  LANEDIFF_ASSIGN_OR_RETURN(CorpusStore store, CorpusStore::Open(into));
  MergeStats stats;
  CorpusLoad load = LoadCorpus(sources);
  stats.errors = std::move(load.errors);
  for (const LoadedFinding& lf : load.findings) {
    LANEDIFF_ASSIGN_OR_RETURN(CorpusStore::MergeResult r, store.Merge(lf.finding));
    switch (r) {
      case CorpusStore::MergeResult::kAdded: ++stats.added; break;
      case CorpusStore::MergeResult::kUpdated: ++stats.updated; break;
      case CorpusStore::MergeResult::kUnchanged: ++stats.unchanged; break;
    }
  }
  return stats;
}

}  // namespace lanediff
