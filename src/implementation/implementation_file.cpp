// *.impl files (INI, docs/implementations.md). Units are in the key names, converted here:
//   [implementation]  name, description, split_efficiency (0, 1], staging_GBps (0: the
//                     system's host link), managed_memory (none, all or strategy names),
//                     input_broadcast (true/false), loader_samples_per_s (optional: one
//                     loading rank's rate; 0 or absent: not bounding), step_overhead_us
//                     (the framework's time per training step)
//   [exchange.KIND]   for each of gradient, layer, halo, gather, pipeline: transport
//                     (gpu-direct, host-staged, mpi-cuda-aware), overhead_us, overlapped
#include <array>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

#include "paradise/core/ini.hpp"
#include "paradise/core/text.hpp"
#include "paradise/implementation/catalog.hpp"

namespace paradise::implementation {
namespace {

using Setter = void (*)(Implementation&, Exchange, const std::string&, const Origin&,
                        const std::string&);

// A number in [lo, hi] (lo excluded when `open_low`), as the key's unit.
double bounded(const std::string& v, const Origin& o, const std::string& k, double lo, double hi,
               bool open_low, const char* range) {
  const double x = parse_double(v, o, k);
  if (x < lo || x > hi || (open_low && x == lo))
    fail_input(o, k, v, std::string("must be in ") + range);
  return x;
}
bool boolean(const std::string& v, const Origin& o, const std::string& k) {
  if (v != "true" && v != "false") fail_input(o, k, v, "expected true or false");
  return v == "true";
}

// "none", "all", or strategy names separated by spaces or commas.
std::uint16_t strategies(const std::string& v, const Origin& o, const std::string& k) {
  if (v == "none") return 0;
  if (v == "all") return static_cast<std::uint16_t>((1U << kStrategyNames.size()) - 1);
  std::uint16_t bits = 0;
  std::string word;
  const auto take = [&] {
    if (word.empty()) return;
    std::size_t i = 0;
    while (i < kStrategyNames.size() && kStrategyNames[i] != word) ++i;
    if (i == kStrategyNames.size())
      fail_input(o, k, v, "unknown strategy '" + word + "'; expected none, all or strategy names");
    bits = static_cast<std::uint16_t>(bits | 1U << i);
    word.clear();
  };
  for (const char ch : v) {
    if (ch == ' ' || ch == ',' || ch == '\t')
      take();
    else
      word += ch;
  }
  take();
  if (bits == 0) fail_input(o, k, v, "expected none, all or strategy names");
  return bits;
}

// The managed_memory value that strategies() reads back.
std::string strategies_text(std::uint16_t bits) {
  if (bits == 0) return "none";
  std::string out;
  for (std::size_t i = 0; i < kStrategyNames.size(); ++i) {
    if (bits >> i & 1U) out += (out.empty() ? "" : " ") + std::string(kStrategyNames[i]);
  }
  return out;
}

const std::map<std::string, Setter>& profile_keys() {
  static const std::map<std::string, Setter> keys{
      {"name",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) {
         if (v.empty()) fail_input(o, k, v, "must not be empty");
         i.name = v;
       }},
      {"description", [](Implementation& i, Exchange, const std::string& v, const Origin&,
                         const std::string&) { i.description = v; }},
      {"split_efficiency",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) {
         i.profile.split_efficiency = bounded(v, o, k, 0, 1, true, "(0, 1]");
       }},
      // at most 10 TB/s: far above any host link, below a unit slip (bytes for GB)
      {"staging_GBps",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) {
         i.profile.staging_Bps = bounded(v, o, k, 0, 1e4, false, "[0, 10000]") * 1e9;
       }},
      {"managed_memory",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) { i.profile.managed_memory = strategies(v, o, k); }},
      {"input_broadcast",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) { i.profile.input_broadcast = boolean(v, o, k); }},
      // at most 10 million samples per second: beyond any one process, below a unit slip
      {"loader_samples_per_s",
       [](Implementation& i, Exchange, const std::string& v, const Origin& o,
          const std::string& k) {
         i.profile.loader_samples_per_s = bounded(v, o, k, 0, 1e7, false, "[0, 10000000]");
       }},
      // at most 1 s per step: beyond it a unit slip (microseconds written as seconds x 1e6)
      {"step_overhead_us", [](Implementation& i, Exchange, const std::string& v, const Origin& o,
                              const std::string& k) {
         i.profile.step_overhead_s = bounded(v, o, k, 0, 1e6, false, "[0, 1000000]") * 1e-6;
       }}};
  return keys;
}

