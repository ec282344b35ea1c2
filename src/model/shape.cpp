#include "paradise/model/shape.hpp"

#include "paradise/core/text.hpp"

namespace paradise::model {

std::int64_t Shape::spatial_elements() const {
  std::int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= size[static_cast<std::size_t>(i)];
  return n;
}

bool Shape::within_limits() const {
  long double n = static_cast<long double>(channels);
  if (channels < 1 || channels > kMaxExtent) return false;
  for (int i = 0; i < rank; ++i) {
    const std::int64_t e = size[static_cast<std::size_t>(i)];
    if (e < 1 || e > kMaxExtent) return false;
    n *= static_cast<long double>(e);
  }
  return n <= static_cast<long double>(kMaxElements);
}

std::string Shape::str() const {
  std::string s = std::to_string(channels);
  for (int i = 0; i < rank; ++i) s += "x" + std::to_string(size[static_cast<std::size_t>(i)]);
  return s;
}

Shape Shape::parse(std::string_view text, const Origin& where, std::string_view key) {
  const auto dims = parse_dims(text, where, key);
  if (dims.size() > 4) {
    fail_input(where, key, text, "expected C, CxW, CxHxW or CxDxHxW (at most 3 spatial dims)");
  }
  Shape s;
  s.channels = dims[0];
  s.rank = static_cast<int>(dims.size()) - 1;
  for (std::size_t i = 1; i < dims.size(); ++i) s.size[i - 1] = dims[i];
  if (!s.within_limits())
    fail_too_large(where, key, text, "too large: at most 2^31 - 1 per dimension and 2^48 elements");
  return s;
}

}  // namespace paradise::model
