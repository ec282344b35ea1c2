// `paradise systems`: the built-in machines.
#include <iostream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/table.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::app {

int run_systems(const Args& args) {
  boost::program_options::options_description desc("paradise systems");
  boost::program_options::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Lists the built-in systems (others: a *.system file, see the README)."))
    return 0;
  TextTable t;
  t.add_column("system", TextTable::Align::Left);
  t.add_column("GPU", TextTable::Align::Left);
  t.add_column("GPUs/node");
  t.add_column("max GPUs");
  t.add_column("fp32 TFLOP/s");
  t.add_column("memory GB");
  t.add_column("margin");  // the fraction of memory kept free: usable = memory x (1 - margin)
  t.add_column("network levels (span GPUs: GB/s, us)", TextTable::Align::Left);
  for (const auto& s : system::builtin_systems()) {
    std::string levels;
    for (const auto& l : s.levels) {
      levels += (levels.empty() ? "" : "; ") + l.name + " " + std::to_string(l.span_gpus) + ": " +
                fixed(l.bandwidth_Bps / 1e9, 1) + ", " + fixed(l.latency_s * 1e6, 2);
    }
    t.add_row({s.name, s.gpu.name, std::to_string(s.gpus_per_node), std::to_string(s.max_gpus),
               fixed(s.gpu.peak_fp32_flops / 1e12, 1), fixed(s.gpu.memory_bytes / 1e9, 0),
               fixed(s.memory_margin_fraction, 2), levels});
  }
  t.print(std::cout);
  return 0;
}

}  // namespace paradise::app
