// A minimal streaming JSON writer for the CLI's --format json output.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace paradise {

/// Writes JSON with correct commas and string escaping; callers nest begin/end calls.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(std::int64_t v);
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();

 private:
  void separate();
  std::ostream& out_;
  std::vector<bool> first_;  // one entry per open container: no element written yet
  bool after_key_ = false;
};

void write_json_string(std::ostream& out, std::string_view s);

}  // namespace paradise
