// Error types shared by every module. Bad input and broken invariants are exceptions;
// an infeasible training configuration is data (a status), never an exception.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace paradise {

/// Bad user input: unknown names, malformed files, impossible values. The message
/// names the file, line, key and value where they are known.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input because a tensor would exceed the supported sizes (2^31 - 1 per dimension, 2^48
/// elements): any larger input fails too (a search over sizes may rely on it).
class SizeLimitError : public InputError {
 public:
  using InputError::InputError;
};

/// Where a value came from, for error messages: "file:line: key 'k' value 'v'".
struct Origin {
  std::string file;  ///< file name, or a description such as "--input"
  int line = 0;      ///< 1-based line, 0 when not from a file line
};

/// Throws an InputError "<file>:<line>: <key> '<value>': <what>".
[[noreturn]] void fail_input(const Origin& where, std::string_view key, std::string_view value,
                             std::string_view what);
/// The same message as a SizeLimitError.
[[noreturn]] void fail_too_large(const Origin& where, std::string_view key, std::string_view value,
                                 std::string_view what);

}  // namespace paradise
