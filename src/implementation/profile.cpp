#include "paradise/implementation/profile.hpp"

namespace paradise::implementation {

std::string_view transport_name(Transport t) {
  switch (t) {
    case Transport::GpuDirect:
      return "gpu-direct";
    case Transport::HostStaged:
      return "host-staged";
    case Transport::CudaAwareMpi:
      return "mpi-cuda-aware";
  }
  return "gpu-direct";
}

std::optional<Transport> transport_from_name(std::string_view name) {
  for (const auto t : {Transport::GpuDirect, Transport::HostStaged, Transport::CudaAwareMpi}) {
    if (transport_name(t) == name) return t;
  }
  return std::nullopt;
}

std::optional<Exchange> exchange_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kExchanges; ++i) {
    if (kExchangeNames[i] == name) return static_cast<Exchange>(i);
  }
  return std::nullopt;
}

}  // namespace paradise::implementation
