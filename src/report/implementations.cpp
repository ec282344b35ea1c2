// `paradise implementations`: the built-in profiles, one row each (docs/implementations.md).
#include "paradise/report/implementations.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "paradise/core/table.hpp"

namespace paradise::report {
namespace {

// "gpu-direct, overlapped" or "mpi-cuda-aware +30 us"
std::string rule_text(const implementation::ExchangeRule& r) {
  std::string out(implementation::transport_name(r.transport));
  if (r.overhead_s > 0) out += " +" + fixed(r.overhead_s * 1e6, 0) + " us";
  if (r.overlapped) out += ", overlapped";
  return out;
}

}  // namespace

void print_implementation_list(std::ostream& out,
                               const std::vector<implementation::Implementation>& impls) {
  TextTable t;
  t.add_column("implementation", TextTable::Align::Left);
  t.add_column("step ms");  // the framework's time per training step
  for (const auto kind : implementation::kExchangeNames)
    t.add_column(std::string(kind), TextTable::Align::Left);
  t.add_column("what it is", TextTable::Align::Left);
  for (const auto& i : impls) {
    std::vector<std::string> row{i.name, fixed(i.profile.step_overhead_s * 1e3, 1)};
    for (std::size_t k = 0; k < implementation::kExchanges; ++k)
      row.push_back(rule_text(i.profile.exchanges[k]));
    row.push_back(i.description);
    t.add_row(std::move(row));
  }
  t.print(out);
}

}  // namespace paradise::report
