#include "checkpoint.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "paradise/core/error.hpp"

namespace paradise::engine {
namespace {

// 2: a Pareto candidate holds three objectives (version 1's two make other summary bytes)
constexpr const char* kMagic = "paradise-checkpoint 2";
constexpr std::string_view kMagicFamily = "paradise-checkpoint ";

void put_blob(std::ostream& out, const std::string& name, const char* data, std::size_t n) {
  out << name << ' ' << n << '\n';
  out.write(data, static_cast<std::streamsize>(n));
  out << '\n';
}

std::string get_blob(std::istream& in, const std::string& name, const std::string& path) {
  std::string key;
  std::size_t n = 0;
  if (!(in >> key >> n) || key != name || in.get() != '\n')
    throw InputError(path + ": damaged checkpoint (expected '" + name + "')");
  std::string data(n, '\0');
  if (!in.read(data.data(), static_cast<std::streamsize>(n)) || in.get() != '\n')
    throw InputError(path + ": damaged checkpoint (truncated '" + name + "')");
  return data;
}

}  // namespace

std::string checkpoint_path(const std::string& output) {
  return output + ".resume";
}

void write_checkpoint(const std::string& output, const Checkpoint& c) {
  const std::string path = checkpoint_path(output), tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kMagic << '\n' << "chunks_done " << c.chunks_done << '\n';
    put_blob(out, "sweep_text", c.sweep_text.data(), c.sweep_text.size());
    put_blob(out, "layout", c.layout.data(), c.layout.size());
    put_blob(out, "summary", reinterpret_cast<const char*>(c.summary.data()), c.summary.size());
    out.flush();
    if (!out) throw std::runtime_error("cannot write checkpoint " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename " + tmp + ": " + ec.message());
}

std::optional<Checkpoint> read_checkpoint(const std::string& output) {
  const std::string path = checkpoint_path(output);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string magic, key;
  Checkpoint c;
  if (std::getline(in, magic) && magic != kMagic && magic.starts_with(kMagicFamily))
    throw InputError(path + ": a checkpoint of another ParaDiSE version ('" + magic +
                     "', this one reads '" + kMagic + "'): rerun without --resume");
  in.clear();
  in.seekg(0);
  if (!std::getline(in, magic) || magic != kMagic || !(in >> key >> c.chunks_done) ||
      key != "chunks_done" || in.get() != '\n')
    throw InputError(path + ": not a ParaDiSE checkpoint (or damaged)");
  c.sweep_text = get_blob(in, "sweep_text", path);
  c.layout = get_blob(in, "layout", path);
  const std::string s = get_blob(in, "summary", path);
  c.summary.assign(s.begin(), s.end());
  return c;
}

void remove_checkpoint(const std::string& output) {
  std::remove(checkpoint_path(output).c_str());
}

std::string input_fingerprint(const std::vector<std::string>& files) {
  std::string out = "paradise " PARADISE_VERSION;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) continue;                          // a built-in name, not a file
    std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
    for (char ch; in.get(ch);) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    std::ostringstream hex;
    hex << std::hex << h;
    out += "; " + f + " " + hex.str();
  }
  return out;
}

}  // namespace paradise::engine
