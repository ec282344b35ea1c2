// memlimit's output.
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/report/fields.hpp"
#include "paradise/report/memlimit.hpp"

namespace paradise::report {
namespace {

void write_limit(JsonWriter& j, const FoundLimit& f) {
  j.key("value");
  f.limit.value > 0 ? j.value(f.limit.value) : j.null();
  j.key("at_search_end").value(f.at_search_end);  // a lower bound: larger may fit
  j.key("evaluations").value(f.limit.evaluations);
  j.key("why_none");
  f.limit.value > 0 ? j.null() : j.value(f.why_none);
  if (f.p2 > 0) j.key("p2_used").value(f.p2);  // the shape at the limit, where it has one
  if (f.segments > 0) j.key("segments_used").value(f.segments);
}

// "; 8 GPUs per group, 4 micro-batches" at a limit (auto's choice), "" without a shape.
std::string shape_text(const strategy::Config& c, const FoundLimit& f) {
  std::string out;
  if (f.p2 > 0) out += "; " + group_size_text(c.kind, f.p2);
  if (f.segments > 0)
    out += (out.empty() ? "; " : ", ") + std::to_string(f.segments) + " micro-batches";
  return out;
}

void write_at_sides(JsonWriter& j, const MemlimitQuery& q, const Memlimits& m) {
  j.key("fewest_gpus").begin_array();
  for (const auto& a : m.at_sides) {
    j.begin_object();
    j.key("side").value(a.side);
    j.key("gpus");
    a.fewest_gpus > 0 ? j.value(a.fewest_gpus) : j.null();  // null: none of the counts tried
    j.key("why_none");
    a.fewest_gpus > 0 ? j.null() : j.value(a.why_no_gpus);
    j.end_object();
  }
  j.end_array();
  j.key("gpu_counts").begin_array();
  for (const auto g : q.counts) j.value(g);
  j.end_array();
  j.key("largest_batch_at_sides").begin_array();  // on --gpus, up to --max-batch
  for (const auto& a : m.at_sides) {
    j.begin_object();
    j.key("side").value(a.side);
    write_limit(j, a.batch);
    j.end_object();
  }
  j.end_array();
}

/// The per-side table, then its notes: "N+" and why each "none".
void print_at_sides(std::ostream& out, const MemlimitQuery& q, const Memlimits& m) {
  const auto& c = q.c;
  TextTable t;
  t.add_column("side");
  t.add_column("fewest GPUs at batch " + with_commas(c.batch));
  t.add_column("largest batch on " + gpus_text(c.gpus));
  std::vector<std::string> notes;  // why "none", below the table
  bool top = false;                // a batch at the top of the search
  for (const auto& a : m.at_sides) {
    const std::string side = std::to_string(a.side);
    const auto& b = a.batch;
    t.add_row(
        {side, a.fewest_gpus > 0 ? std::to_string(a.fewest_gpus) : "none",
         b.limit.value > 0 ? with_commas(b.limit.value) + (b.at_search_end ? "+" : "") : "none"});
    if (b.at_search_end) top = true;
    if (a.fewest_gpus <= 0)
      notes.push_back("side " + side + ": no GPU count of --gpu-counts " + q.gpu_counts_text +
                      " fits, " + a.why_no_gpus);
    if (b.limit.value <= 0)
      notes.push_back("side " + side + ": no batch fits on " + gpus_text(c.gpus) + ", " +
                      b.why_none);
  }
  out << "  per side:\n";
  t.print(out);
  if (top)
    out << "  N+: the top of the batch search (--max-batch " << with_commas(q.max_batch)
        << "); a larger batch may fit\n";
  for (const auto& n : notes) out << "  " << n << '\n';
}

}  // namespace

void print_memlimits_json(std::ostream& out, const MemlimitQuery& q, const Memlimits& m) {
  const auto& c = q.c;
  JsonWriter j(out);
  j.begin_object();
  j.key("model").value(q.spec.model);
  j.key("dataset").value(q.spec.dataset);
  j.key("input").value(m.input);  // a sample, C x spatial
  j.key("system").value(q.spec.system);
  j.key("strategy").value(q.strategy_text);
  j.key("gpus").value(c.gpus);
  j.key("batch").value(c.batch);  // of the side searches
  j.key("variant").value(strategy::variant_name(c.variant));
  write_training_json(j, c);
  j.key("largest_batch").begin_object();
  j.key("max_batch").value(q.max_batch);
  write_limit(j, m.batch);
  j.end_object();
  if (m.side) {
    j.key("largest_resolution").begin_object();
    j.key("lo").value(q.range.front());
    j.key("hi").value(q.range.back());
    j.key("step").value(q.step);
    write_limit(j, *m.side);
    j.end_object();
  }
  if (!q.sides.empty()) write_at_sides(j, q, m);
  j.end_object();
  out << '\n';
}

void print_memlimits_table(std::ostream& out, const MemlimitQuery& q, const Memlimits& m) {
  const auto& c = q.c;
  const auto& b = m.batch;
  out << q.spec.model << " on " << q.spec.dataset << " (" << m.input << "), " << q.spec.system
      << ", " << q.strategy_text << " on " << gpus_text(c.gpus) << "\n"
      << "  training: " << strategy::training_summary(c) << "\n"
      << "  largest feasible global batch: "
      << (b.limit.value > 0 ? with_commas(b.limit.value) : "none (" + b.why_none + ")")
      << (b.at_search_end
              ? " or more: the top of the search (--max-batch " + with_commas(q.max_batch) + ")"
              : "")
      << " (" << b.limit.evaluations << " evaluations" << shape_text(c, b) << ")\n";
  if (m.side) {
    const auto& r = *m.side;
    out << "  largest feasible side at batch " << c.batch << ": "
        << (r.limit.value > 0 ? std::to_string(r.limit.value)
                              : "none in " + q.resolution_text + " (" + r.why_none + ")")
        << (r.at_search_end ? " or more: the top of the range " + q.resolution_text : "") << " ("
        << r.limit.evaluations << " evaluations" << shape_text(c, r) << ")\n";
  }
  if (!q.sides.empty()) print_at_sides(out, q, m);
}

}  // namespace paradise::report
