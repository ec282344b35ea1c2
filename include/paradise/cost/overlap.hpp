// Communication overlapped with compute: gradient buckets reduced one after another while
// the backward pass produces them (cost-model-notes §3; PyTorch DDP's buckets).
#pragma once

#include <cstdint>

namespace paradise::cost {

/// When the last of k buckets, ready one by one at forward_s + j backward_s / k (j = 1..k)
/// and each taking bucket_s on one link in turn, has been exchanged. Lindley's recursion
/// finish_j = max(finish_{j-1}, ready_j) + bucket_s unrolled: the maximum over i of
/// ready_i + (k - i + 1) bucket_s, linear in i, so at i = 1 or i = k (no loop over k).
double bucketed_finish_s(double forward_s, double backward_s, double k, double bucket_s);

}  // namespace paradise::cost
