#include "checkpoint.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"

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
  std::ostringstream out;
  out << kMagic << '\n' << "chunks_done " << c.chunks_done << '\n';
  put_blob(out, "sweep_text", c.sweep_text.data(), c.sweep_text.size());
  put_blob(out, "layout", c.layout.data(), c.layout.size());
  put_blob(out, "summary", reinterpret_cast<const char*>(c.summary.data()), c.summary.size());
  // a file left by a run killed while writing it goes (unlinked: a link there is never
  // followed); the new one is created exclusively, written whole, then renamed over the last
  if (entry_status(tmp).kind == EntryKind::file) ::unlink(tmp.c_str());
  try {
    write_new_file(tmp, out.str());
  } catch (const InputError& e) {
    throw std::runtime_error(std::string("checkpoint ") + e.what());
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
  ::unlink(checkpoint_path(output).c_str());  // a file only: never a directory in its place
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