const std::map<std::string, Setter>& exchange_keys() {
  static const std::map<std::string, Setter> keys{
      {"transport",
       [](Implementation& i, Exchange e, const std::string& v, const Origin& o,
          const std::string& k) {
         const auto t = transport_from_name(v);
         if (!t) fail_input(o, k, v, "expected gpu-direct, host-staged or mpi-cuda-aware");
         i.profile.rule(e).transport = *t;
       }},
      // at most 1 s per call: beyond it a unit slip (microseconds written as seconds x 1e6)
      {"overhead_us",
       [](Implementation& i, Exchange e, const std::string& v, const Origin& o,
          const std::string& k) {
         i.profile.rule(e).overhead_s = bounded(v, o, k, 0, 1e6, false, "[0, 1000000]") * 1e-6;
       }},
      {"overlapped", [](Implementation& i, Exchange e, const std::string& v, const Origin& o,
                        const std::string& k) {
         const bool on = boolean(v, o, k);
         // the layers after a split read the whole gathered tensor: nothing runs beside it
         if (on && e == Exchange::Gather)
           fail_input(o, k, v, "a gather cannot overlap: the next layer reads what it gathers");
         i.profile.rule(e).overlapped = on;
       }}};
  return keys;
}

void apply(Implementation& impl, Exchange e, const IniSection& section,
           const std::map<std::string, Setter>& keys, const std::string& file) {
  for (const auto& entry : section.entries) {
    const auto it = keys.find(entry.key);
    if (it == keys.end()) {
      std::string known;
      for (const auto& [k, s] : keys) known += (known.empty() ? "" : ", ") + k;
      fail_input({file, entry.line}, entry.key, entry.value,
                 "unknown key in [" + section.name + "]; known: " + known);
    }
    it->second(impl, e, entry.value, {file, entry.line}, entry.key);
  }
  for (const auto& [k, s] : keys) {
    // optional: a profile without a description, or whose loading rank bounds nothing
    if (k == "description" || k == "loader_samples_per_s") continue;
    bool given = false;
    for (const auto& entry : section.entries) given = given || entry.key == k;
    if (!given)
      fail_input({file, section.line}, "section", section.name, "missing key '" + k + "'");
  }
}

}  // namespace

Implementation parse_implementation_file(std::istream& in, const std::string& file_name) {
  Implementation impl;
  bool has_profile = false;
  std::array<bool, kExchanges> has_exchange{};
  for (const auto& section : parse_ini(in, file_name)) {
    if (section.name == "implementation") {
      has_profile = true;
      apply(impl, Exchange::Gradient, section, profile_keys(), file_name);
      continue;
    }
    const auto e = section.name.starts_with("exchange.")
                       ? exchange_from_name(std::string_view(section.name).substr(9))
                       : std::nullopt;
    if (!e)
      fail_input({file_name, section.line}, "section", section.name,
                 "unknown section; expected [implementation] or [exchange.KIND], KIND one of "
                 "gradient, layer, halo, gather, pipeline");
    has_exchange[static_cast<std::size_t>(*e)] = true;
    apply(impl, *e, section, exchange_keys(), file_name);
  }
  if (!has_profile)
    fail_input({file_name, 0}, "section", "implementation", "missing [implementation] section");
  for (std::size_t i = 0; i < kExchanges; ++i) {
    if (!has_exchange[i])
      fail_input({file_name, 0}, "section", "exchange." + std::string(kExchangeNames[i]),
                 "missing: a profile states every kind of exchange");
  }
  return impl;
}

// The shortest decimal of `si / scale` that reads back (x scale) to `si` exactly: a whole
// number as one (6700, not 6.7e+03).
std::string in_unit(double si, double scale) {
  const double whole = std::round(si / scale);
  if (std::abs(whole) < 1e15 && whole * scale == si)
    return std::to_string(static_cast<long long>(whole));
  for (int digits = 1; digits <= 17; ++digits) {
    std::ostringstream s;
    s << std::setprecision(digits) << si / scale;
    if (std::stod(s.str()) * scale == si) return s.str();
  }
  std::ostringstream s;
  s << std::setprecision(17) << si / scale;
  return s.str();
}

std::string implementation_file_text(const Implementation& impl) {
  std::ostringstream out;
  out << std::setprecision(17);  // reads back to the same doubles
  const Profile& p = impl.profile;
  out << "# ParaDiSE implementation profile (docs/implementations.md)\n[implementation]\n"
      << "name = " << impl.name << "\n";
  // one line, and no comment character that would cut it when read back
  std::string description = impl.description;
  for (char& ch : description) {
    if (ch == '\n' || ch == '\r' || ch == '#' || ch == ';') ch = ',';
  }
  if (!description.empty()) out << "description = " << description << "\n";
  out << "split_efficiency = " << p.split_efficiency
      << "\nstaging_GBps = " << in_unit(p.staging_Bps, 1e9)
      << "\nmanaged_memory = " << strategies_text(p.managed_memory)
      << "\ninput_broadcast = " << (p.input_broadcast ? "true" : "false")
      << "\nloader_samples_per_s = " << in_unit(p.loader_samples_per_s, 1)
      << "\nstep_overhead_us = " << in_unit(p.step_overhead_s, 1e-6) << "\n";
  for (std::size_t i = 0; i < kExchanges; ++i) {
    const ExchangeRule& r = p.exchanges[i];
    out << "\n[exchange." << kExchangeNames[i] << "]\ntransport = " << transport_name(r.transport)
        << "\noverhead_us = " << in_unit(r.overhead_s, 1e-6)
        << "\noverlapped = " << (r.overlapped ? "true" : "false") << "\n";
  }
  return out.str();
}

}  // namespace paradise::implementation
