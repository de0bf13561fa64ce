// lanediff: differential fuzzer for AMD GPU instructions, software model vs silicon.
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/cli/commands.h"
#include "fuzz/cli/flag_table.h"
#include "model/base/version.h"

namespace lanediff {
namespace {

std::vector<Command>& Registry() {
  static auto* commands = new std::vector<Command>;
  return *commands;
}

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "lanediff %s: hunts disagreements between AMD GPU silicon and a bit-exact model\n"
               "of its instructions, lane by lane, bit for bit.\n\n"
               "usage: lanediff COMMAND [flags]      (lanediff help COMMAND for each;\n"
               "                                     lanediff help flags for every flag)\n\n"
               "commands:\n",
               LANEDIFF_VERSION);
  for (const Command& c : AllCommands()) {
    std::fprintf(out, "  %-14s %.*s\n", std::string(c.name).c_str(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  }
  std::fprintf(out,
               "\nexit codes: 0 ok, 1 found something (disagreement, bad input line),\n"
               "2 usage error (a bad flag, a missing or unreadable input path: named),\n"
               "3 device or environment error (no device; an output path that cannot be\n"
               "written, checked before any work starts, its parent directories created).\n");
}

// "unknown command 'X'; did you mean 'Y'?" then the usage, on stderr; exit 2.
int UnknownCommand(const char* name) {
  std::vector<std::string> names;
  for (const Command& c : AllCommands()) names.emplace_back(c.name);
  const std::string best = ClosestWord(name, names);
  std::fprintf(stderr, "lanediff: unknown command '%s'%s\n\n", name,
               best.empty() ? "" : ("; did you mean '" + best + "'?").c_str());
  PrintUsage(stderr);
  return kExitUsage;
}

const Command* FindCommand(absl::string_view name) {
  static const std::vector<Command> all = AllCommands();
  for (const Command& c : all) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace

bool RegisterCommand(const Command& command) {
  Registry().push_back(command);
  return true;
}

std::vector<Command> AllCommands() {
  std::vector<Command> sorted = Registry();
  std::sort(sorted.begin(), sorted.end(),
            [](const Command& a, const Command& b) { return a.order < b.order; });
  return sorted;
}

}  // namespace lanediff

int main(int argc, char** argv) {
  using namespace lanediff;
  // Batches allocate and free multi-megabyte lane and result arrays thousands of times a
  // second. With glibc's defaults each is a fresh mmap whose pages fault in again and again
  // (measured: half of a 2^32 sweep's time was the kernel's). Keep them on the heap instead.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  if (argc >= 3 && std::strcmp(argv[1], "help") == 0) {  // lanediff help COMMAND | flags
    if (std::strcmp(argv[2], "flags") == 0) {
      std::fputs(FlagVocabularyText().c_str(), stdout);
      return kExitOk;
    }
    const Command* c = FindCommand(argv[2]);
    if (c == nullptr) return UnknownCommand(argv[2]);
    char help_flag[] = "--help";
    char* help_argv[] = {argv[2], help_flag, nullptr};
    return c->run(2, help_argv);
  }
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitUsage : kExitOk;
  }
  if (std::strcmp(argv[1], "--list-commands") == 0) {  // hidden: scripts/gen_cli_docs.sh
    for (const Command& c : AllCommands()) {
      std::printf("%s\t%.*s\n", std::string(c.name).c_str(), static_cast<int>(c.summary.size()),
                  c.summary.data());
    }
    return kExitOk;
  }
  if (std::strcmp(argv[1], "--list-vocabulary") == 0) {  // hidden: flag_vocabulary_test.py
    std::fputs(FlagVocabularyList().c_str(), stdout);
    return kExitOk;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("lanediff %s\n", LANEDIFF_VERSION);
    return kExitOk;
  }
  if (const Command* c = FindCommand(argv[1])) return c->run(argc - 1, argv + 1);
  return UnknownCommand(argv[1]);
}
