// The built-in GPUs: datasheet peaks and capacities, measured bandwidth shares, driver
// reservations and launch costs, and e_max fitted to published single-GPU training
// throughput (docs/gpu-profiles.md).
#pragma once

#include "paradise/system/system.hpp"

namespace paradise::system::gpus {

Gpu v100_sxm2_16gb();
Gpu a100_sxm4_80gb();
Gpu h100_sxm5_80gb();
Gpu h200_sxm5_141gb();

}  // namespace paradise::system::gpus
