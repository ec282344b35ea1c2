#include "paradise/core/error.hpp"

namespace paradise {

void fail_input(const Origin& where, std::string_view key, std::string_view value,
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
    msg += std::string(value);
    msg += "': ";
  }
  msg += std::string(what);
  throw InputError(msg);
}

}  // namespace paradise
