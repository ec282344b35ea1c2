#include "paradise/calibrate/measurements.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <istream>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"

namespace paradise::calibrate {
namespace {

std::vector<std::string> tokens(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool starts_with_digit(std::string_view s) {
  return !s.empty() && std::isdigit(static_cast<unsigned char>(s.front())) != 0;
}

/// The position of the k-th (0-based) occurrence of `name` in `header`, if any.
std::optional<std::size_t> nth(const std::vector<std::string>& header, const std::string& name,
                               int k = 0) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name && k-- == 0) return i;
  }
  return std::nullopt;
}

double positive(const std::string& text, const Origin& o, const std::string& what) {
  const double v = parse_double(text, o, what);
  if (v < 0) fail_input(o, what, text, "must be >= 0");
  return v;
}

std::string basename(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The collective a file name names (all_reduce_perf.out, allgather.txt, ...); an
/// InputError for a collective that is not fitted (alltoall, broadcast, reduce, ...): its
/// busbw / algbw could pass for one that is.
std::optional<Form> form_in_name(const std::string& file) {
  std::string n = lower(basename(file));
  n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
  n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
  if (n.find("allreduce") != std::string::npos) return Form::Allreduce;
  if (n.find("allgather") != std::string::npos) return Form::Allgather;
  if (n.find("reducescatter") != std::string::npos) return Form::ReduceScatter;
  if (n.find("sendrecv") != std::string::npos) return Form::PointToPoint;
  for (const char* other :
       {"alltoall", "broadcast", "bcast", "reduce", "gather", "scatter", "hypercube"}) {
    if (n.find(other) != std::string::npos)
      fail_input({file, 0}, "", "",
                 std::string("a ") + other +
                     " test (by its name): only all_reduce_perf, all_gather_perf, "
                     "reduce_scatter_perf and sendrecv_perf tables are fitted");
  }
  return std::nullopt;
}

}  // namespace

std::string_view form_name(Form f) {
  switch (f) {
    case Form::Allreduce:
      return "allreduce";
    case Form::Allgather:
      return "allgather";
    case Form::ReduceScatter:
      return "reduce-scatter";
    case Form::PointToPoint:
      return "sendrecv";
  }
  return "?";
}

std::optional<Form> form_from_name(std::string_view name) {
  for (auto f : {Form::Allreduce, Form::Allgather, Form::ReduceScatter, Form::PointToPoint}) {
    if (form_name(f) == name) return f;
  }
  if (name == "p2p") return Form::PointToPoint;
  return std::nullopt;
}

