#!/usr/bin/python3
"""What `tools/fit-gpu-profiles --check` refuses (its drifts()): a built-in value more than one
grid step from the fitted one, an e_max at 0.002 and a step overhead at 100 us, the grids of
docs/gpu-profiles.md. The values here are made up; the check's run on the real data is
ctest e2e.gpu_profiles_are_fitted."""
import os
import unittest
from importlib.machinery import SourceFileLoader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fit = SourceFileLoader("fit_gpu_profiles",
                       os.path.join(ROOT, "tools", "fit-gpu-profiles")).load_module()

KEY = ("dgx1-v100", "conv2d", "fp32")


def stage(e_max):
    return [{"system": KEY[0], "class": KEY[1], "precision": KEY[2], "e_max": e_max}]


def overhead(us):
    return {"pytorch-nccl": {"step_overhead_us": us}}


class Drifts(unittest.TestCase):
    def test_values_within_one_grid_step_pass(self):
        # 0.960 built in, fitted one step (0.002) either side; 14,700 us built in, fitted 14,800
        for e_max in (0.958, 0.960, 0.962):
            self.assertEqual(fit.drifts(stage(e_max), overhead(14800), {KEY: 0.960},
                                        {"pytorch-nccl": 14700}), [])

    def test_an_e_max_two_steps_away_is_named(self):
        out = fit.drifts(stage(0.964), overhead(14700), {KEY: 0.960}, {"pytorch-nccl": 14700})
        self.assertEqual(out, ["dgx1-v100 conv2d fp32: built in 0.96, fitted 0.964"])

    def test_a_step_overhead_two_steps_away_is_named(self):
        out = fit.drifts(stage(0.960), overhead(14900), {KEY: 0.960}, {"pytorch-nccl": 14700})
        self.assertEqual(out, ["pytorch-nccl step overhead: built in 14700 us, fitted 14900 us"])


if __name__ == "__main__":
    unittest.main()
