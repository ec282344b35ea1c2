#include "sweep_file_entries.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iomanip>
#include <sstream>

#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"

namespace paradise::sweep::detail {
namespace {

// Every key of [sweep], [output], [pareto] and [memlimit] (README "Sweep files"), in the
// order the required ones are checked; [layer_times] keys are the user's (model names).
constexpr std::array<std::string_view, 5> kRequired = {"sweep.batch", "sweep.dataset", "sweep.gpus",
                                                       "sweep.model", "sweep.strategy"};
constexpr std::array<std::string_view, 26> kOptional = {"sweep.system",
                                                        "sweep.variant",
                                                        "sweep.spatial_split",
                                                        "sweep.p2",
                                                        "sweep.segments",
                                                        "sweep.resolution",
                                                        "sweep.resolution_samples",
                                                        "sweep.max_workload_bytes",
                                                        "sweep.network_bandwidth_gbps",
                                                        "sweep.network_latency_us",
                                                        "sweep.input_cpu_cores_per_node",
                                                        "sweep.input_node_read_GBps",
                                                        "sweep.input_filesystem_GBps",
                                                        "sweep.precision",
                                                        "sweep.optimizer",
                                                        "sweep.zero",
                                                        "sweep.recompute",
                                                        "sweep.implementation",
                                                        "sweep.eval_samples",
                                                        "output.storage",
                                                        "output.max_bytes",
                                                        "output.reduce",
                                                        "pareto.objectives",
                                                        "pareto.group",
                                                        "memlimit.batch",
                                                        "memlimit.resolution"};
constexpr std::array<std::string_view, 2> kOptionalMemlimit = {"memlimit.sides",
                                                               "memlimit.max_searches"};

bool known_key(std::string_view name) {
  const auto in = [&](const auto& keys) {
    return std::find(keys.begin(), keys.end(), name) != keys.end();
  };
  return in(kRequired) || in(kOptional) || in(kOptionalMemlimit);
}

bool known_section(const std::string& section) {
  if (section == "layer_times" || section == "convergence") return true;  // the user's keys
  const auto of_section = [&](std::string_view key) { return key.starts_with(section + "."); };
  return std::any_of(kRequired.begin(), kRequired.end(), of_section) ||
         std::any_of(kOptional.begin(), kOptional.end(), of_section) ||
         std::any_of(kOptionalMemlimit.begin(), kOptionalMemlimit.end(), of_section);
}

// A key outside the known ones and [layer_times]: refused, saying why.
[[noreturn]] void refuse_unknown(const IniDottedEntry& e, const std::string& path) {
  const Origin o{path, e.line};
  if (e.name.find('.') == std::string::npos)
    fail_input(o, e.name, e.value, "a key before any section; put it under [sweep]");
  if (e.name.ends_with('.'))  // "= 5": the section and a dot
    fail_input(o, e.name, e.value, "a value without a key (expected KEY = VALUE)");
  fail_input(o, e.name, e.value,
             known_section(e.section) ? "unknown key"
                                      : "unknown section [" + e.section +
                                            "]; expected [sweep], [output], [pareto], "
                                            "[memlimit], [layer_times] or [convergence]");
}

bool named_before(const std::vector<IniDottedEntry>& entries, const IniDottedEntry& e) {
  return std::any_of(entries.begin(), entries.end(),
                     [&](const IniDottedEntry& x) { return x.name == e.name; });
}

}  // namespace

std::string read_sweep_text(const std::string& path) {
  const PathStatus where = path_status(path);
  if (where.kind == PathKind::directory)
    throw InputError(path + ": is a directory, not a sweep file");
  if (where.kind == PathKind::missing) throw InputError(path + ": no such sweep file");
  if (where.kind == PathKind::unreachable)
    throw InputError(path + ": cannot open sweep file (" + where.why + ")");
  std::string text = read_input_file(path, "sweep file", std::size_t{1} << 20);
  check_sweep_text(path, text);
  return text;
}

void check_sweep_text(const std::string& path, const std::string& text) {
  // the output keeps the text in an attribute of UTF-8 strings: bytes that are not UTF-8
  // (a Latin-1 comment) would make strict readers fail on the file
  if (const auto bad = first_invalid_utf8(text); bad != std::string::npos) {
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    std::ostringstream hex;
    hex << std::hex << std::setw(2) << std::setfill('0')
        << static_cast<unsigned>(static_cast<unsigned char>(text[bad]));
    throw InputError(path + ":" + std::to_string(line) + ": byte " +
                     with_commas(static_cast<std::int64_t>(bad) + 1) + " (0x" + hex.str() +
                     ") is not UTF-8; the output keeps the sweep file's text as UTF-8: save the "
                     "file as UTF-8");
  }
  // the output keeps the text in one attribute, which an HDF5 object header message limits
  // to 64 KiB (refused here so that --dry-run says so too, not at the write)
  constexpr std::size_t kMaxText = 65000;
  if (text.size() > kMaxText)
    throw InputError(path + ": " + with_commas(static_cast<std::int64_t>(text.size())) +
                     " bytes; the output keeps the sweep file's text in one HDF5 attribute, "
                     "at most " +
                     with_commas(static_cast<std::int64_t>(kMaxText)) +
                     " bytes: shorten its comments, or write long lists as ranges (A..B +S)");
}

SweepEntries::SweepEntries(const std::string& path, const std::string& text) : path_(path) {
  std::istringstream in(text);
  const std::vector<IniDottedEntry> entries = parse_dotted_ini(in, path);
  for (const auto& e : entries) {  // first the keys that are not the sweep file's
    if (known_key(e.name)) continue;
    const bool convergence = e.name.starts_with("convergence.");
    if (!e.name.starts_with("layer_times.") && !convergence) refuse_unknown(e, path);
    auto& list = convergence ? convergence_ : layer_times_;
    if (named_before(list, e)) fail_input({path, e.line}, e.name, e.value, "set more than once");
    list.push_back(e);
  }
  for (const auto& e : entries) {  // then the known keys, once each
    if (!known_key(e.name)) continue;
    if (named_before(known_, e))
      fail_input({path, e.line}, e.name, trim(e.value),
                 "set more than once (one line per key; a list is A, B, C)");
    known_.push_back(e);
  }
  for (const auto name : kRequired) {
    if (!has(name))
      fail_input({path, 0}, name, "",
                 "missing (every sweep needs model, dataset, strategy, gpus, batch)");
  }
}

const IniDottedEntry* SweepEntries::find(std::string_view name) const {
  const auto e = std::find_if(known_.begin(), known_.end(),
                              [&](const IniDottedEntry& x) { return x.name == name; });
  return e == known_.end() ? nullptr : &*e;
}

std::string SweepEntries::value(std::string_view name, const std::string& fallback) const {
  const IniDottedEntry* e = find(name);
  return e ? e->value : fallback;
}

Origin SweepEntries::at(std::string_view name) const {
  const IniDottedEntry* e = find(name);
  return {path_, e ? e->line : 0};
}

}  // namespace paradise::sweep::detail
