#include "fuzz/cli/discriminate_table.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/cli/json_line.h"
#include "model/targets/hypotheses.h"

namespace lanediff {

namespace {

// The rule's readings the discrimination compared: its default first (marked by the caller),
// then each non-default value in Discrimination order.
std::vector<std::string> ReadingsOf(const Discrimination& d, const std::string& rule) {
  std::vector<std::string> values;
  if (const HypothesisInfo* info = FindHypothesis(rule); info && !info->values.empty()) {
    values.emplace_back(info->values[0].name);
  }
  const std::string prefix = rule + "=";
  for (const std::string& name : d.reading_names) {
    if (absl::StartsWith(name, prefix)) values.push_back(name.substr(prefix.size()));
  }
  return values;
}

// 1-based numbers of the questions that ask `rule`.
std::vector<int> QuestionsOf(const Discrimination& d, const std::string& rule) {
  std::vector<int> out;
  for (size_t q = 0; q < d.questions.size(); ++q) {
    const std::vector<std::string>& rules = d.questions[q].rules;
    if (std::find(rules.begin(), rules.end(), rule) != rules.end()) out.push_back(q + 1);
  }
  return out;
}

}  // namespace

std::string ShellWord(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-=:./,+@%") == std::string::npos) {
    return s;
  }
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

namespace {

// `cells` laid out under `widths`, each cell wrapped into its column; trailing spaces removed.
std::string TableRow(const std::vector<std::string>& cells, const std::vector<size_t>& widths) {
  std::vector<std::vector<std::string>> wrapped;
  size_t lines = 1;
  for (size_t c = 0; c < cells.size(); ++c) {
    std::vector<std::string> col;
    std::string line;
    for (absl::string_view w : absl::StrSplit(cells[c], ' ', absl::SkipEmpty())) {
      if (!line.empty() && line.size() + 1 + w.size() > widths[c]) {
        col.push_back(line);
        line.clear();
      }
      absl::StrAppend(&line, line.empty() ? "" : " ", w);
    }
    col.push_back(line);
    lines = std::max(lines, col.size());
    wrapped.push_back(col);
  }
  std::string out;
  for (size_t l = 0; l < lines; ++l) {
    std::string row;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string& text = l < wrapped[c].size() ? wrapped[c][l] : "";
      absl::StrAppend(&row, c + 1 < cells.size()
                                ? absl::StrFormat("%-*s  ", static_cast<int>(widths[c]), text)
                                : text);
    }
    row.erase(row.find_last_not_of(' ') + 1);
    absl::StrAppend(&out, row, "\n");
  }
  return out;
}

std::string Hex32(uint32_t v) { return absl::StrFormat("0x%08x", v); }

// Every word of an answer (VDST; a VGPR pair VDST, VDST+1), in hex.
std::vector<std::string> Words(const LaneAnswer& a) {
  std::vector<std::string> out;
  for (size_t k = 0; k < a.words; ++k) out.push_back(Hex32(a.word[k]));
  return out;
}

}  // namespace

std::string WrapWords(const std::string& first, const std::string& text, size_t indent,
                      size_t width) {
  std::string out = first, line_pad(indent, ' ');
  size_t column = first.size();
  bool line_empty = true;
  for (absl::string_view w : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line_empty && column + 1 + w.size() > width) {
      absl::StrAppend(&out, "\n", line_pad);
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, w);
    column += w.size();
    line_empty = false;
  }
  return out;
}

std::string RuleVerdict(const std::string& rule, const DeviceVerdict* verdict) {
  if (verdict == nullptr) return "-";
  for (const std::string& f : verdict->follows) {
    if (absl::StartsWith(f, rule + "=")) return f.substr(rule.size() + 1);
  }
  for (const std::string& u : verdict->undetermined) {
    if (absl::StartsWith(u, rule + ": ")) return u.substr(rule.size() + 2);
  }
  for (const std::string& n : verdict->none) {
    if (absl::StartsWith(n, rule + ":")) return "none";
  }
  return "inconclusive";
}

NextStep NextCommand(const Discrimination& d, const DeviceVerdict* verdict,
                     const std::string& device) {
  const std::string what = absl::StrCat(" --targets ", d.target, " --instrs ", InstrName(d.instr));
  if (verdict == nullptr) {
    return {"put these questions to a GPU",
            absl::StrCat("lanediff discriminate", what, " --device=hip")};
  }
  std::string cmd = absl::StrCat("lanediff fuzz", what, " ", device);
  if (!verdict->explained) {
    return {"no known reading explains the device: store its disagreements as findings",
            absl::StrCat(cmd, " --time 60 --corpus corpus")};
  }
  for (const std::string& f : verdict->follows) {
    // Only the non-default readings need saying.
    const std::vector<std::string> parts = absl::StrSplit(f, absl::MaxSplits('=', 1));
    const HypothesisInfo* info = FindHypothesis(parts[0]);
    if (info && !info->values.empty() && parts.size() == 2 && info->values[0].name != parts[1]) {
      absl::StrAppend(&cmd, " --hypothesis ", f);
    }
  }
  return {"fuzz with the readings the device follows",
          absl::StrCat(cmd, " --time 60 --corpus corpus")};
}