Measurement parse_nccl_tests(std::istream& in, const std::string& file, std::int64_t ranks,
                             std::optional<Form> form) {
  Measurement m;
  m.file = file;
  m.tool = "nccl-tests";
  std::vector<std::string> header;
  std::optional<std::size_t> time_col, algbw_col, busbw_col;
  std::int64_t rank_lines = 0, threads = 1, gpus = 0;
  double ratio = 0, ratio_bytes = -1;  // busbw / algbw at the largest size
  int header_line = 0;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string_view text = trim(raw);
    const Origin o{file, line};
    if (text.empty()) continue;
    if (text.front() == '#') {
      auto t = tokens(text.substr(1));
      if (!t.empty() && t[0] == "nThread" && t.size() >= 4 && t[2] == "nGpus") {
        threads = parse_int(t[1], o, "nThread");
        gpus = parse_int(t[3], o, "nGpus");
      } else if (!t.empty() && t[0] == "Rank") {
        if (t.size() > 1 && t[1] == "0" && rank_lines > 0)
          fail_input(o, "line", text, "a second run's rank list: give one nccl-tests run per file");
        ++rank_lines;
      } else if (nth(t, "size") && nth(t, "time") && nth(t, "algbw") && nth(t, "busbw")) {
        if (!header.empty())
          fail_input(o, "line", text,
                     "a second table header (first at line " + std::to_string(header_line) +
                         "): give one nccl-tests run per file");
        header = t;
        header_line = line;
        time_col = nth(t, "time");  // the first: out-of-place
        algbw_col = nth(t, "algbw");
        busbw_col = nth(t, "busbw");
      }
      continue;
    }
    if (header.empty() || !starts_with_digit(text)) continue;  // NCCL INFO lines, banners
    const auto t = tokens(text);
    const std::size_t needed = std::max({*time_col, *algbw_col, *busbw_col}) + 1;
    if (t.size() < needed || t.size() < header.size() - 1)  // the in-place #wrong may be absent
      fail_input(o, "line", text,
                 std::to_string(t.size()) + " fields; the table header (line " +
                     std::to_string(header_line) + ") has " + std::to_string(header.size()));
    Sample s;
    s.line = line;
    s.bytes = positive(t[0], o, "size");
    s.time_s = positive(t[*time_col], o, "time") * 1e-6;  // nccl-tests prints microseconds
    if (s.time_s == 0 && s.bytes > 0) fail_input(o, "time", t[*time_col], "must be > 0");
    const double algbw = positive(t[*algbw_col], o, "algbw");
    const double busbw = positive(t[*busbw_col], o, "busbw");
    if (algbw > 0 && s.bytes > ratio_bytes) {
      ratio = busbw / algbw;
      ratio_bytes = s.bytes;
    }
    m.samples.push_back(s);
  }
  if (header.empty())
    fail_input({file, 0}, "", "",
               "no nccl-tests table (a '#  size  count  type ... time  algbw  busbw' header)");
  if (m.samples.empty()) fail_input({file, header_line}, "", "", "no rows under the table header");
  if (ranks > 0 && rank_lines > 0 && ranks != rank_lines)
    fail_input({file, 0}, "GPUS", std::to_string(ranks),
               "the output's '#  Rank' lines name " + std::to_string(rank_lines) +
                   " GPUs (drop :GPUS, or give the file of the " + std::to_string(ranks) +
                   "-GPU run)");
  m.ranks = ranks > 0 ? ranks : rank_lines > 0 ? rank_lines : threads * gpus;
  // nccl-tests doc/PERFORMANCE.md: busbw = algbw x 2(p-1)/p (allreduce), (p-1)/p
  // (allgather, reduce-scatter), 1 (sendrecv)
  const auto factor = [](Form f, double p) {
    return f == Form::Allreduce ? 2 * (p - 1) / p : f == Form::PointToPoint ? 1.0 : (p - 1) / p;
  };
  if (!form) form = form_in_name(file);
  if (!form) {
    if (m.ranks < 2)
      fail_input(
          {file, 0}, "", "",
          "the output names no GPUs ('#  Rank' lines): give the GPU count (FILE:LEVEL:GPUS)");
    const double p = static_cast<double>(m.ranks);
    for (auto f : {Form::Allreduce, Form::Allgather, Form::PointToPoint}) {
      if (std::abs(ratio - factor(f, p)) < 0.02 * factor(f, p)) {
        // within the 2% the printed bandwidths allow, two collectives can fit: allreduce and
        // sendrecv on 2 GPUs, allgather ((p-1)/p) and sendrecv (1) from about 50 GPUs
        if (form)
          fail_input({file, 0}, "", "",
                     "busbw / algbw = " + std::to_string(ratio) + " fits both " +
                         std::string(form_name(*form)) + " and " + std::string(form_name(f)) +
                         " on " + std::to_string(m.ranks) +
                         " GPUs: name the file after the test (all_reduce_perf..., "
                         "all_gather_perf..., sendrecv_perf...)");
        form = f;
      }
    }
    if (!form)
      fail_input({file, 0}, "", "",
                 "busbw / algbw = " + std::to_string(ratio) + " matches no collective on " +
                     std::to_string(m.ranks) +
                     " GPUs: name the file after the test (all_reduce_perf, all_gather_perf, "
                     "reduce_scatter_perf, sendrecv_perf)");
  }
  m.form = *form;
  if (m.form == Form::PointToPoint && m.ranks < 2) m.ranks = 2;
  if (m.ranks < 2)
    fail_input({file, 0}, "", "",
               rank_lines == 1
                   ? "one '#  Rank' line: the run used 1 GPU, a collective needs 2 or more"
                   : "no GPU count in the output ('#  Rank' lines): give it "
                     "(FILE:LEVEL:GPUS)");
  return m;
}

