#include "paradise/report/models.hpp"

#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/zoo.hpp"

namespace paradise::report {
namespace {

constexpr int kFp32 = 4;

std::string gigas(double v) {
  return fixed(v / 1e9, 3);
}

void write_model_json(JsonWriter& j, const model::ModelStats& m, const std::string& source) {
  j.begin_object();
  j.key("name").value(m.name);
  j.key("input").value(m.input.str());
  j.key("params").value(m.params());
  j.key("forward_macs").value(m.macs());
  j.key("forward_flops").value(m.forward_flops());
  j.key("backward_flops").value(m.backward_flops());
  j.key("saved_activation_bytes_per_sample").value(m.saved_bytes_per_sample(kFp32));
  j.key("source").value(source);
  j.end_object();
}

void print_layers_json(std::ostream& out, const model::ModelSource& src,
                       const model::ModelStats& m) {
  JsonWriter j(out);
  j.begin_object();
  j.key("name").value(m.name);
  j.key("input").value(m.input.str());
  j.key("params").value(m.params());
  j.key("forward_macs").value(m.macs());
  j.key("saved_activation_bytes_per_sample").value(m.saved_bytes_per_sample(kFp32));
  j.key("layers").begin_array();
  for (const auto& l : m.layers) {
    j.begin_object();
    j.key("name").value(l.name);
    j.key("op").value(model::op_name(l.op));
    j.key("input").value(l.input.str());
    j.key("output").value(l.output.str());
    j.key("params").value(l.params);
    j.key("forward_macs").value(l.macs);
    j.key("forward_flops").value(l.forward_flops);
    j.key("backward_data_flops").value(l.backward_data_flops);
    j.key("backward_weight_flops").value(l.backward_weight_flops);
    j.key("saved_bytes_per_sample").value(l.saved_elements * kFp32 + l.saved_fixed_bytes);
    j.key("read_bytes_per_sample").value(l.read_elements * kFp32);
    j.key("written_bytes_per_sample").value(l.written_elements * kFp32);
    if (src.paradl()) j.key("measured_time_s").value(l.measured_time_s);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  out << '\n';
}

void print_layers_table(std::ostream& out, const model::ModelSource& src,
                        const model::ModelStats& m) {
  TextTable t;
  t.add_column("#");
  t.add_column("layer", TextTable::Align::Left);
  t.add_column("op", TextTable::Align::Left);
  t.add_column("input", TextTable::Align::Left);
  t.add_column("output", TextTable::Align::Left);
  t.add_column("params");
  t.add_column("fwd MFLOP");
  t.add_column("bwd-data MFLOP");
  t.add_column("bwd-weight MFLOP");
  t.add_column("saved B/sample");
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const auto& l = m.layers[i];
    t.add_row({std::to_string(i), l.name, std::string(model::op_name(l.op)), l.input.str(),
               l.output.str(), with_commas(l.params), fixed(l.forward_flops / 1e6, 2),
               fixed(l.backward_data_flops / 1e6, 2), fixed(l.backward_weight_flops / 1e6, 2),
               with_commas(l.saved_elements * kFp32 + l.saved_fixed_bytes)});
  }
  t.print(out);
  out << "\n"
      << printable(m.name, false) << " at " << m.input.str() << ": " << with_commas(m.params())
      << " parameters, " << gigas(static_cast<double>(m.macs())) << " GMACs forward ("
      << gigas(m.forward_flops()) << " GFLOP; backward " << gigas(m.backward_flops()) << " GFLOP), "
      << human_bytes(static_cast<double>(m.saved_bytes_per_sample(kFp32)))
      << " saved for backward per sample (fp32)\n";
  if (const auto* p = src.paradl()) {
    out << "ParaDL file: dataset " << p->dataset << " (" << with_commas(p->samples)
        << " samples), measured " << p->measured_time_per_sample_s() << " s per sample\n";
  }
}

}  // namespace

void print_model_layers(std::ostream& out, const model::ModelSource& src,
                        const std::optional<model::Shape>& input, bool json) {
  const model::ModelStats m = src.stats(input);
  if (json) {
    print_layers_json(out, src, m);
  } else {
    print_layers_table(out, src, m);
  }
}

void print_models(std::ostream& out, bool json) {
  if (json) {
    JsonWriter j(out);
    j.begin_array();
    for (const auto& e : model::zoo()) {
      write_model_json(j, model::ModelSource::load(e.name).stats(), e.source);
    }
    j.end_array();
    out << '\n';
    return;
  }
  TextTable t;
  t.add_column("model", TextTable::Align::Left);
  t.add_column("input", TextTable::Align::Left);
  t.add_column("params");
  t.add_column("fwd GMACs");
  t.add_column("fwd GFLOP");
  t.add_column("saved MB/sample");
  t.add_column("source", TextTable::Align::Left);
  for (const auto& e : model::zoo()) {
    const auto m = model::ModelSource::load(e.name).stats();
    t.add_row({e.name, m.input.str(), with_commas(m.params()), gigas(static_cast<double>(m.macs())),
               gigas(m.forward_flops()),
               fixed(static_cast<double>(m.saved_bytes_per_sample(kFp32)) / 1e6, 1), e.source});
  }
  t.print(out);
}

void print_datasets(std::ostream& out) {
  TextTable t;
  t.add_column("dataset", TextTable::Align::Left);
  t.add_column("samples");
  t.add_column("sample", TextTable::Align::Left);
  t.add_column("source", TextTable::Align::Left);
  for (const auto& d : model::builtin_datasets()) {
    t.add_row({d.name, with_commas(d.samples), d.sample.str(), d.source});
  }
  t.print(out);
}

}  // namespace paradise::report
