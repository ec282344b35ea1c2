#include "paradise/core/error.hpp"

#include "paradise/core/text.hpp"

namespace paradise {

namespace {

std::string input_message(const Origin& where, std::string_view key, std::string_view value,
                          std::string_view what) {
  std::string msg;
  if (!where.file.empty()) {
    msg += where.file;
    if (where.line > 0) msg += ":" + std::to_string(where.line);
    msg += ": ";
  }
  if (!key.empty()) {
    msg += std::string(key);
    msg += " '";
    msg += printable(value, false, 160);  // one line, a binary file's "line" cut short
    msg += "': ";
  }
  msg += std::string(what);
  return msg;
}

}  // namespace

void fail_input(const Origin& where, std::string_view key, std::string_view value,
                std::string_view what) {
  throw InputError(input_message(where, key, value, what));
}

void fail_too_large(const Origin& where, std::string_view key, std::string_view value,
                    std::string_view what) {
  throw SizeLimitError(input_message(where, key, value, what));
}

}  // namespace paradise
