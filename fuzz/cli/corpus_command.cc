// `lanediff corpus merge SRC... --out DST` and `lanediff corpus check PATH...`.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/flag_table.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"

namespace lanediff {
namespace {

// The verbs, for the usage text and for `lanediff corpus --list-flags` (completions).
struct Verb {
  const char* name;
  const char* args;
  const char* summary;
};
constexpr Verb kVerbs[] = {
    {"merge", "SRC... --out DST", "join findings without duplicates"},
    {"check", "PATH...", "load and report bad files"},
};

int RunCorpus(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list-flags") == 0) {  // verbs: no dashes, no metavar
    for (const Verb& v : kVerbs) std::printf("%s\t\t%s\n", v.name, v.summary);
    return kExitOk;
  }
  if (argc < 2 || (std::strcmp(argv[1], "merge") != 0 && std::strcmp(argv[1], "check") != 0)) {
    const bool help = argc >= 2 && (std::strcmp(argv[1], "--help") == 0);
    if (argc >= 2 && !help) {
      std::vector<std::string> verbs;
      for (const Verb& v : kVerbs) verbs.emplace_back(v.name);
      const std::string best = ClosestWord(argv[1], verbs);
      std::fprintf(stderr, "lanediff corpus: unknown verb '%s'%s\n", argv[1],
                   best.empty() ? "" : ("; did you mean '" + best + "'?").c_str());
    }
    for (const Verb& v : kVerbs) {
      std::fprintf(help ? stdout : stderr, "%s lanediff corpus %s %-20s %s\n",
                   &v == kVerbs ? "usage:" : "      ", v.name, v.args, v.summary);
    }
    return help ? kExitOk : kExitUsage;
  }
  const bool merge = std::strcmp(argv[1], "merge") == 0;
  Args args(merge ? "corpus merge" : "corpus check",
            merge ? "Join findings directories (from several machines) into DST: one file per\n"
                    "signature, first/last seen kept, counts summed per corpus of origin. Merging\n"
                    "is idempotent and commutative: the same corpus merged again adds nothing,\n"
                    "and the order of merges does not matter. DST must not lie inside a SRC.\n"
                    "Bad source files are reported and skipped, never rewritten."
                  : "Load findings and report every malformed file by name (and line).");
  std::string into;
  std::vector<std::string> paths;
  if (merge) args.Flag("out", "destination findings directory", &into);
  args.Positional(merge ? "SRC" : "PATH", "findings files or directories", &paths);
  if (int rc = args.Parse(argc - 1, argv + 1); rc >= 0) return rc;
  if (int rc = CheckInputPaths("corpus", merge ? "SRC" : "PATH", paths); rc >= 0) return rc;
  if (int rc = CheckOutputDir("corpus merge", "--out", into); rc >= 0) return rc;
  if (paths.empty() || (merge && into.empty())) {
    std::fprintf(stderr, "lanediff corpus: give %s\n", merge ? "SRC... --out DST" : "PATH...");
    return kExitUsage;
  }
  if (!merge) {
    CorpusLoad load = LoadCorpus(paths);
    for (const std::string& e : load.errors) std::printf("MALFORMED %s\n", e.c_str());
    std::printf("%zu findings loaded, %zu malformed files\n", load.findings.size(),
                load.errors.size());
    return load.errors.empty() ? kExitOk : kExitFound;
  }
  absl::StatusOr<MergeStats> s = MergeCorpora(paths, into);
  if (!s.ok()) {
    std::fprintf(stderr, "lanediff corpus merge: %s\n", std::string(s.status().message()).c_str());
    return absl::IsInvalidArgument(s.status()) ? kExitUsage : kExitEnvironment;
  }
  for (const std::string& e : s->errors) std::printf("SKIPPED %s\n", e.c_str());
  std::printf("%d new signatures, %d merged into existing ones, %d already merged, "
              "%zu bad source files\n",
              s->added, s->updated, s->unchanged, s->errors.size());
  return s->errors.empty() ? kExitOk : kExitFound;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(37, "corpus", "merge corpora without duplicates; check a corpus",
                          RunCorpus);

}  // namespace lanediff
