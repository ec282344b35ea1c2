// Communication overlapped with compute: gradient buckets reduced one after another while
// the backward pass produces them (docs/cost-model.md §overlap; PyTorch DDP's buckets).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace paradise::cost {

/// When a layer's weight gradients are ready in the backward pass (last layer first): the
/// share of the backward pass done by then, and the layer's share of all the weights.
struct GradientReady {
  double backward_done = 0, weight_share = 0;
};

struct BucketedExchange {
  double finish_s = 0, total_s = 0;  ///< when the last bucket is exchanged; all exchanges
  std::string_view label;            ///< the last bucket's algorithm
};

/// Barrachina et al.'s per-layer overlap (docs/cost-model.md §overlap) with PyTorch DDP's buckets:
/// the layers' gradients, last layer first, fill a bucket up to bucket_bytes (a layer's
/// whole, never split); a bucket is exchanged once its last layer's gradient is ready
/// (forward_s + backward_done x backward_s) and the previous bucket is done. `exchange(n)`
/// gives a bucket of n bytes its .seconds and .label. At most one bucket per layer.
template <class Exchange>
BucketedExchange per_layer_buckets(std::span<const GradientReady> ready, double gradient_bytes,
                                   double bucket_bytes, double forward_s, double backward_s,
                                   const Exchange& exchange) {
  BucketedExchange out;
  double bucket = 0;
  for (std::size_t i = 0; i < ready.size(); ++i) {
    bucket += ready[i].weight_share * gradient_bytes;
    if (bucket < bucket_bytes && i + 1 < ready.size()) continue;
    const auto x = exchange(bucket);
    out.finish_s =
        std::max(out.finish_s, forward_s + ready[i].backward_done * backward_s) + x.seconds;
    out.total_s += x.seconds;
    out.label = x.label;
    bucket = 0;
  }
  return out;
}

/// When the last of k buckets, ready one by one at forward_s + j backward_s / k (j = 1..k)
/// and each taking bucket_s on one link in turn, has been exchanged. Lindley's recursion
/// finish_j = max(finish_{j-1}, ready_j) + bucket_s unrolled: the maximum over i of
/// ready_i + (k - i + 1) bucket_s, linear in i, so at i = 1 or i = k (no loop over k).
double bucketed_finish_s(double forward_s, double backward_s, double k, double bucket_s);

}  // namespace paradise::cost
