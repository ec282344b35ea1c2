#!/usr/bin/python3
"""PyTorch's training-step peak for tests/data/liveness.model: an oracle of the
activation-gradient replay (src/model/autograd_liveness.cpp) on a graph with skips and a
concat but without convolutions, whose CPU kernels allocate copies the replay leaves to the
workspace. The peak per sample is measured as torch_counts.py does (training_peak_per_sample).

Run:  /usr/bin/python3 analysis/reference/torch_liveness.py > tests/data/torch_liveness.json
(Debian 12: python3-torch 1.13; CPU only, seconds.)
"""
import json
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from torch_counts import saved_bytes, training_peak_per_sample  # noqa: E402


class Liveness(nn.Module):
    """tests/data/liveness.model, layer for layer (relu: a copy, not in place)."""

    def __init__(self, c=8):
        super().__init__()
        self.b0, self.b2, self.b5 = nn.BatchNorm2d(c), nn.BatchNorm2d(c), nn.BatchNorm2d(2 * c)

    def forward(self, x):
        b0 = self.b0(x)
        s3 = self.b2(F.relu(b0)) + b0
        return self.b5(torch.cat([F.relu(s3), b0], 1))


def main():
    torch.set_num_threads(1)
    shape, batch = (8, 32, 32), 2
    torch.manual_seed(0)
    per_sample, _ = saved_bytes(Liveness(), torch.randn((batch,) + shape), True)
    peaks = training_peak_per_sample(Liveness, shape, batch, True)
    json.dump({"torch_version": torch.__version__, "model": "liveness.model", "input": "8x32x32",
               "batch": batch, "saved_bytes_per_sample": per_sample, **peaks}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
