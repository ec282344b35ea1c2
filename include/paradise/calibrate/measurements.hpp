// Collective benchmark outputs as size/time tables: nccl-tests (all_reduce_perf,
// all_gather_perf, reduce_scatter_perf, sendrecv_perf) and the OSU micro-benchmarks
// (osu_latency, osu_bw, osu_allreduce, osu_allgather, osu_reduce_scatter). Errors name the
// file and line.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace paradise::calibrate {

/// The alpha-beta form a table is fitted with (docs/cost-model.md §collectives, ring algorithms).
enum class Form : std::uint8_t {
  Allreduce,      ///< 2(p-1) alpha + 2(p-1)/p n beta
  Allgather,      ///< (p-1) alpha + (p-1)/p n beta, n = the whole gathered array
  ReduceScatter,  ///< (p-1) alpha + (p-1)/p n beta, n = the whole reduced array
  PointToPoint    ///< alpha + n beta
};
std::string_view form_name(Form f);
/// "allreduce", "allgather", "reduce-scatter", "sendrecv" / "p2p".
std::optional<Form> form_from_name(std::string_view name);

struct Sample {
  double bytes = 0;
  double time_s = 0;
  int line = 0;  ///< in the file
};

struct Measurement {
  std::string file;
  std::string tool;  ///< e.g. "nccl-tests", "osu_latency"
  Form form = Form::PointToPoint;
  std::int64_t ranks = 0;  ///< p (2 for point-to-point)
  std::vector<Sample> samples;
};

/// nccl-tests output: the `# size count type redop root time algbw busbw #wrong ...` table
/// (out-of-place time, microseconds; older versions without `root` too). The collective is
/// named in the file name (all_reduce, all_gather, reduce_scatter, sendrecv) or by `form`,
/// else inferred from busbw / algbw (nccl-tests doc/PERFORMANCE.md: 2(p-1)/p, (p-1)/p, 1).
/// p: `ranks` if > 0, else the `#  Rank` lines, else the header's nThread x nGpus.
Measurement parse_nccl_tests(std::istream& in, const std::string& file, std::int64_t ranks = 0,
                             std::optional<Form> form = std::nullopt);

/// OSU micro-benchmarks output: the title line names the test; `# Size  Latency (us)`,
/// `# Size  Bandwidth (MB/s)` (time = size / bandwidth, MB = 1e6 B), `# Size  Avg
/// Latency(us) ...` for collectives, which need `ranks` (OSU does not print p); latency and
/// bandwidth time one pair (ranks 0 or 2).
Measurement parse_osu(std::istream& in, const std::string& file, std::int64_t ranks = 0);

}  // namespace paradise::calibrate
