#include "paradise/implementation/profile.hpp"

#include "paradise/core/names.hpp"

namespace paradise::implementation {
namespace {

constexpr NamePair<Transport> kTransports[] = {{Transport::GpuDirect, "gpu-direct"},
                                               {Transport::HostStaged, "host-staged"},
                                               {Transport::CudaAwareMpi, "mpi-cuda-aware"}};

}  // namespace

std::string_view transport_name(Transport t) {
  return name_in(kTransports, t);
}

std::optional<Transport> transport_from_name(std::string_view name) {
  return value_in(kTransports, name);
}

std::optional<Exchange> exchange_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kExchanges; ++i) {
    if (kExchangeNames[i] == name) return static_cast<Exchange>(i);
  }
  return std::nullopt;
}

}  // namespace paradise::implementation
