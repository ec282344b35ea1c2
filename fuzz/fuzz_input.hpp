// Shared by the libFuzzer targets (docs/fuzzing.md): a parser may refuse any input with an
// InputError; anything else escaping it (another exception, a crash, a sanitizer report, a
// hang) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "paradise/core/error.hpp"

namespace paradise::fuzz {

/// The fuzzer's bytes as text.
inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs `parse` on the bytes as a stream; a clean refusal (InputError) is an accepted outcome.
template <class Parse>
int parse_stream(const std::uint8_t* data, std::size_t size, Parse parse) {
  std::istringstream in(as_text(data, size));
  try {
    parse(in);
  } catch (const InputError&) {  // the parser refused the input: the expected outcome
  }
  return 0;
}

}  // namespace paradise::fuzz