std::string WrapCommand(const std::string& command, size_t width) {
  // Shell words: split on spaces outside single quotes.
  std::vector<std::string> words(1);
  bool quoted = false;
  for (char c : command) {
    if (c == '\'') quoted = !quoted;
    if (c == ' ' && !quoted) {
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    words.back() += c;
  }
  std::string out = "  ";
  size_t column = 2;
  bool line_empty = true;
  // A flag and its value stay on one line: `--inject sr_wrap` is one unit.
  std::vector<std::string> units;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].empty()) continue;
    units.push_back(words[i]);
    if (absl::StartsWith(words[i], "--") && words[i].find('=') == std::string::npos &&
        i + 1 < words.size() && !absl::StartsWith(words[i + 1], "-")) {
      absl::StrAppend(&units.back(), " ", words[++i]);
    }
  }
  for (const std::string& w : units) {
    if (!line_empty && column + 1 + w.size() + 2 > width) {  // room for " \"
      out += " \\\n      ";
      column = 6;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += w;
    column += w.size();
    line_empty = false;
  }
  return out;
}

std::string FormatDiscriminationTable(const Discrimination& d, const DeviceVerdict* verdict,
                                      const std::string& device_description,
                                      const std::string& device) {
  std::string out = WrapWords(
      "",
      absl::StrFormat("%s %s: %zu relevant rules, %zu readings, %zu questions separate %d of %zu "
                      "pairs of readings%s%s",
                      d.target, InstrName(d.instr), d.relevant.size(), d.readings.size(),
                      d.questions.size(), d.pairs_separated, d.pairs.size(),
                      device_description.empty() ? " (no device asked)"
                                                 : absl::StrCat("; device ", device_description),
                      DstWords(d.instr) == 2 ? "; each answer is the VGPR pair: VDST VDST+1"
                      : DstWords(d.instr) > 2
                          ? absl::StrFormat("; each answer is the VGPR tuple: VDST .. VDST+%d",
                                            DstWords(d.instr) - 1)
                          : ""),
      2);
  out += "\n\n";
  // The rule table.
  std::vector<std::vector<std::string>> rows = {
      {"rule", "readings (* default)", "verdict", "decided by"}};
  for (const std::string& rule : d.relevant) {
    std::vector<std::string> readings = ReadingsOf(d, rule);
    if (!readings.empty()) readings[0] += "*";
    std::vector<std::string> qs;
    for (int q : QuestionsOf(d, rule)) qs.push_back(absl::StrCat("Q", q));
    rows.push_back({rule, absl::StrJoin(readings, " "), RuleVerdict(rule, verdict),
                    qs.empty() ? "no question" : absl::StrJoin(qs, " ")});
  }
  std::vector<size_t> widths(4, 0);
  for (const auto& r : rows) {
    for (size_t c = 0; c < 4; ++c) widths[c] = std::max(widths[c], r[c].size());
  }
  widths[2] = std::min<size_t>(widths[2], 24);
  widths[3] = std::min<size_t>(widths[3], 16);
  const size_t fixed = widths[0] + widths[2] + widths[3] + 6;
  widths[1] = std::min(widths[1], fixed < kMaxColumns - 20 ? kMaxColumns - fixed : 20);
  for (const auto& r : rows) out += TableRow(r, widths);

  // The questions.
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    const Question& q = d.questions[qi];
    const proto::Lane& l = q.testcase.lanes(0);
    absl::StrAppend(
        &out, "\n",
        WrapWords(absl::StrFormat("Q%-3zu", qi + 1),
                  absl::StrCat(q.assembly, "   (asks ", absl::StrJoin(q.rules, ", "), ")"), 6));
    absl::StrAppendFormat(&out, "\n      lane: src0=0x%08x src1=0x%08x MODE=0x%08x%s\n", l.src0(),
                          l.src1(), q.testcase.has_mode() ? q.testcase.mode() : kDefaultMode,
                          q.testcase.lanes_size() > 1
                              ? absl::StrFormat(" (and %d more lanes)", q.testcase.lanes_size() - 1)
                              : "");
    std::map<LaneAnswer, std::vector<std::string>> by_answer;
    for (size_t s = 0; s < d.readings.size(); ++s)
      by_answer[q.answers[s]].push_back(d.reading_names[s]);
    const bool asked = verdict != nullptr;
    for (const auto& [answer, names] : by_answer) {
      const bool is_device = asked && verdict->device_answers[qi] == answer;
      const std::string mark = is_device ? "  -> " : "     ";
      const std::string words = FormatLaneAnswer(answer);
      if (mark.size() + words.size() + 1 <= kMaxColumns / 2) {
        const std::string first = absl::StrCat(mark, words, " ");
        absl::StrAppend(&out, WrapWords(first, absl::StrJoin(names, " | "), first.size()), "\n");
      } else {  // a tuple's words, wrapped; the readings on the line after them
        absl::StrAppend(&out, WrapWords(mark, words, mark.size()), "\n",
                        WrapWords(std::string(mark.size(), ' ') + "= ",
                                  absl::StrJoin(names, " | "), mark.size() + 2),
                        "\n");
      }
    }
    if (asked && by_answer.count(verdict->device_answers[qi]) == 0) {
      absl::StrAppend(&out,
                      WrapWords("  -> ", absl::StrCat(FormatLaneAnswer(verdict->device_answers[qi]),
                                                      " no known reading gives this"),
                                5),
                      "\n");
    }
  }
  if (verdict != nullptr) absl::StrAppend(&out, "\n   (-> marks the device's answer)\n");
  for (const std::string& s : d.inseparable) {
    absl::StrAppend(&out, "\n",
                    WrapWords("",
                              absl::StrCat("no candidate input separates ", s,
                                           " (the two compute the same here)"),
                              2));
    out += "\n";
  }
  if (verdict != nullptr) {
    absl::StrAppend(&out, "\n", WrapWords("", verdict->summary, 2), "\n");
    for (const std::string& n : verdict->none) absl::StrAppend(&out, WrapWords("  ", n, 4), "\n");
    for (const std::string& n : verdict->spec) {
      absl::StrAppend(&out, WrapWords("  differs where the spec is clear: ", n, 4), "\n");
    }
    absl::StrAppendFormat(&out, "  (%zu spec checks: the fields the spec states clearly)\n",
                          d.checks.size());
  }
  const NextStep next = NextCommand(d, verdict, device);
  absl::StrAppend(&out, "\n", WrapWords("next: ", next.why, 2), "\n", WrapCommand(next.command),
                  "\n");
  return out;
}