Measurement parse_osu(std::istream& in, const std::string& file, std::int64_t ranks) {
  Measurement m;
  m.file = file;
  bool bandwidth = false, header = false, titled = false;
  int header_line = 0;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string_view text = trim(raw);
    const Origin o{file, line};
    if (text.empty()) continue;
    if (text.front() == '#') {
      const std::string l = lower(text);
      if (l.find("osu") != std::string::npos && l.find("test") != std::string::npos) {
        titled = true;
        if (l.find("bi-directional") != std::string::npos)
          fail_input(o, "test", text, "bi-directional bandwidth is not fitted; use osu_bw");
        if (l.find("allreduce") != std::string::npos) {
          m.form = Form::Allreduce;
          m.tool = "osu_allreduce";
        } else if (l.find("allgather") != std::string::npos) {
          m.form = Form::Allgather;
          m.tool = "osu_allgather";
        } else if (l.find("reduce_scatter") != std::string::npos ||
                   l.find("reduce scatter") != std::string::npos) {
          m.form = Form::ReduceScatter;
          m.tool = "osu_reduce_scatter";
        } else if (l.find("bandwidth") != std::string::npos) {
          m.form = Form::PointToPoint;
          m.tool = "osu_bw";
          bandwidth = true;
        } else if (l.find("mpi latency") != std::string::npos ||
                   l.find("-cuda latency") != std::string::npos ||
                   l.find("-rocm latency") != std::string::npos) {
          m.form = Form::PointToPoint;
          m.tool = "osu_latency";
        } else {
          fail_input(o, "test", text,
                     "not fitted; expected osu_latency, osu_bw, osu_allreduce, osu_allgather or "
                     "osu_reduce_scatter output");
        }
      } else if (l.find("size") != std::string::npos &&
                 (l.find("latency") != std::string::npos ||
                  l.find("bandwidth") != std::string::npos)) {
        header = true;
        header_line = line;
      }
      continue;
    }
    if (!header || !starts_with_digit(text)) continue;
    const auto t = tokens(text);
    if (t.size() < 2) fail_input(o, "line", text, "expected a size and a value");
    Sample s;
    s.line = line;
    s.bytes = positive(t[0], o, "size");
    const double v = positive(t[1], o, bandwidth ? "bandwidth" : "latency");
    if (bandwidth) {
      if (v <= 0) fail_input(o, "bandwidth", t[1], "must be > 0");
      s.time_s = s.bytes / (v * 1e6);  // OSU: MB/s with MB = 1e6 bytes
    } else {
      s.time_s = v * 1e-6;  // microseconds
    }
    m.samples.push_back(s);
  }
  if (!titled) fail_input({file, 0}, "", "", "no '# OSU MPI ... Test' title line");
  if (!header) fail_input({file, 0}, "", "", "no '# Size  Latency/Bandwidth' header line");
  if (m.samples.empty()) fail_input({file, header_line}, "", "", "no rows under the header");
  if (m.form == Form::PointToPoint) {
    // osu_latency and osu_bw time one pair of ranks, whatever the job's size
    if (ranks != 0 && ranks != 2)
      fail_input({file, 0}, "GPUS", std::to_string(ranks),
                 m.tool + " times one pair of ranks: give 2 or no GPU count");
    m.ranks = 2;
  } else {
    if (ranks < 2)
      fail_input({file, 0}, "", "",
                 m.tool + " output does not say how many ranks ran: give them (FILE:LEVEL:GPUS)");
    m.ranks = ranks;
    // osu_allgather's size is each rank's contribution; the fit's n is the whole array
    if (m.form == Form::Allgather) {
      for (auto& s : m.samples) s.bytes *= static_cast<double>(ranks);
    }
  }
  return m;
}

}  // namespace paradise::calibrate
