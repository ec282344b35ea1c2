// The built-in implementation profiles (docs/implementations.md gives each rule's source).
#include "paradise/implementation/catalog.hpp"

#include <initializer_list>
#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"

namespace paradise::implementation {
namespace {

constexpr double kUs = 1e-6;

ExchangeRule direct(bool overlapped) {
  return {.transport = Transport::GpuDirect, .overlapped = overlapped, .overhead_s = 0};
}
ExchangeRule staged(double overhead_s) {
  return {.transport = Transport::HostStaged, .overlapped = false, .overhead_s = overhead_s};
}

// PyTorch DDP and NCCL (kPytorchNccl); per-layer collectives and halos block.
Implementation pytorch_nccl() {
  return {std::string(kDefaultName),
          "PyTorch + NCCL: GPU-direct collectives, DDP's overlapped gradient buckets",
          kPytorchNccl};
}

// Horovod over NCCL, as NVIDIA's TensorFlow and MXNet examples train (their READMEs' feature
// tables): gradients fused and allreduced GPU-direct while the backward pass runs, like DDP's
// buckets; every other exchange as the default's. Only the framework's time per step differs.
// Horovod's cycle time and fusion buffer are not modelled (docs/implementations.md, built-in
// profiles).
Implementation horovod(std::string name, std::string description, double step_overhead_s) {
  Implementation i{std::move(name), std::move(description), kPytorchNccl};
  i.profile.step_overhead_s = step_overhead_s;
  return i;
}

// Every exchange through MPI on host buffers, blocking (no CUDA-aware MPI): the
// per-call overhead is a device synchronisation and two cudaMemcpy calls around the MPI
// call (about 10 us each for small pageable copies; docs/implementations.md).
Implementation mpi_host_staged() {
  Implementation i{"mpi-host-staged",
                   "MPI on host buffers: every exchange staged through the host, blocking",
                   {}};
  for (auto& r : i.profile.exchanges) r = staged(30 * kUs);
  // the training loop is not the transport's: PyTorch's, as the default's
  i.profile.step_overhead_s = kPytorchStepOverhead_s;
  return i;
}

// Strategy bits of the managed_memory list.
std::uint16_t strategies(std::initializer_list<std::string_view> names) {
  std::uint16_t bits = 0;
  for (const auto n : names) {
    for (std::size_t k = 0; k < kStrategyNames.size(); ++k) {
      if (kStrategyNames[k] == n) bits = static_cast<std::uint16_t>(bits | 1U << k);
    }
  }
  return bits;
}

// ParaDL's Chainer/ChainerMNX code as it ran for the paper (docs/implementations.md
// §chainermnx): per-layer exchanges by ChainerMN's MPI calls on device pointers (CUDA-aware
// Open MPI 2.1 over openib), each after a pickled metadata message on the host and a wait
// for the default stream, blocking; gradients by one packed NCCL allreduce, not overlapped;
// managed memory in the spatial and hybrid scripts; each batch loaded by one rank and
// broadcast as host arrays.
Implementation chainermnx() {
  Implementation i{"chainermnx",
                   "ParaDL's Chainer 7 + ChainerMN/ChainerMNX implementation (its public code)",
                   {}};
  i.profile.rule(Exchange::Gradient) = direct(false);
  for (const auto e : {Exchange::Layer, Exchange::Halo, Exchange::Gather, Exchange::Pipeline})
    i.profile.rule(e) = {
        .transport = Transport::CudaAwareMpi, .overlapped = false, .overhead_s = 30 * kUs};
  i.profile.managed_memory = strategies({"spatial", "data+spatial", "data+filter"});
  i.profile.input_broadcast = true;
  // not read from its code (the study's compute is a measured time per sample, which holds
  // it): PyTorch's, another define-by-run Python training loop
  i.profile.step_overhead_s = kPytorchStepOverhead_s;
  return i;
}

}  // namespace

const std::vector<Implementation>& builtin_implementations() {
  static const std::vector<Implementation> all{
      pytorch_nccl(),
      horovod("tensorflow-horovod",
              "TensorFlow + Horovod over NCCL: gradients allreduced during the backward pass",
              kTensorflowStepOverhead_s),
      horovod("mxnet-horovod",
              "MXNet + Horovod over NCCL: gradients allreduced during the backward pass",
              kMxnetStepOverhead_s),
      chainermnx(), mpi_host_staged()};
  return all;
}

std::string builtin_implementation_names() {
  std::string names;
  for (const auto& i : builtin_implementations()) names += (names.empty() ? "" : ", ") + i.name;
  return names;
}

Implementation find_implementation(std::string_view name_or_path) {
  for (const auto& i : builtin_implementations()) {
    if (i.name == name_or_path) return i;
  }
  const std::string path(name_or_path);
  if (const auto text = read_definition_file(path, "implementation file", ".impl")) {
    std::istringstream in(*text);
    return parse_implementation_file(in, path);
  }
  throw InputError("unknown implementation '" + path +
                   "'; built-in: " + builtin_implementation_names() + " (or a *.impl file)");
}

}  // namespace paradise::implementation