std::string DiscriminationJsonLines(const Discrimination& d, const DeviceVerdict* verdict,
                                    const std::string& device_description,
                                    const std::string& device) {
  std::string out;
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    const Question& q = d.questions[qi];
    const proto::Lane& l = q.testcase.lanes(0);
    std::map<LaneAnswer, std::vector<std::string>> by_answer;
    for (size_t s = 0; s < d.readings.size(); ++s)
      by_answer[q.answers[s]].push_back(d.reading_names[s]);
    std::vector<std::string> answers;
    for (const auto& [answer, names] : by_answer) {
      answers.push_back(JsonLine()
                            .Str("word", Hex32(answer.word[0]))
                            .Strs("words", Words(answer))
                            .Strs("readings", names)
                            .Text());
    }
    JsonLine j;
    j.Str("type", "question")
        .Uint("question", qi + 1)
        .Str("target", d.target)
        .Str("instr", InstrName(d.instr))
        .Str("assembly", q.assembly)
        .Str("src0", Hex32(l.src0()))
        .Str("src1", Hex32(l.src1()))
        .Str("mode", Hex32(q.testcase.has_mode() ? q.testcase.mode() : kDefaultMode))
        .Strs("rules", q.rules)
        .Uint("lanes", static_cast<uint64_t>(q.testcase.lanes_size()))
        .Raw("answers", JsonArray(answers));
    if (verdict != nullptr) {
      j.Str("device_answer", Hex32(verdict->device_answers[qi].word[0]))
          .Strs("device_words", Words(verdict->device_answers[qi]));
    }
    absl::StrAppend(&out, j.Text(), "\n");
  }
  for (const std::string& rule : d.relevant) {
    std::vector<std::string> qs;
    for (int q : QuestionsOf(d, rule)) qs.push_back(absl::StrCat(q));
    const std::vector<std::string> readings = ReadingsOf(d, rule);
    absl::StrAppend(&out,
                    JsonLine()
                        .Str("type", "rule")
                        .Str("rule", rule)
                        .Strs("readings", readings)
                        .Str("default", readings.empty() ? "" : readings[0])
                        .Str("verdict", RuleVerdict(rule, verdict))
                        .Raw("questions", JsonArray(qs))
                        .Text(),
                    "\n");
  }
  JsonLine v;
  v.Str("type", "verdict")
      .Str("target", d.target)
      .Str("instr", InstrName(d.instr))
      .Str("device", device_description)
      .Bool("asked", verdict != nullptr);
  if (verdict != nullptr) {
    v.Bool("explained", verdict->explained)
        .Strs("follows", verdict->follows)
        .Strs("undetermined", verdict->undetermined)
        .Strs("none", verdict->none)
        .Strs("spec", verdict->spec)
        .Uint("checks", d.checks.size())
        .Str("summary", verdict->summary);
  }
  v.Strs("inseparable", d.inseparable).Str("next", NextCommand(d, verdict, device).command);
  absl::StrAppend(&out, v.Text(), "\n");
  return out;
}

}  // namespace lanediff
