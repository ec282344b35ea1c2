#!/usr/bin/python3
"""Tests of the analysis/ commands: each runs on small sweep outputs written by the real
binary (maps.ini, full.ini, resolution.ini here); the images must be real PNG/PDF files of
a useful size, and the values drawn (read back from the figure through --data) must equal
the values computed here, independently, from the HDF5 file with h5py and numpy.

    analysis_test.py --paradise BUILD/src/app/paradise [unittest arguments, e.g. ParetoPlot]
"""
import csv
import hashlib
import io
import json
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time
import unittest
from unittest import mock

import h5py
import numpy as np

from harness import Scratch

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "analysis")
SCRATCH = Scratch("paradise-analysis-")
PARADISE = ""  # set by setUpModule from SCRATCH
WORK = ""
FILES = {}  # sweep name -> HDF5 path

OK, OUT_OF_MEMORY, INVALID = 0, 1, 2  # the `status` flag values (flag_meanings attribute)


def setUpModule():
    global PARADISE, WORK
    SCRATCH.open()
    PARADISE, WORK = SCRATCH.paradise, SCRATCH.work
    for name in ("maps", "full", "resolution"):
        FILES[name] = os.path.join(WORK, name + ".h5")
        subprocess.run([PARADISE, "sweep", os.path.join(HERE, name + ".ini"), "-o", FILES[name],
                        "--quiet"], check=True, stdout=subprocess.DEVNULL)


def tearDownModule():
    SCRATCH.close()


def summary_file(reduce):
    """A storage = summary file whose maps are reduced over `reduce`, written on first use.

    2 models x 1 dataset x 1 system x 3 strategies x 5 GPU counts x 2 batches = 60 points."""
    name = f"summary_{reduce}"
    if name not in FILES:
        ini, FILES[name] = os.path.join(WORK, name + ".ini"), os.path.join(WORK, name + ".h5")
        with open(ini, "w", encoding="utf-8") as f:
            f.write("[sweep]\nmodel = resnet50, vgg16\ndataset = imagenet\nsystem = dgx-a100\n"
                    "strategy = data, filter, data+filter\ngpus = 1..16 *2\nbatch = 64, 256\n"
                    f"[output]\nstorage = summary\nreduce = {reduce}\n")
        subprocess.run([PARADISE, "sweep", ini, "-o", FILES[name], "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
    return FILES[name]


def sweep_of(name, text):
    """A sweep file of `text` written and run in the scratch directory; its HDF5 path, also
    FILES[name] (for plot())."""
    ini, path = os.path.join(WORK, name + ".ini"), os.path.join(WORK, name + ".h5")
    with open(ini, "w", encoding="utf-8") as f:
        f.write(text)
    subprocess.run([PARADISE, "sweep", ini, "-o", path, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    FILES[name] = path
    return path


def copy_of(sweep, name):
    """A scratch copy of a sweep file, to damage."""
    out = os.path.join(WORK, name)
    shutil.copyfile(FILES[sweep], out)
    return out


def pareto_rows(f):
    """The pareto group as {column: numpy array} with text columns decoded."""
    return {k: np.array([v.decode() for v in d[()]]) if d.dtype.kind in "OS" else d[()]
            for k, d in f["pareto"].items() if k != "point"}


def run(script, *args, **kwargs):
    """Runs an analysis command in the scratch directory (kwargs: subprocess.run's, e.g. env)."""
    options = {"capture_output": True, "text": True, "cwd": WORK, "timeout": 120, **kwargs}
    if "stdout" in kwargs:  # a given stdout (/dev/full) and capture_output exclude each other
        options.pop("capture_output")
        options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, os.path.join(ANALYSIS, script), *args], **options)


def plot(script, sweep, name, *args):
    """Runs a plot command with PNG, PDF and sidecar output; returns (png path, sidecar)."""
    png, data = os.path.join(WORK, name + ".png"), os.path.join(WORK, name + ".json")
    r = run(script, FILES[sweep], "-o", png, "--pdf", "--data", data, *args)
    if r.returncode != 0:
        raise AssertionError(f"{script} failed ({r.returncode}): {r.stderr}")
    with open(data, encoding="utf-8") as f:
        return png, json.load(f)


def png_size(path):
    """(width, height) from the PNG signature and IHDR chunk."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def axis_labels(f, name):
    """The coordinate values of an axis as Python values (text axes decoded)."""
    values = f[name][()]
    return [v.decode() if isinstance(v, bytes) else int(v) for v in values]


def dims_of(dataset):
    """Dimension names of a variable, from its HDF5 dimension scales."""
    return [d[0].name.rsplit("/", 1)[-1] for d in dataset.dims]


def by_label(items, label):
    found = [x for x in items if x["label"] == label]
    assert len(found) == 1, f"expected one artist labelled {label!r}, found {len(found)}"
    return found[0]


def nulls(a):
    """A float array with None where it is NaN, as the sidecar writes it."""
    return [None if np.isnan(v) else float(v) for v in a]


class PlotFileChecks(unittest.TestCase):
    def assert_real_figure(self, png, data, min_width=1000, min_height=700):
        w, h = png_size(png)
        self.assertGreaterEqual(w, min_width)  # figure size × 150 dpi, every command
        self.assertGreaterEqual(h, min_height)
        self.assertGreater(os.path.getsize(png), 20_000)  # a drawn plot, not an empty canvas
        pdf = os.path.splitext(png)[0] + ".pdf"
        with open(pdf, "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        self.assertGreater(os.path.getsize(pdf), 5_000)
        self.assertTrue(data["title"] or all(a["title"] for a in data["axes"]))
        self.assertTrue(data["titles_inside"])  # wrapped to the figure, not cut off
        # every legend's drawn extent within the figure's (a one-panel Pareto plot's legend
        # ran past both sides and the bottom)
        self.assertTrue(data["legends_inside"])
        for a in data["axes"]:
            self.assertIn("(", a["xlabel"] + a["ylabel"])  # a unit in parentheses
            self.assertTrue(a["xlabel"] and a["ylabel"])
        self.assertTrue(data["legend"] or all(a["legend"] for a in data["axes"]))

    def assertSeriesEqual(self, got, expected):
        self.assertEqual(len(got), len(expected))
        for g, e in zip(got, expected):
            if e is None:
                self.assertIsNone(g)
            else:
                self.assertAlmostEqual(g, e, delta=1e-9 * abs(e))


def fastest_per_strategy_and_gpus(f, model, dataset):
    """{strategy: (gpus, seconds)}: least feasible epoch over every other axis (brute force)."""
    epoch, status = f["epoch_time_s"], f["status"]
    dims = dims_of(epoch)
    m, d = axis_labels(f, "model").index(model), axis_labels(f, "dataset").index(dataset)
    t = np.where(status[()] == OK, epoch[()], np.inf)
    t = np.moveaxis(t, [dims.index(a) for a in ("model", "dataset", "strategy", "gpus")],
                    [0, 1, 2, 3])[m, d]
    out = {}
    for k, s in enumerate(axis_labels(f, "strategy")):
        gpus, best = [], []
        for j, g in enumerate(axis_labels(f, "gpus")):
            v = t[k, j].min()
            if np.isfinite(v):
                gpus.append(g)
                best.append(v)
        if gpus:
            out[s] = (gpus, best)
    return out


def non_dominated(points):
    """Points no other point beats in both coordinates (brute force), sorted by x."""
    pts = set(points)
    keep = [p for p in pts if not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts)]
    return sorted(keep)


class ParetoPlot(PlotFileChecks):
    def test_full_file_lines_are_each_strategys_fastest_feasible_epoch_per_gpu_count(self):
        png, data = plot("pareto.py", "full", "pareto-full")
        self.assert_real_figure(png, data)
        with h5py.File(FILES["full"]) as f:
            for model in axis_labels(f, "model"):
                # full.ini: every model on imagenet only; the panel title is "model · dataset"
                expected = fastest_per_strategy_and_gpus(f, model, "imagenet")
                ax = next(a for a in data["axes"] if a["title"] == f"{model} · imagenet")
                drawn = [ln for ln in ax["lines"] if ln["label"] != "Pareto front"]
                self.assertEqual(sorted(ln["label"] for ln in drawn), sorted(expected))
                for s, (gpus, seconds) in expected.items():
                    line = by_label(drawn, s)
                    self.assertEqual(line["x"], gpus)
                    self.assertSeriesEqual(line["y"], seconds)
                front = non_dominated([(g, t) for gs, ts in expected.values()
                                       for g, t in zip(gs, ts)])
                line = by_label(ax["lines"], "Pareto front")
                self.assertEqual(line["x"], [g for g, _ in front])
                self.assertSeriesEqual(line["y"], [t for _, t in front])

    def test_a_time_to_train_front_draws_the_time_to_train(self):
        # [pareto] objectives = time_to_train, gpus with storage = summary: no epoch times; the
        # line is the pareto group's least time to train at each GPU count (docs/time-to-train.md)
        sweep_of("to_train_plot", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                 "system = dgx-a100\nstrategy = data\ngpus = 64, 256, 1024\n"
                 "batch = 1024, 8192, 65536\n[output]\nstorage = summary\n[pareto]\n"
                 "objectives = time_to_train, gpus\n")
        png, data = plot("pareto.py", "to_train_plot", "pareto-to-train")
        self.assert_real_figure(png, data, min_width=800)  # one panel: 6 inches
        (ax,) = data["axes"]
        self.assertIn("time to train", ax["ylabel"])
        self.assertIn("Time to train vs. number of GPUs", data["title"])
        with h5py.File(FILES["to_train_plot"]) as f:
            p = pareto_rows(f)
        gpus = sorted(set(int(g) for g in p["gpus"]))
        least = [min(t for g2, t in zip(p["gpus"], p["time_to_train_s"]) if int(g2) == g)
                 for g in gpus]
        line = by_label(ax["lines"], "data")
        self.assertEqual(line["x"], gpus)
        self.assertSeriesEqual(line["y"], least)

    def test_gpu_hours_axis_is_gpus_times_epoch_seconds_over_3600(self):
        _, data = plot("pareto.py", "full", "pareto-hours", "--x", "gpu_hours",
                       "--model", "vgg16")
        with h5py.File(FILES["full"]) as f:
            expected = fastest_per_strategy_and_gpus(f, "vgg16", "imagenet")
        (ax,) = data["axes"]  # one model, one dataset: one panel
        # the two-line title is wrapped to the one panel's width (it was cut off at both
        # sides); the sidecar keeps it unwrapped
        self.assertTrue(data["titles_inside"])
        # full.ini has one system (dgx-a100): the title names it as fixed
        self.assertIn("Pareto fronts (sweep full.ini, storage = full)\nat dgx-a100; per strategy:",
                      data["title"])
        self.assertIn("GPU-hours", ax["xlabel"])
        for s, (gpus, seconds) in expected.items():
            # GPU-hours per epoch = GPUs × epoch seconds / 3600 (paradise's gpu_hours objective)
            self.assertSeriesEqual(by_label(ax["lines"], s)["x"],
                                   [g * t / 3600 for g, t in zip(gpus, seconds)])

    def assert_lines_are_the_pareto_groups_points(self, path, data):
        with h5py.File(path) as f:
            rows = pareto_rows(f)
            model, strategy = rows["model"], rows["strategy"]
            gpus, seconds = rows["gpus"], rows["epoch_time_s"]
            for m in axis_labels(f, "model"):
                ax = next(a for a in data["axes"] if a["title"] == f"{m} · imagenet")
                for s in sorted(set(strategy[model == m])):
                    mine = (model == m) & (strategy == s)
                    xs = sorted(set(gpus[mine].tolist()))
                    line = by_label(ax["lines"], s)
                    self.assertEqual(line["x"], xs)
                    self.assertSeriesEqual(line["y"],
                                           [seconds[mine & (gpus == g)].min() for g in xs])

    def test_maps_file_draws_the_pareto_groups_points(self):
        png, data = plot("pareto.py", "maps", "pareto-maps")
        self.assert_real_figure(png, data)
        self.assert_lines_are_the_pareto_groups_points(FILES["maps"], data)

    def test_summary_file_reduced_over_gpus_or_model_draws_the_pareto_groups_points(self):
        # a map without gpus has no line per GPU count, one without model no panel per model:
        # the pareto group has every axis whatever the reduce
        for reduce in ("gpus", "model"):
            with self.subTest(reduce=reduce):
                summary_file(reduce)
                png, data = plot("pareto.py", f"summary_{reduce}", f"pareto-{reduce}")
                self.assertIn("from the pareto group", data["title"])
                self.assert_lines_are_the_pareto_groups_points(FILES[f"summary_{reduce}"], data)

    def test_summary_file_reduced_over_batch_draws_its_map_best_over_batch(self):
        summary_file("batch")
        _, data = plot("pareto.py", "summary_batch", "pareto-batch")
        # summary_file: one system (dgx-a100), named as fixed; two batches, the best over them
        self.assertIn("at dgx-a100; per strategy: shortest feasible epoch over batch; from the "
                      "epoch map", data["title"])
        with h5py.File(FILES["summary_batch"]) as f:
            # min_epoch_time_s: model, dataset, system, strategy, gpus (batch reduced)
            self.assertEqual(dims_of(f["min_epoch_time_s"]),
                             ["model", "dataset", "system", "strategy", "gpus"])
            t = np.where(f["best_status"][()] == OK, f["min_epoch_time_s"][()], np.nan)
            for m, model in enumerate(axis_labels(f, "model")):
                ax = next(a for a in data["axes"] if a["title"] == f"{model} · imagenet")
                for k, s in enumerate(axis_labels(f, "strategy")):
                    ok = np.isfinite(t[m, 0, 0, k])
                    if ok.any():
                        line = by_label(ax["lines"], s)
                        self.assertEqual(line["x"], np.array(axis_labels(f, "gpus"))[ok].tolist())
                        self.assertSeriesEqual(line["y"], t[m, 0, 0, k][ok].tolist())


    def test_precision_axis_gets_a_panel_per_precision(self):
        # a sweep over precision (paradise variant): one panel per model x dataset x
        # precision, as the file's own Pareto groups (mixed is the fastest everywhere and
        # would hide fp32 in one front); each line is that precision's fastest epoch per GPU
        # count over system and batch (brute force over the full map)
        path = sweep_of("precision", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = dgx-a100\nstrategy = data, data+filter\n"
                        "precision = fp32, mixed\ngpus = 1..16 *2\nbatch = 64, 256\n"
                        "[output]\nstorage = full\n")
        _, data = plot("pareto.py", "precision", "pareto-precision")
        with h5py.File(path) as f:
            self.assertEqual(dims_of(f["epoch_time_s"]), ["model", "dataset", "system", "strategy",
                                                          "precision", "gpus", "batch"])
            t = np.where(f["status"][()] == OK, f["epoch_time_s"][()], np.inf)[0, 0, 0]
            gpus = axis_labels(f, "gpus")
            for q, precision in enumerate(axis_labels(f, "precision")):
                ax = next(a for a in data["axes"] if a["title"] == f"resnet50 · imagenet · {precision}")
                for k, s in enumerate(axis_labels(f, "strategy")):
                    best = t[k, q].min(axis=1)  # over batch
                    line = by_label(ax["lines"], s)
                    self.assertEqual(line["x"], [g for g, b in zip(gpus, best) if np.isfinite(b)])
                    self.assertSeriesEqual(line["y"], [b for b in best if np.isfinite(b)])
        self.assertEqual(len(data["axes"]), 2)
        _, mixed = plot("pareto.py", "precision", "pareto-mixed", "--precision", "mixed")
        self.assertEqual([a["title"] for a in mixed["axes"]], ["resnet50 · imagenet · mixed"])

    def test_strategies_without_a_point_are_named_in_the_panel_legend_and_on_stderr(self):
        # a maps file draws from the pareto group, which holds only the fronts' points: the
        # strategies of the file's axis with no row for the panel's model were left out
        # without a word
        png = os.path.join(WORK, "pareto-absent.png")
        data = os.path.join(WORK, "pareto-absent.json")
        r = run("pareto.py", FILES["maps"], "-o", png, "--data", data)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(data, encoding="utf-8") as f:
            data = json.load(f)
        with h5py.File(FILES["maps"]) as f:
            strategies = set(axis_labels(f, "strategy"))
            rows = pareto_rows(f)
            models = axis_labels(f, "model")
        absent_somewhere = set()
        for m in models:
            # maps.ini: one dataset (imagenet); the strategies with a pareto row for m
            on_front = set(rows["strategy"][rows["model"] == m].tolist())
            absent = strategies - on_front
            absent_somewhere |= absent
            ax = next(a for a in data["axes"] if a["title"] == f"{m} · imagenet")
            drawn = {ln["label"] for ln in ax["lines"]} - {"Pareto front"}
            self.assertEqual(drawn, on_front)
            named = set()
            for text in ax["texts"]:
                if text.startswith("not drawn: "):
                    named |= set(text.split("\n")[0][len("not drawn: "):].split(", "))
            self.assertEqual(named, absent)
            self.assertEqual(drawn | named, strategies)  # every strategy shown or said
            for s in absent:
                self.assertRegex(r.stderr, rf"note: .*strategy {re.escape(s)} is not drawn in "
                                           rf"[^\n]*{m} · imagenet")
        self.assertTrue(absent_somewhere)  # maps.ini: alexnet's fronts lack data+filter
        # the legend lists every strategy of the axis (and the front)
        for s in strategies:
            self.assertTrue(any(t == s or t.startswith(s + " (") for t in data["legend"]), s)

    def test_one_panel_legend_of_many_strategies_lies_inside_the_figure(self):
        # one panel 6 inches wide: 8 strategies and the front in 7 columns ran past both sides
        strategies = ["serial", "data", "filter", "channel", "pipeline", "data+filter",
                      "data+pipeline", "daso"]
        sweep_of("many", "[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\n"
                 f"strategy = {', '.join(strategies)}\ngpus = 1..16 *2\nbatch = 256\n"
                 "[output]\nstorage = full\n")
        png, data = plot("pareto.py", "many", "pareto-many")
        self.assertEqual(len(data["axes"]), 1)
        self.assertTrue(data["legends_inside"])
        self.assertEqual(sorted(t.split(" (")[0] for t in data["legend"]),
                         sorted(strategies + ["Pareto front"]))
        # the figure's size is the one-panel grid's (6 x 5 inches at 150 dpi): nothing was
        # made to fit by growing the figure
        self.assertEqual(png_size(png), (900, 750))

    def test_title_names_the_axes_held_at_one_value(self):
        # maps.ini sweeps two systems: with --system dgx-a100 the lines are its alone and the
        # title says so; with both they are the best over both systems, as the title says
        # (abci has no point on the fronts: choosing it alone is refused as before)
        _, one = plot("pareto.py", "maps", "pareto-dgx", "--system", "dgx-a100")
        self.assertIn("at dgx-a100; per strategy: shortest feasible epoch over batch;",
                      one["title"])
        _, both = plot("pareto.py", "maps", "pareto-both", "--system", "abci,dgx-a100")
        self.assertIn("per strategy: shortest feasible epoch over system, batch;",
                      both["title"])
        self.assertNotIn("at dgx-a100", both["title"])
        # several chosen systems are honoured: the lines are the pareto group's best over
        # both, as for the whole file (maps.ini has exactly these two)
        self.assert_lines_are_the_pareto_groups_points(FILES["maps"], both)
        with h5py.File(FILES["maps"]) as f:
            rows = pareto_rows(f)
        mine = rows["system"] == "dgx-a100"
        self.assertTrue(one["axes"])
        for ax in one["axes"]:
            model = ax["title"].split(" · ")[0]
            for ln in ax["lines"]:
                if ln["label"] != "Pareto front":
                    at = mine & (rows["model"] == model) & (rows["strategy"] == ln["label"])
                    self.assertEqual(ln["x"], sorted(set(rows["gpus"][at].tolist())))


class MemoryMap(PlotFileChecks):
    def test_cells_are_memory_in_gb_crosses_are_out_of_memory_and_invalid_cells_blank(self):
        png, data = plot("memory_map.py", "maps", "memory-map", "--model", "alexnet",
                         "--system", "abci")
        self.assert_real_figure(png, data)
        # ABCI's V100 has 16 GB and no margin (ParaDL's model, as src/system/catalog.cpp;
        # the sweep's `systems` group records them); the contour must be the limit behind the status: every
        # ok point of the system at or below it, every out-of-memory point above it (with the
        # DGX systems' 5% it was drawn at 15.2 GB, under ok points of 15.8 GB)
        usable = data["notes"]["usable_memory_gb"]
        self.assertAlmostEqual(usable, 16)
        # --device-memory-gb keeps the system's margin (it took 0.05 for every system)
        _, given = plot("memory_map.py", "maps", "memory-map-gb", "--model", "alexnet",
                        "--system", "abci", "--device-memory-gb", "16")
        self.assertAlmostEqual(given["notes"]["usable_memory_gb"], 16)
        with h5py.File(FILES["maps"]) as f:
            s = axis_labels(f, "system").index("abci")
            status, memory = f["status"][:, :, s], f["memory_per_gpu_bytes"][:, :, s] / 1e9
            self.assertTrue((status == OUT_OF_MEMORY).any() and (status == OK).any())
            self.assertLessEqual(memory[status == OK].max(), usable)
            self.assertGreater(memory[status == OUT_OF_MEMORY].min(), usable)
        with h5py.File(FILES["maps"]) as f:
            dims = dims_of(f["status"])
            self.assertEqual(dims, ["model", "dataset", "system", "strategy", "gpus", "batch"])
            m, s = axis_labels(f, "model").index("alexnet"), axis_labels(f, "system").index("abci")
            status = f["status"][m, 0, s]  # dataset 0: imagenet, maps.ini's only dataset
            memory = f["memory_per_gpu_bytes"][m, 0, s]
            self.assertEqual(data["notes"]["row_values"], axis_labels(f, "batch"))
            for k, strategy in enumerate(axis_labels(f, "strategy")):
                ax = next(a for a in data["axes"] if a["title"] == strategy)
                expected = np.where(status[k] == INVALID, np.nan, memory[k] / 1e9).T
                for row, want in zip(ax["images"][0]["array"], expected):
                    self.assertSeriesEqual(row, nulls(want))
                crosses = by_label(ax["lines"], "out of memory")
                rows, cols = np.nonzero(status[k].T == OUT_OF_MEMORY)
                self.assertEqual(sorted(zip(crosses["x"], crosses["y"])),
                                 sorted(zip(cols.tolist(), rows.tolist())))

    def test_boundary_line_only_in_panels_the_usable_memory_crosses(self):
        # matplotlib draws a contour whose level is outside the data at the data's minimum:
        # a panel where every point fits showed a red "usable device memory" line through
        # cells of 1 GB. On ABCI's 16 GB (maps.ini, 1..32 GPUs, batch 32..256) every
        # alexnet point fits (0.4..3.3 GB) and every resnet50 panel has points above and
        # below; the line is drawn exactly where some finite cell is above and some below
        kinds = set()
        for model in ("alexnet", "resnet50"):
            _, data = plot("memory_map.py", "maps", f"memory-map-line-{model}", "--model", model,
                           "--system", "abci")
            usable = data["notes"]["usable_memory_gb"]
            for ax in data["axes"]:
                cells = [v for row in ax["images"][0]["array"] for v in row if v is not None]
                crosses = min(cells) < usable < max(cells)
                drawn = any(len(c) > 0 for c in ax["collections"])
                self.assertEqual(drawn, crosses, (model, ax["title"], min(cells), max(cells)))
                kinds.add(crosses)
        self.assertEqual(kinds, {False, True})  # both kinds of panel

    def test_resolution_rows_show_the_input_sides(self):
        _, data = plot("memory_map.py", "resolution", "memory-map-res", "--rows", "resolution",
                       "--batch", "16", "--device-memory-gb", "16")
        with h5py.File(FILES["resolution"]) as f:
            self.assertEqual(data["notes"]["row_values"], axis_labels(f, "resolution"))
            dims = dims_of(f["memory_per_gpu_bytes"])
            memory = np.moveaxis(f["memory_per_gpu_bytes"][()],
                                 [dims.index(a) for a in ("strategy", "resolution", "gpus")],
                                 [0, 1, 2])[:, :, :, 0, 0, 0, 1]  # model, dataset, system; batch 16
            status = np.moveaxis(f["status"][()],
                                 [dims.index(a) for a in ("strategy", "resolution", "gpus")],
                                 [0, 1, 2])[:, :, :, 0, 0, 0, 1]
        ax = next(a for a in data["axes"] if a["title"] == "spatial")
        # resolution.ini: strategy = data, spatial, data+spatial, so index 1 is spatial
        want = np.where(status[1] == INVALID, np.nan, memory[1] / 1e9)
        for row, expected in zip(ax["images"][0]["array"], want):
            self.assertSeriesEqual(row, nulls(expected))


class MemoryLimitPlot(PlotFileChecks):
    def test_curves_are_the_largest_feasible_side_with_nothing_fits_as_a_gap(self):
        png, data = plot("memory_limit.py", "resolution", "memory-limit", "--batch", "4")
        self.assert_real_figure(png, data, min_height=600)
        (ax,) = data["axes"]
        with h5py.File(FILES["resolution"]) as f:
            table = f["memlimit/largest_resolution"]
            self.assertEqual(dims_of(table),
                             ["model", "dataset", "system", "strategy", "gpus", "batch"])
            for k, s in enumerate(axis_labels(f, "strategy")):
                # one model, dataset, system in resolution.ini; batch = 4, 16: index 0 is 4
                side = table[0, 0, 0, k, :, 0].astype(float)
                line = by_label(ax["lines"], s)
                self.assertEqual(line["x"], axis_labels(f, "gpus"))
                self.assertEqual(line["y"], [None if v == 0 else v for v in side])  # 0: none fits
        # resolution.ini: data parallelism fits a larger cube on more GPUs (the batch splits)
        data_line = by_label(ax["lines"], "data")["y"]
        self.assertLess(data_line[0], data_line[1])

    def test_largest_batch_with_nothing_fitting_draws_gaps_on_a_linear_axis(self):
        # CosmoFlow at 1024^3 on a 16 GB V100: no batch fits (the log axis raised ValueError)
        h5f = sweep_of("nofit", "[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\n"
                       "resolution = 1024\nsystem = abci\nstrategy = data\ngpus = 1, 2\n"
                       "batch = 4\n[output]\nstorage = maps\n[memlimit]\nbatch = 1..64\n")
        with h5py.File(h5f) as f:
            self.assertEqual(list(f["memlimit/largest_batch"][...].ravel()), [0, 0])
        png, data = os.path.join(WORK, "nofit.png"), os.path.join(WORK, "nofit.json")
        r = run("memory_limit.py", h5f, "--limit", "largest_batch", "-o", png, "--data", data)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(data, encoding="utf-8") as f:
            (ax,) = json.load(f)["axes"]
        self.assertEqual([(l["label"], l["y"]) for l in ax["lines"]],
                         [("data (nothing fits)", [None, None])])


    def test_limits_at_the_top_of_their_search_are_drawn_as_lower_bounds(self):
        # CosmoFlow's cube, spatial on 1..64 ABCI GPUs at batch 1, searched up to 1,024: the
        # sweep flags the entries that reach 1,024 (memlimit/largest_resolution_at_search_end),
        # and exactly those are drawn with the arrow, whatever their strategy
        h5f = sweep_of("at-top", "[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\n"
                       "system = abci\nstrategy = data, spatial\ngpus = 1..64 *2\nbatch = 1\n"
                       "[output]\nstorage = maps\n[memlimit]\nbatch = none\n"
                       "resolution = 128..1024\n")
        with h5py.File(h5f) as f:
            sides = f["memlimit/largest_resolution"][...]
            top = f["memlimit/largest_resolution_at_search_end"][...]
            gpus = axis_labels(f, "gpus")
        self.assertEqual(((sides == 1024) == (top == 1)).all(), True)  # the range's last side
        flagged = [(float(gpus[g]), 1024.0) for g in range(len(gpus))
                   if top[0, 0, 0, 1, g, 0] == 1]  # strategy 1: spatial; data never reaches it
        self.assertGreater(len(flagged), 0)
        self.assertEqual(int(top[0, 0, 0, 0].sum()), 0)
        _, data = plot("memory_limit.py", "at-top", "at-top")
        (ax,) = data["axes"]
        bound = by_label(ax["lines"], "top of the search: a larger value may fit")
        self.assertEqual(list(zip(bound["x"], bound["y"])), flagged)
        self.assertIn("top of the search: a larger value may fit", ax["legend"])
        # without a flagged entry (resolution.ini's range) there is no such entry
        _, plain = plot("memory_limit.py", "resolution", "memory-limit-plain", "--batch", "4")
        self.assertNotIn("top of the search: a larger value may fit", plain["axes"][0]["legend"])

    def test_long_titles_of_one_panel_plots_are_wrapped_inside_the_figure(self):
        # a generic dataset's name (NAME:SAMPLES:SHAPE) made the one-panel plots' titles
        # wider than the figure: cut off at both sides (memory_limit.py, scaling.py and
        # breakdown.py; pareto.py's figure title likewise)
        path = sweep_of("long-title", "[sweep]\nmodel = cosmoflow\n"
                        "dataset = volumes:1000:4x128x128x128\nresolution = 128\n"
                        "system = dgx-a100\nstrategy = data, spatial\ngpus = 1..8 *2\n"
                        "batch = 8\nvariant = paradise\n[output]\nstorage = full\n"
                        "[memlimit]\nbatch = none\nresolution = 128..512 +8\n")
        # and a precision axis's " · fp32" (breakdown's and scaling's titles ran 2 characters
        # past the edge, pareto's panel titles into each other: the figure's width, not the
        # panel's, was the measure)
        sweep_of(
            "long-precision", "[sweep]\nmodel = resnet50, vgg16\ndataset = imagenet\n"
            "system = dgx-a100\nstrategy = data, filter, data+filter\n"
            "precision = fp32, mixed, tf32\noptimizer = adam\nzero = 1\ngpus = 1, 4, 16\n"
            "batch = 64, 256\n[output]\nstorage = full\n")
        for script, sweep, args in (("memory_limit.py", "long-title", ()),
                                    ("scaling.py", "long-title", ()),
                                    ("breakdown.py", "long-title", ("--gpus", "1,2,4,8")),
                                    ("pareto.py", "long-title", ()),
                                    ("breakdown.py", "long-precision", ()),
                                    ("scaling.py", "long-precision", ()),
                                    ("pareto.py", "long-precision", ()),
                                    ("memory_map.py", "long-precision", ())):
            with self.subTest(script=script, sweep=sweep):
                _, data = plot(script, sweep, "long-" + script[:-3], *args)
                if sweep == "long-precision":
                    self.assertTrue(data["titles_inside"])
                    continue
                titles = " ".join([data["title"]] + [a["title"] for a in data["axes"]])
                self.assertIn("volumes:1000:4x128x128x128", titles.replace("\n", " "))
                self.assertTrue(data["titles_inside"])


class BreakdownBars(PlotFileChecks):
    def test_bars_stack_communication_on_compute_for_feasible_configurations_only(self):
        png, data = plot("breakdown.py", "full", "breakdown", "--model", "vgg16",
                         "--batch", "256")
        self.assert_real_figure(png, data, min_height=600)
        (ax,) = data["axes"]
        with h5py.File(FILES["full"]) as f:
            m, b = axis_labels(f, "model").index("vgg16"), axis_labels(f, "batch").index(256)
            # full.ini has one dataset (imagenet) and one system (dgx-a100): index 0
            status = f["status"][m, 0, 0, :, :, b]  # strategy × gpus
            compute = f["compute_time_s"][m, 0, 0, :, :, b]
            comm = f["communication_time_s"][m, 0, 0, :, :, b]
            epoch = f["epoch_time_s"][m, 0, 0, :, :, b]
            for k, s in enumerate(axis_labels(f, "strategy")):
                ok = np.flatnonzero(status[k] == OK)
                low, high = by_label(ax["bars"], f"{s} compute"), \
                    by_label(ax["bars"], f"{s} communication")
                self.assertEqual([round(x) for x in low["x"]], ok.tolist())  # group = GPU index
                self.assertSeriesEqual(low["height"], compute[k, ok].tolist())
                self.assertSeriesEqual(high["bottom"], compute[k, ok].tolist())
                self.assertSeriesEqual(high["height"], comm[k, ok].tolist())
                # the epoch tick: epoch_time_s, at or below compute + communication
                tick = by_label(ax["lines"], f"{s} epoch")
                self.assertSeriesEqual(tick["x"], low["x"])
                self.assertSeriesEqual(tick["y"], epoch[k, ok].tolist())
                # full.ini is ParaDL's model: no overlap, no framework time, the tick is the
                # bar's top
                self.assertSeriesEqual(epoch[k, ok].tolist(), (compute + comm)[k, ok].tolist())
                self.assertFalse([c for c in ax["bars"] if c["label"] == f"{s} framework"])
        self.assertGreater(sum(len(c["x"]) for c in ax["bars"]), 10)  # full.ini: many fit

    def test_the_epoch_tick_lies_inside_the_bar_when_the_exchange_overlaps(self):
        # the paradise variant overlaps the gradient allreduce with the backward pass
        # (docs/cost-model.md §overlap): epoch < compute + communication, and the tick shows it
        sweep_of(
            "overlap", "[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\n"
            "strategy = data, data+filter\ngpus = 8..64 *2\nbatch = 512\n"
            "variant = paradise\n[output]\nstorage = full\n")
        _, data = plot("breakdown.py", "overlap", "breakdown-overlap")
        (ax,) = data["axes"]
        with h5py.File(FILES["overlap"]) as f:
            epoch, compute = f["epoch_time_s"][0, 0, 0, :, :, 0], f["compute_time_s"][0, 0, 0, :, :, 0]
            comm, status = f["communication_time_s"][0, 0, 0, :, :, 0], f["status"][0, 0, 0, :, :, 0]
            framework = f["framework_time_s"][0, 0, 0, :, :, 0]
            for k, s in enumerate(axis_labels(f, "strategy")):
                ok = status[k] == OK
                self.assertTrue(ok.any())
                self.assertSeriesEqual(by_label(ax["lines"], f"{s} epoch")["y"], epoch[k][ok].tolist())
                # the framework's time per step (docs/implementations.md) on top of the exchange
                top = by_label(ax["bars"], f"{s} framework")
                self.assertSeriesEqual(top["height"], framework[k][ok].tolist())
                self.assertSeriesEqual(top["bottom"], (compute + comm)[k][ok].tolist())
                self.assertTrue(np.all(framework[k][ok] > 0))
                bar = (compute + comm + framework)[k][ok]
                self.assertTrue(np.all(epoch[k][ok] <= bar * (1 + 1e-12)))
                if s == "data":  # its whole exchange is the overlapped allreduce
                    self.assertTrue(np.all(epoch[k][ok] < bar))

    def test_legend_names_only_the_strategies_with_bars(self):
        # resnet50 at batch 1024 (full.ini): filter and channel fit at no GPU count, yet the
        # legend listed them
        _, data = plot("breakdown.py", "full", "breakdown-legend", "--model", "resnet50",
                       "--batch", "1024")
        (ax,) = data["axes"]
        with h5py.File(FILES["full"]) as f:
            m, b = axis_labels(f, "model").index("resnet50"), axis_labels(f, "batch").index(1024)
            status = f["status"][m, 0, 0, :, :, b]  # strategy × gpus
            strategies = axis_labels(f, "strategy")
            with_bars = [s for k, s in enumerate(strategies) if (status[k] == OK).any()]
        self.assertLess(len(with_bars), len(strategies))  # the case the test is about
        parts = ["compute", "communication", "epoch (after overlap)"]
        self.assertEqual(ax["legend"], with_bars + parts)

    def test_times_over_a_decade_get_a_log_axis_and_the_title_names_the_fixed_values(self):
        # a linear axis made the 32-GPU bars (tens of s) invisible beside 1-GPU ones
        # (thousands); full.ini: one dataset and one system (index 0)
        with h5py.File(FILES["full"]) as f:
            m, b = axis_labels(f, "model").index("vgg16"), axis_labels(f, "batch").index(256)
            gpus = axis_labels(f, "gpus")
            ok = f["status"][m, 0, 0, :, :, b] == OK  # strategy × gpus
            compute = f["compute_time_s"][m, 0, 0, :, :, b]
            epoch = f["epoch_time_s"][m, 0, 0, :, :, b]
        for chosen, scale in ((gpus, "log"), ([8], "linear")):
            with self.subTest(gpus=chosen):
                cols = np.isin(gpus, chosen)
                # the bars' tops (compute, and the epoch tick) of the feasible points drawn;
                # the rule: log where the largest is more than 10 x the least
                drawn = np.concatenate([compute[ok & cols], epoch[ok & cols]])
                expected = "log" if drawn.max() > 10 * drawn.min() else "linear"
                self.assertEqual(expected, scale)  # both cases occur in full.ini
                _, data = plot("breakdown.py", "full", "breakdown-scale", "--model", "vgg16",
                               "--batch", "256", "--gpus", ",".join(map(str, chosen)))
                (ax,) = data["axes"]
                self.assertEqual(ax["yscale"], expected)
                # every axis at one value: vgg16, imagenet, dgx-a100 (full.ini's only system),
                # batch 256
                for fixed in ("vgg16", "imagenet", "dgx-a100", "batch 256"):
                    self.assertIn(fixed, ax["title"].replace("\n", " "))


class ScalingCurves(PlotFileChecks):
    def test_curves_are_the_feasible_epoch_times_and_ideal_lines_halve_per_doubling(self):
        png, data = plot("scaling.py", "full", "scaling", "--model", "resnet50",
                         "--batch", "256")
        self.assert_real_figure(png, data, min_height=600)
        (ax,) = data["axes"]
        with h5py.File(FILES["full"]) as f:
            b = axis_labels(f, "batch").index(256)
            # model 0 is resnet50 (full.ini's first); one dataset and one system
            status, epoch = f["status"][0, 0, 0, :, :, b], f["epoch_time_s"][0, 0, 0, :, :, b]
            gpus = np.array(axis_labels(f, "gpus"))
            drawn = 0
            for k, s in enumerate(axis_labels(f, "strategy")):
                ok = status[k] == OK
                if not ok.any():
                    continue
                drawn += 1
                line = by_label(ax["lines"], s)
                self.assertEqual(line["x"], gpus[ok].tolist())
                self.assertSeriesEqual(line["y"], epoch[k, ok].tolist())
                t0, p0 = epoch[k, ok][0], gpus[ok][0]
                # ideal strong scaling: T(p) = T(p0) × p0 / p
                self.assertSeriesEqual(by_label(ax["lines"], f"ideal {s}")["y"],
                                       (t0 * p0 / gpus[ok]).tolist())
        self.assertGreaterEqual(drawn, 2)  # full.ini, resnet50 at batch 256: data, data+filter


def fastest_configurations(f, top):
    """[(model, strategy, gpus, batch, seconds)]: the top fastest feasible per model (sort)."""
    epoch, status = f["epoch_time_s"][()], f["status"][()]
    out = []
    for m, model in enumerate(axis_labels(f, "model")):
        cells = [(epoch[m][i], i) for i in np.ndindex(epoch[m].shape) if status[m][i] == OK]
        for t, (_, _, k, j, b) in sorted(cells)[:top]:  # dataset, system, strategy, gpus, batch
            out.append((model, axis_labels(f, "strategy")[k], axis_labels(f, "gpus")[j],
                        axis_labels(f, "batch")[b], t))
    return out


class SummaryTable(PlotFileChecks):
    def test_csv_lists_the_fastest_feasible_configurations_per_model(self):
        r = run("summary.py", FILES["full"], "--top", "4", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        with h5py.File(FILES["full"]) as f:
            expected = fastest_configurations(f, 4)
        self.assertEqual(len(rows), len(expected))
        for row, (model, strategy, gpus, batch, t) in zip(rows, expected):
            self.assertEqual((row["model"], row["strategy"], int(row["gpus"]), int(row["batch"])),
                             (model, strategy, gpus, batch))
            self.assertAlmostEqual(float(row["epoch_time_s"]), t, delta=1e-9 * t)
            self.assertAlmostEqual(float(row["gpu_hours"]), gpus * t / 3600, delta=1e-9 * t)

    def test_table_of_a_maps_file_ranks_the_pareto_points(self):
        r = run("summary.py", FILES["maps"], "--top", "2", "--model", "resnet50")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("pareto group", lines[0])
        self.assertTrue(lines[2].startswith("rank  model"))
        self.assertTrue(set(lines[3]) <= {"-", " "})
        with h5py.File(FILES["maps"]) as f:
            p = f["pareto"]
            mine = np.array([v.decode() == "resnet50" for v in p["model"][()]])
            best = np.sort(p["epoch_time_s"][()][mine])[:2]
        self.assertEqual(len(lines), 4 + 2)
        for line, t in zip(lines[4:], best):
            self.assertIn(f"{t:.2f}", line.split())


    def test_summary_file_reduced_over_gpus_or_model_lists_the_fastest_pareto_points(self):
        # no GPU count (for GPU-hours) or no model in the map: the rows come from the pareto
        # group, whose fastest point per model is the fastest configuration of that model
        for reduce in ("gpus", "model"):
            with self.subTest(reduce=reduce):
                path = summary_file(reduce)
                r = run("summary.py", path, "--top", "2", "--csv")
                self.assertEqual(r.returncode, 0, r.stderr)
                got = list(csv.DictReader(io.StringIO(r.stdout)))
                with h5py.File(path) as f:
                    p = pareto_rows(f)
                    expected = []
                    for model in axis_labels(f, "model"):
                        mine = np.flatnonzero(p["model"] == model)
                        for i in mine[np.argsort(p["epoch_time_s"][mine], kind="stable")][:2]:
                            expected.append((model, p["strategy"][i], int(p["gpus"][i]),
                                             int(p["batch"][i]), p["epoch_time_s"][i]))
                self.assertEqual(len(got), len(expected))
                for row, (model, strategy, gpus, batch, t) in zip(got, expected):
                    self.assertEqual((row["model"], row["strategy"], int(row["gpus"]),
                                      int(row["batch"])), (model, strategy, gpus, batch))
                    self.assertAlmostEqual(float(row["epoch_time_s"]), t, delta=1e-9 * t)

    def test_a_time_to_train_front_lists_the_configurations_fastest_to_train(self):
        # [pareto] objectives = time_to_train, gpus (docs/time-to-train.md), storage summary:
        # the rows are each model's front points with the least time to train, and each one's
        # time to train is the built-in epochs E_min (1 + B / B_noise) x the point's epoch
        # time, read back from a full-storage file of the same grid
        grid = ("[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\n"
                "strategy = data\ngpus = 64, 256, 1024\nbatch = 1024, 16384, 65536\n")
        path = sweep_of("to_train", grid + "[output]\nstorage = summary\n[pareto]\n"
                        "objectives = time_to_train, gpus\n")
        full = sweep_of("to_train_full", grid + "[output]\nstorage = full\n")
        r = run("summary.py", path, "--top", "2", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        self.assertEqual(len(rows), 2)
        with h5py.File(full) as f:
            # model, dataset, system, strategy, gpus, batch
            t = np.where(f["status"][()] == OK, f["epoch_time_s"][()], np.inf)[0, 0, 0, 0]
            gpus, batch = list(f["gpus"][()]), list(f["batch"][()])
        epochs = 33.66 * (1 + np.array(batch, dtype=float) / 44296)
        to_train = t * epochs  # gpus x batch
        for row in rows:
            g, b = gpus.index(int(row["gpus"])), batch.index(int(row["batch"]))
            want = to_train[g, b]
            self.assertAlmostEqual(float(row["time_to_train_s"]), want, delta=1e-9 * want)
        self.assertAlmostEqual(float(rows[0]["time_to_train_s"]), to_train.min(),
                               delta=1e-9 * to_train.min())
        self.assertNotEqual(int(rows[0]["batch"]), 65536)  # the epoch alone would pick it
        r = run("summary.py", path)
        self.assertIn("fastest to train", r.stdout.splitlines()[0])

    def test_summary_file_reduced_over_strategy_ranks_its_map_cells_without_a_strategy(self):
        path = summary_file("strategy")
        r = run("summary.py", path, "--top", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("from the epoch map (each row the best over strategy)", lines[0])
        self.assertEqual(lines[2].split()[:5], ["rank", "model", "dataset", "system", "gpus"])
        with h5py.File(path) as f:
            # best_status, min_epoch_time_s: model, dataset, system, gpus, batch
            t = np.where(f["best_status"][()] == OK, f["min_epoch_time_s"][()], np.inf)
            best = [np.sort(t[m].ravel())[:3] for m in range(len(axis_labels(f, "model")))]
        self.assertEqual(len(lines), 4 + 3 * len(best))
        for line, want in zip(lines[4:], np.concatenate(best)):
            self.assertIn(f"{want:.2f}", line.split())

    def test_choice_on_an_axis_the_map_was_reduced_over_is_taken_from_the_pareto_group(self):
        path = summary_file("batch")
        r = run("summary.py", path, "--batch", "256", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        self.assertTrue(rows)
        self.assertEqual({row["batch"] for row in rows}, {"256"})  # applied, not ignored

    def test_choice_of_a_real_network_latency_selects_its_points(self):
        # network_latency_us is a float64 axis: "0.5" chooses 0.5 us, a value not on the axis
        # is refused listing the axis, and text is refused as not a number
        path = sweep_of("latency", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = abci\nnetwork_latency_us = 0.5, 1.5, 20\n"
                        "strategy = data, data+filter\ngpus = 64, 512\nbatch = 4096\n"
                        "variant = paradise\n[output]\nstorage = full\n")
        r = run("summary.py", path, "--network-latency-us", "0.5,20", "--top", "9", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        with h5py.File(path) as f:
            lat = f["network_latency_us"][()]
            # model, dataset, system, network_latency_us, strategy, gpus, batch
            t = np.where(f["status"][()] == OK, f["epoch_time_s"][()], np.inf)[0, 0, 0]
        self.assertEqual(list(lat), [0.5, 1.5, 20.0])
        feasible = np.isfinite(t[[0, 2]]).sum()
        self.assertGreater(feasible, 0)
        self.assertEqual(len(rows), feasible)
        self.assertEqual({float(row["network_latency_us"]) for row in rows}, {0.5, 20.0})
        self.assertEqual(min(float(row["epoch_time_s"]) for row in rows), t[[0, 2]].min())
        # the lower latency is never slower, at every point
        self.assertTrue((t[0] <= t[2]).all())
        for bad, why in (("1", "no network_latency_us '1' in the file (it has: 0.5, 1.5, 20.0)"),
                         ("fast", "network_latency_us 'fast' is not a number")):
            r = run("summary.py", path, "--network-latency-us", bad)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(why, r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_choice_on_an_axis_outside_the_pareto_group_is_refused(self):
        # the fronts are per model, dataset, batch (the default group less resolution, as
        # the `group` attribute says): a strategy's fastest configuration can be dominated by
        # another strategy's and be in no front, so a choice on strategy is refused
        path = summary_file("batch")
        with h5py.File(path) as f:
            self.assertEqual(f["pareto"].attrs["group"], b"model, dataset, batch")
        r = run("summary.py", path, "--batch", "256", "--strategy", "filter")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("a choice or panel on strategy would list front points only", r.stderr)


class SearchedShapes(PlotFileChecks):
    """Issue 39: p2 and segments axes with auto. The file's p2_chosen/segments_chosen maps and
    pareto columns, checked against the explicit points of the same file, and the commands'
    --p2 selection."""

    TEXT = ("[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\n"
            "strategy = data, data+filter, data+pipeline\np2 = 2, 4, 8, 16, auto\n"
            "segments = auto\ngpus = 4, 16\nbatch = 256, 1024\n[output]\nstorage = full\n")

    def test_auto_is_the_best_explicit_group_size_and_says_which(self):
        path = sweep_of("shapes", self.TEXT)
        with h5py.File(path) as f:
            self.assertEqual(dims_of(f["p2_chosen"]), dims_of(f["status"]))
            self.assertEqual(f["p2_chosen"].dtype, np.int32)
            segments = f.attrs["segments"]
            self.assertEqual(segments.decode() if isinstance(segments, bytes) else segments, "auto")
            p2 = axis_labels(f, "p2")
            strategies = axis_labels(f, "strategy")
            gpus = axis_labels(f, "gpus")
            # axes: model, dataset, system, strategy, p2, gpus, batch
            epoch, status, chosen = (f[n][()] for n in ("epoch_time_s", "status", "p2_chosen"))
            auto, checked = p2.index("auto"), 0
            for k, name in enumerate(strategies):
                for g, count in enumerate(gpus):
                    for b in range(2):
                        point = (0, 0, 0, k, auto, g, b)
                        if name == "data":  # no groups: none chosen
                            self.assertEqual(chosen[point], 0)
                            continue
                        # the explicit group sizes that divide the GPUs are auto's candidates
                        explicit = [j for j, v in enumerate(p2[:-1]) if count % int(v) == 0]
                        feasible = [j for j in explicit if status[0, 0, 0, k, j, g, b] == OK]
                        if not feasible:
                            continue
                        best = min(feasible, key=lambda j: epoch[0, 0, 0, k, j, g, b])
                        self.assertEqual(status[point], OK)
                        self.assertEqual(epoch[point], epoch[0, 0, 0, k, best, g, b])
                        self.assertEqual(chosen[point], int(p2[best]))
                        checked += 1
            self.assertGreaterEqual(checked, 6)
            rows = pareto_rows(f)
            for column in ("p2", "p2_chosen", "segments_chosen"):
                self.assertIn(column, rows)
            for i in range(len(rows["point_index"])):
                self.assertEqual(rows["p2_chosen"][i], chosen.flat[rows["point_index"][i]])
            self.assertNotIn("spatial_split_chosen", f)  # no spatial strategy: not searched

    def test_commands_select_the_auto_points(self):
        path = sweep_of("shapes_select", self.TEXT)
        r = run("summary.py", path, "--p2", "auto", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        self.assertTrue(rows)
        self.assertTrue(all(row["p2"] == "auto" for row in rows), rows)
        # the group size each used, the file's p2_chosen: a count for the hybrids, empty for data
        with h5py.File(path) as f:
            chosen, p2 = f["p2_chosen"][()], axis_labels(f, "p2")
            strategies, gpus, batch = (axis_labels(f, n) for n in ("strategy", "gpus", "batch"))
        for row in rows:
            point = (0, 0, 0, strategies.index(row["strategy"]), p2.index("auto"),
                     gpus.index(int(row["gpus"])), batch.index(int(row["batch"])))
            want = str(chosen[point]) if row["strategy"] != "data" else ""
            self.assertEqual(row["p2_chosen"], want, row)
        png, data = plot("pareto.py", "shapes_select", "shapes_pareto", "--p2", "auto,4")
        self.assertTrue(os.path.exists(png))


class BadInput(unittest.TestCase):
    def assert_refused(self, script, args, *words):
        r = run(script, *args)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)

    def test_missing_file_is_named(self):
        missing = os.path.join(WORK, "absent.h5")
        for script in ("pareto.py", "memory_map.py", "memory_limit.py", "breakdown.py",
                       "scaling.py", "summary.py"):
            self.assert_refused(script, [missing], missing, "no such file")

    def test_maps_file_given_to_the_bar_chart_names_the_missing_variable(self):
        self.assert_refused("breakdown.py", [FILES["maps"]], FILES["maps"], "compute_time_s",
                            "storage = maps")

    def test_unknown_model_filter_lists_the_models_of_the_file(self):
        self.assert_refused("pareto.py", [FILES["full"], "--model", "resnet51"], FILES["full"],
                            "resnet51", "resnet50, vgg16")

    def test_precision_choice_on_a_file_without_the_axis_is_its_one_precision(self):
        # full.ini has no precision axis: every point is fp32 (root attribute `precision`),
        # so --precision fp32 selects everything and --precision mixed nothing, said so
        r = run("summary.py", FILES["full"], "--precision", "fp32")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, run("summary.py", FILES["full"]).stdout)
        self.assert_refused("summary.py", [FILES["full"], "--precision", "mixed"], FILES["full"],
                            "no precision 'mixed': every point of the file is precision fp32")

    def test_precision_aliases_name_the_axis_values(self):
        # paradise takes fp16 and bf16 as mixed (the axis stores "mixed"): so do the scripts
        path = sweep_of("alias", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = dgx-a100\nstrategy = data\nprecision = fp32, bf16\n"
                        "gpus = 1, 8\nbatch = 256\n[output]\nstorage = full\n")
        for name in ("fp16", "BF16", "mixed"):
            r = run("summary.py", path, "--precision", name, "--csv")
            self.assertEqual(r.returncode, 0, r.stderr)
            rows = list(csv.DictReader(io.StringIO(r.stdout)))
            self.assertTrue(rows and all(x["precision"] == "mixed" for x in rows), rows)

    def test_training_setting_axes_are_chosen_and_faceted(self):
        # optimizer and recompute with two values each are axes: pareto.py draws a panel per
        # optimizer (the default Pareto group's), the recompute axis is searched over, and
        # --recompute / --zero-stage choose values (a one-valued zero is the root's)
        path = sweep_of("settings", "[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\n"
                        "system = abci\nstrategy = data, spatial\noptimizer = sgd, adam\n"
                        "zero = 1\nrecompute = false, true\ngpus = 1..16 *2\nbatch = 16, 64\n"
                        "[output]\nstorage = full\n")
        _, data = plot("pareto.py", "settings", "pareto-settings")
        self.assertEqual(sorted(a["title"] for a in data["axes"]),
                         ["cosmoflow · cosmoflow · adam", "cosmoflow · cosmoflow · sgd"])
        r = run("summary.py", path, "--recompute", "true", "--zero-stage", "1", "--csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        self.assertTrue(rows and all(x["recompute"] == "true" for x in rows), rows)
        self.assert_refused("summary.py", [path, "--zero-stage", "2"], path,
                            "every point of the file is zero_stage 1")

    def test_one_valued_settings_on_a_maps_file_are_the_roots_and_said_in_titles(self):
        # storage = maps: summary.py reads the pareto group; a choice of the file's own one
        # value of a setting keeps every row (it was refused as "a choice on zero_stage would
        # list front points only"); pareto.py with a choice no front point holds is one line,
        # not numpy's ValueError; titles say the one-valued settings that are not defaults
        # and print recomputation as "recompute true" (a bare "true"). With the objectives
        # epoch time and GPUs, recomputation (slower, same GPUs) is on no front; with the
        # default third objective, memory, it is (it needs less memory)
        text = ("[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                "system = dgx-a100\nstrategy = data\nprecision = mixed\n"
                "optimizer = adam\nzero = 1\nrecompute = false, true\n"
                "gpus = 1, 8\nbatch = 64, 256\n[output]\nstorage = maps\n")
        path = sweep_of("maps-settings", text + "[pareto]\nobjectives = epoch_time, gpus\n")
        plain = run("summary.py", path, "--csv")
        chosen = run("summary.py", path, "--csv", "--zero-stage", "1", "--precision", "bf16")
        self.assertEqual(chosen.returncode, 0, chosen.stderr)
        self.assertEqual(chosen.stdout, plain.stdout)
        self.assert_refused("pareto.py", [path, "--recompute", "true", "-o",
                                          os.path.join(WORK, "none.png")], path,
                            "no point of the pareto group has recompute true")
        three = sweep_of("maps-settings-3", text)
        with h5py.File(three) as f:
            self.assertIn(b"true", set(f["pareto/recompute"][()]))
        r = run("pareto.py", three, "--recompute", "true", "-o", os.path.join(WORK, "some.png"))
        self.assertEqual(r.returncode, 0, r.stderr)
        _, data = plot("memory_map.py", "maps-settings", "map-settings", "--device-memory-gb", "80")
        self.assertIn("recompute false", data["title"])
        self.assertIn("mixed, adam, zero stage 1", data["title"])

    def test_file_without_resolution_limits_names_the_memlimit_variable(self):
        self.assert_refused("memory_limit.py", [FILES["full"]], FILES["full"],
                            "memlimit/largest_resolution")

    def test_lower_bound_flags_missing_or_not_zero_or_one_are_refused(self):
        # the flags are 0 or 1: a 7 is neither (a damaged or edited file), and a file without
        # them (an older paradise's) cannot say which limits are lower bounds
        edited = copy_of("resolution", "edited-flags.h5")
        with h5py.File(edited, "r+") as f:
            f["memlimit/largest_resolution_at_search_end"][0, 0, 0, 0, 0, 0] = 7
        self.assert_refused("memory_limit.py", [edited, "-o", os.path.join(WORK, "x.png")],
                            edited, "memlimit/largest_resolution_at_search_end", "holds 7",
                            "not 0 or 1")
        old = copy_of("resolution", "no-flags.h5")
        with h5py.File(old, "r+") as f:
            del f["memlimit/largest_resolution_at_search_end"]
        self.assert_refused("memory_limit.py", [old, "-o", os.path.join(WORK, "x.png")],
                            old, "no variable 'memlimit/largest_resolution_at_search_end'",
                            "run the sweep again")

    def test_a_sweep_where_nothing_fits_is_said_not_plotted(self):
        # UNet3D at 512^3 on 16 GB V100s: out of memory at every point, an empty Pareto group
        for storage in ("maps", "full"):
            ini = os.path.join(WORK, f"nofit_{storage}.ini")
            out = os.path.join(WORK, f"nofit_{storage}.h5")
            with open(ini, "w", encoding="utf-8") as f:
                f.write("[sweep]\nmodel = unet3d\ndataset = cosmoflow512\nsystem = abci\n"
                        "strategy = data, filter\ngpus = 4, 8\nbatch = 64\n"
                        f"[output]\nstorage = {storage}\n[memlimit]\nbatch = none\n")
            subprocess.run([PARADISE, "sweep", ini, "-o", out, "--quiet"], check=True,
                           stdout=subprocess.DEVNULL)
            scripts = ["pareto.py", "summary.py"] + (["breakdown.py", "scaling.py"]
                                                     if storage == "full" else [])
            for script in scripts:
                with self.subTest(storage=storage, script=script):
                    self.assert_refused(script, [out, "-o", os.path.join(WORK, "x.png")]
                                        if script != "summary.py" else [out], out,
                                        "no feasible configuration")

    def test_scaling_of_a_summary_file_names_the_axis_its_maps_were_reduced_over(self):
        for reduce in ("gpus", "strategy", "batch"):
            with self.subTest(reduce=reduce):
                path = summary_file(reduce)
                self.assert_refused("scaling.py", [path, "-o", os.path.join(WORK, "x.png")],
                                    path, f"has no {reduce} axis", f"reduce = {reduce}")

    def test_choice_on_a_reduced_axis_is_refused_not_ignored(self):
        path = summary_file("batch")
        png = os.path.join(WORK, "x.png")
        self.assert_refused("scaling.py", [path, "--model", "resnet50", "--batch", "256",
                                           "-o", png],
                            path, "reduced over batch", "selection on batch")
        self.assert_refused("pareto.py", [path, "--source", "map", "--batch", "256", "-o", png],
                            path, "reduced over batch", "selection on batch")
        # memlimit/largest_batch is over every axis but batch
        self.assert_refused("memory_limit.py", [path, "--limit", "largest_batch", "--batch",
                                                "64", "-o", png],
                            path, "memlimit/largest_batch", "selection on batch")

    def test_truncated_file_is_named_with_hdf5s_cause(self):
        path = os.path.join(WORK, "truncated.h5")
        with open(FILES["full"], "rb") as f, open(path, "wb") as out:
            out.write(f.read(20_000))  # the superblock survives: HDF5 opens it, then refuses
        for script in ("pareto.py", "memory_limit.py", "summary.py"):  # all in open_sweep
            with self.subTest(script=script):
                self.assert_refused(script, [path], path, "truncated file")

    def test_hdf5_file_that_is_not_a_sweep_is_named(self):
        foreign = os.path.join(WORK, "foreign.h5")
        with h5py.File(foreign, "w") as f:
            f.attrs["storage"] = "full"
            f["a"] = np.arange(10)
        self.assert_refused("pareto.py", [foreign], foreign, "not a paradise sweep file")
        # a sweep's layout with a variable h5netcdf cannot read (no dimension scale)
        stray = copy_of("full", "stray.h5")
        with h5py.File(stray, "a") as f:
            f["stray"] = np.arange(3)
        self.assert_refused("summary.py", [stray], stray, "not a paradise sweep file",
                            "dimension scale")

    def test_unfinished_sweep_is_refused_not_read_as_zeros(self):
        # a finished file says so last (SweepFileWriter::commit); an interrupted run's
        # OUT.h5.tmp has maps but not that attribute, and its unwritten chunks would read as
        # status ok and 0 s
        with h5py.File(copy_of("full", "finished.h5"), "r") as f:
            self.assertEqual(f.attrs["complete"], b"true")
        path = copy_of("full", "interrupted.h5.tmp")
        with h5py.File(path, "a") as f:
            del f.attrs["complete"]
        for script in ("summary.py", "scaling.py"):
            with self.subTest(script=script):
                self.assert_refused(script, [path], path, "unfinished sweep", "--resume")

    def test_damaged_chunk_is_named_when_it_is_read(self):
        path = copy_of("full", "damaged.h5")
        with h5py.File(path) as f:
            chunk = f["status"].id.get_chunk_info(0)  # full.ini: 144 points, one chunk
        with open(path, "r+b") as f:
            f.seek(chunk.byte_offset)
            f.write(b"\xff" * chunk.size)  # not a deflate stream any more
        for script in ("pareto.py", "memory_map.py", "breakdown.py", "scaling.py",
                       "summary.py"):
            with self.subTest(script=script):
                self.assert_refused(script, [path, "--device-memory-gb", "40"]
                                    if script == "memory_map.py" else [path],
                                    path, "inflate() failed", "damaged")

    def test_damaged_object_header_is_named_not_a_traceback(self):
        # a copy cut short (a run killed during paradise sweep's canonical copy) or a damaged
        # root group: h5py raises KeyError, which escaped as a traceback
        path = copy_of("full", "header.h5")
        with h5py.File(path) as f:
            addr = h5py.h5o.get_info(f["/"].id).addr
        with open(path, "r+b") as f:
            f.seek(addr)
            f.write(b"\xff" * 8)  # no object header version
        self.assert_refused("summary.py", [path], path, "cannot read the HDF5 file",
                            "bad object header version number")

    def test_a_pareto_group_without_epoch_times_names_the_files_storage(self):
        # maps without epoch times, fronts over gpu_hours and memory: the message named the
        # storage of the pareto group (none: "storage = ?"), not the file's
        path = sweep_of("hours", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = abci\nstrategy = data\ngpus = 8, 16\nbatch = 256\n"
                        "[output]\nstorage = maps\n[pareto]\nobjectives = gpu_hours, memory\n")
        self.assert_refused("summary.py", [path], path, "no variable 'pareto/epoch_time_s'",
                            "(storage = maps)")

    def test_text_file_is_not_taken_for_a_sweep(self):
        ini = os.path.join(HERE, "full.ini")
        self.assert_refused("summary.py", [ini], ini, "not an HDF5 file")


def digest(path):
    """The SHA-256 of a file's bytes (to show a refused run left it as it was)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def folder(name):
    """A new empty scratch folder (to list what a run left there)."""
    path = os.path.join(WORK, name)
    os.makedirs(path)
    return path


def damaged_copy(name, signature, start, length):
    """A copy of full.h5 with `length` bytes zeroed from `start` after the first `signature`
    (an HDF5 structure's tag: the damage lands on that structure whatever the layout)."""
    with open(FILES["full"], "rb") as f:
        data = bytearray(f.read())
    at = data.find(signature)
    assert at >= 0, f"full.h5 has no {signature!r} structure to damage"
    data[at + start:at + start + length] = bytes(length)
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


class Refusals(unittest.TestCase):
    def assert_one_line(self, r, *words):
        """r: a refusal, one line on stderr with each of words, exit code 2, no traceback."""
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)

    def assert_refused(self, script, args, *words, **kwargs):
        self.assert_one_line(run(script, *args, **kwargs), *words)


class OutputPaths(Refusals):
    def test_an_input_or_another_output_of_the_run_is_never_replaced(self):
        # `--data full.h5` replaced the sweep file read with JSON, `--data` equal to the image
        # (or its --pdf twin) replaced the image: refused, before any work, the file unchanged
        d = folder("same")
        sweep = shutil.copyfile(FILES["full"], os.path.join(d, "full.h5"))
        link = os.path.join(d, "link.json")
        os.symlink(sweep, link)  # the same file under another name
        png, before = os.path.join(d, "p.png"), digest(sweep)
        for script in ("pareto.py", "breakdown.py", "scaling.py"):
            self.assert_refused(script, [sweep, "-o", png, "--data", sweep], "--data", sweep,
                                "is the input file")
        self.assert_refused("pareto.py", [sweep, "-o", png, "--data", link], "is the input file")
        self.assert_refused("pareto.py", [sweep, "-o", png, "--data", png],
                            "is also the --data output")
        self.assert_refused("pareto.py", [sweep, "-o", png, "--pdf", "--data",
                                          os.path.join(d, "p.pdf")], "--pdf", "--data output")
        self.assertEqual(digest(sweep), before)
        self.assertEqual(sorted(os.listdir(d)), ["full.h5", "link.json"])  # nothing written

    def test_an_existing_file_of_another_kind_is_refused_an_earlier_output_replaced(self):
        # a path holding something else (a sweep output, text that is no JSON) is not
        # replaced; a previous output of the same kind is (a re-run)
        d = folder("kinds")
        png, data = os.path.join(d, "p.png"), os.path.join(d, "p.json")
        victim = shutil.copyfile(FILES["maps"], os.path.join(d, "victim.h5"))
        hdf5_png = shutil.copyfile(FILES["maps"], os.path.join(d, "h5.png"))
        notes = os.path.join(d, "notes.json")
        with open(notes, "w", encoding="utf-8") as f:
            f.write("my notes\n")
        kept = {p: digest(p) for p in (victim, hdf5_png, notes)}
        self.assert_refused("pareto.py", [FILES["full"], "-o", png, "--data", victim], "--data",
                            "an HDF5 file, not a JSON file")
        self.assert_refused("pareto.py", [FILES["full"], "-o", hdf5_png], "-o",
                            "an HDF5 file, not a PNG image")
        self.assert_refused("pareto.py", [FILES["full"], "-o", png, "--data", notes],
                            "text, not a JSON file")
        self.assertEqual({p: digest(p) for p in kept}, kept)
        self.assertFalse(os.path.exists(png))  # checked before the image was drawn
        for _ in range(2):  # the second run replaces the first's image, PDF and sidecar
            r = run("pareto.py", FILES["full"], "-o", png, "--pdf", "--data", data)
            self.assertEqual(r.returncode, 0, r.stderr)
        with open(data, encoding="utf-8") as f:
            self.assertTrue(json.load(f)["axes"])

    def test_a_bad_output_path_is_refused_before_any_file_is_written(self):
        # --data in a folder that does not exist or naming a folder failed only after the image
        # was written (a traceback, the image left); `-o q.png --pdf` with q.pdf a folder left
        # q.png behind
        d = folder("bad-path")
        png = os.path.join(d, "q.png")
        os.mkdir(os.path.join(d, "q.pdf"))
        for args, words in ((["--data", "/nonexist/d.json"], ("--data", "no such directory")),
                            (["--data", d], ("--data", "is a directory")),
                            (["--data", ""], ("--data", "an empty path")),
                            (["--pdf"], ("--pdf", "q.pdf", "is a directory"))):
            with self.subTest(args=args):
                self.assert_refused("pareto.py", [FILES["full"], "-o", png, *args], *words)
                self.assertEqual(os.listdir(d), ["q.pdf"])

    def test_a_write_that_fails_leaves_no_file_and_the_earlier_output_intact(self):
        # a write cut short (here by `ulimit -f` under the image's size) left a partial image
        # and no sidecar: the files are written under temporary names and renamed when all
        # are complete, so the earlier run's image stays whole and nothing else is left
        d = folder("fsize")
        png, data = os.path.join(d, "p.png"), os.path.join(d, "p.json")
        r = run("pareto.py", FILES["full"], "-o", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        before = digest(png)
        self.assertGreater(os.path.getsize(png), 64_000)

        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (64_000, 64_000))

        r = run("pareto.py", FILES["full"], "-o", png, "--pdf", "--data", data, preexec_fn=limit)
        self.assert_one_line(r, "-o", png, "cannot write")
        self.assertEqual(os.listdir(d), ["p.png"])  # no PDF, sidecar or temporary file
        self.assertEqual(digest(png), before)


class DamagedFiles(Refusals):
    def test_zeroed_bytes_of_a_real_output_are_one_line_in_every_command(self):
        # bytes 10,000-11,999 of a sweep output zeroed: h5py handed h5netcdf None for an
        # object HDF5 could not open ("AttributeError: 'NoneType' object has no attribute
        # 'attrs'" in all the HDF5 commands)
        path = copy_of("full", "zeroed.h5")
        with open(path, "r+b") as f:
            f.seek(10_000)
            f.write(bytes(2_000))
        for script in ("pareto.py", "memory_map.py", "memory_limit.py", "breakdown.py",
                       "scaling.py", "summary.py"):
            with self.subTest(script=script):
                extra = ["--device-memory-gb", "40"] if script == "memory_map.py" else []
                self.assert_refused(script, [path, *extra], path, "the file is damaged")

    def test_a_damaged_chunk_of_data_a_command_does_not_draw_is_refused(self):
        # issue 35: a file whose `status` did not inflate (two sweeps wrote it at once) gave
        # exit 0 from summary.py and pareto.py, which read the Pareto table only. The first
        # chunk of status (its offset from HDF5 itself) overwritten in a copy of full.h5
        path = shutil.copyfile(FILES["full"], os.path.join(WORK, "status_chunk.h5"))
        with h5py.File(path, "r") as f:
            d = f["status"]
            info = d.id.get_chunk_info_by_coord((0,) * d.ndim)
        with open(path, "r+b") as f:
            f.seek(info.byte_offset + info.size // 2)
            f.write(b"\xaa" * 16)
        for script in ("summary.py", "pareto.py"):
            with self.subTest(script=script):
                self.assert_refused(script, [path], path, "'status'", "the file is damaged")

    def test_damage_that_crashes_or_hangs_the_hdf5_library_is_one_line(self):
        # a zeroed fractal heap header (a group's links) made HDF5 abort or segfault in C, a
        # zeroed global heap (the dimension lists) made it loop for ever: the structure is
        # read first in a forked child, whose crash or endless run is one line (whatever
        # this HDF5 build does with the damage, the answer is one line and exit code 2)
        env = {**os.environ, "PARADISE_PROBE_SECONDS": "3"}
        for name, signature, start, length in (("heap.h5", b"FRHP", 0, 64),
                                               ("gcol.h5", b"GCOL", 16, 2_000)):
            with self.subTest(damage=name):
                path = damaged_copy(name, signature, start, length)
                begun = time.monotonic()
                self.assert_refused("summary.py", [path], path, "damaged", env=env)
                self.assertLess(time.monotonic() - begun, 60)

    def test_the_structure_probe_reports_its_childs_crash_or_endless_run(self):
        # the probe itself, with the child's reading replaced by a crash and by an endless
        # sleep: an InputError naming the file, in about the time given, and no child left
        sys.path.insert(0, ANALYSIS)
        import paradise_h5
        for reading, words in ((lambda path: os.kill(os.getpid(), signal.SIGSEGV),
                                "crashed reading the file's structure (SIGSEGV)"),
                               (lambda path: time.sleep(60), "did not end in 1 s")):
            paradise_h5._probed.clear()
            with mock.patch.object(paradise_h5, "_read_structure", reading), \
                    mock.patch.dict(os.environ, {"PARADISE_PROBE_SECONDS": "1"}):
                begun = time.monotonic()
                with self.assertRaises(paradise_h5.InputError) as caught:
                    paradise_h5.probe_structure(FILES["full"])
            self.assertIn(FILES["full"], str(caught.exception))
            self.assertIn(words, str(caught.exception))
            self.assertLess(time.monotonic() - begun, 10)
            with self.assertRaises(ChildProcessError):  # reaped: nothing left running
                os.waitpid(-1, os.WNOHANG)
        paradise_h5._probed.clear()


class EditedFiles(Refusals):
    """Damage h5py reports other than as OSError, and hand edits that keep a valid HDF5 file
    but not the sweep's (each a traceback or a wrong answer before; found by a fuzzing probe)."""

    def test_a_damaged_attribute_message_is_one_line(self):
        # the 8 bytes before the root attribute name "storage" (its message header): h5py's
        # RuntimeError "Unable to determine if attribute exists (bad version number ...)"
        with open(FILES["full"], "rb") as f:
            data = bytearray(f.read())
        at = data.find(b"storage\x00")
        self.assertGreater(at, 8)
        for back in (4, 8):
            with self.subTest(zeroed=back):
                d = bytearray(data)
                d[at - back:at] = bytes(back)
                path = os.path.join(WORK, f"attribute{back}.h5")
                with open(path, "wb") as f:
                    f.write(d)
                self.assert_refused("summary.py", [path], path, "cannot read the HDF5 file")

    def edited(self, name, edit):
        """A copy of the storage = maps file (no times: the commands read the pareto group)."""
        path = copy_of("maps", name)
        with h5py.File(path, "r+") as f:
            edit(f)
        return path

    def test_a_pareto_table_that_is_not_the_sweeps_is_one_line(self):
        def three_gpus(f):  # a column of another length: no longer one value per point
            del f["pareto/gpus"]
            f["pareto/gpus"] = np.array([1, 2, 3], dtype="i8")
        for name, edit, words in (
                ("strategy.h5", lambda f: f["pareto/strategy"].__setitem__(0, b"bogus"),
                 "pareto/strategy holds 'bogus', not a value of the file's strategy axis"),
                ("utf8.h5", lambda f: f["pareto/model"].__setitem__(0, b"\xff\xfeab"),
                 "the pareto group holds text that is not UTF-8"),
                ("negative.h5", lambda f: f["pareto/epoch_time_s"].__setitem__(0, -1.0),
                 "pareto/epoch_time_s holds -1.0, not a finite value >= 0"),
                ("gpus3.h5", three_gpus, "pareto/gpus has dimensions"),
                ("axis.h5", lambda f: f["gpus"].__setitem__(0, 0),
                 "axis 'gpus' holds 0, not a count >= 1"),
                ("incomplete.h5", lambda f: f.attrs.__setitem__("complete", "false"),
                 "an unfinished sweep (no 'complete' attribute 'true'")):
            path = self.edited(name, edit)
            for script in ("summary.py", "pareto.py"):
                with self.subTest(edit=name, script=script):
                    self.assert_refused(script, [path, "-o", os.path.join(WORK, "e.png")]
                                        if script == "pareto.py" else [path], path, words)

    def test_a_status_code_off_its_flag_values_is_one_line(self):
        # a hand-edited status 9 (flag_values are 0, 1, 2 as src/app/sweep_output.cpp writes
        # them) was drawn as neither feasible nor out of memory, without a word
        def nine(f):
            status = f["status"]
            status[...] = np.full(status.shape, 9, dtype=status.dtype)
        for sweep, script, args in (
                ("maps", "memory_map.py", ["--model", "alexnet", "--system", "abci"]),
                ("full", "breakdown.py", ["--model", "vgg16", "--batch", "256"]),
                ("full", "scaling.py", ["--model", "resnet50", "--batch", "256"]),
                ("full", "pareto.py", ["--source", "map"]),
                ("full", "summary.py", [])):
            path = copy_of(sweep, f"status9-{script}.h5")
            with h5py.File(path, "r+") as f:
                nine(f)
            with self.subTest(script=script):
                out = ["-o", os.path.join(WORK, "s9.png")] if script != "summary.py" else []
                self.assert_refused(script, [path] + out + args, path,
                                    "variable 'status' holds 9, not one of its flag_values "
                                    "(0, 1, 2)")


class SelectionOptions(Refusals):
    def test_an_empty_value_or_list_item_is_refused(self):
        # `--model ""` was ignored (every model shown), `--model ,` said "no feasible
        # configuration"
        for value, words in (("", "an empty value"), (" ", "an empty value"),
                             (",", "an empty item"), ("resnet50,,vgg16", "an empty item")):
            with self.subTest(value=value):
                self.assert_refused("summary.py", [FILES["full"], "--model", value],
                                    f"--model '{value}'", words)

    def test_text_is_compared_ignoring_case_and_numbers_by_value(self):
        # `--precision FP32` was accepted but `--recompute True` refused;
        # `--network-bandwidth-gbps 100.0` was "not an integer" on the integer axis
        path = sweep_of("case", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = dgx-a100\nnetwork_bandwidth_gbps = 100, 200\nstrategy = data\n"
                        "recompute = false, true\ngpus = 1, 8\nbatch = 256\n"
                        "[output]\nstorage = full\n")
        exact = run("summary.py", path, "--recompute", "true", "--network-bandwidth-gbps", "100",
                    "--top", "9", "--csv")
        self.assertEqual(exact.returncode, 0, exact.stderr)
        rows = list(csv.DictReader(io.StringIO(exact.stdout)))
        self.assertTrue(rows)
        self.assertEqual({(x["recompute"], x["network_bandwidth_gbps"]) for x in rows},
                         {("true", "100")})
        for recompute, bandwidth in (("True", "100.0"), ("TRUE", "1e2")):
            r = run("summary.py", path, "--recompute", recompute, "--network-bandwidth-gbps",
                    bandwidth, "--top", "9", "--csv")
            self.assertEqual((r.returncode, r.stdout), (0, exact.stdout), r.stderr)
        self.assert_refused("summary.py", [path, "--network-bandwidth-gbps", "100.5"],
                            "network_bandwidth_gbps '100.5' is not an integer")
        self.assert_refused("summary.py", [path, "--recompute", "maybe"],
                            "no recompute 'maybe'", "compared ignoring case")
        # a one-valued setting (root attribute) alike: full.ini is fp32
        r = run("summary.py", FILES["full"], "--precision", "FP32")
        self.assertEqual((r.returncode, r.stdout), (0, run("summary.py", FILES["full"]).stdout))

    def test_several_values_of_an_axis_a_plot_fixes_are_refused_in_one_line(self):
        # breakdown, scaling, the memory map and the memory limits draw one value of each axis
        # they do not show; `--system abci,dgx-a100` silently drew abci's alone
        for script, sweep, option, values, extra in (
                ("breakdown.py", "full", "--batch", "64,256", []),
                ("scaling.py", "full", "--model", "resnet50,vgg16", []),
                ("memory_map.py", "maps", "--system", "abci,dgx-a100", []),
                ("memory_limit.py", "maps", "--system", "abci,dgx-a100",
                 ["--limit", "largest_batch"])):
            with self.subTest(script=script):
                out = os.path.join(WORK, "several.png")
                self.assert_refused(script, [FILES[sweep], option, values, "-o", out, *extra],
                                    FILES[sweep], f"{option} '{values}'", "one value")
                self.assertFalse(os.path.exists(out))
        # one value of the same option is drawn
        r = run("memory_map.py", FILES["maps"], "--system", "abci", "-o",
                os.path.join(WORK, "one.png"))
        self.assertEqual(r.returncode, 0, r.stderr)


# A system file (src/system/system_file.cpp's keys): 32 GB per GPU, 10% kept free
SYSTEM_FILE = b"""[system]
name = mine
gpus_per_node = 4
max_gpus = 4
memory_margin = 0.1
[gpu]
name = G
memory_GB = 32
memory_bandwidth_GBps = 900
peak_fp32_TFLOPs = 15
[level.node]
span_gpus = 4
bandwidth_GBps = 50
latency_us = 5
"""


class MemoryMapOptions(Refusals):
    def test_device_memory_and_margin_out_of_range_are_refused_before_any_work(self):
        # -5, nan, inf, 1e308 GB and margins 1, 1.5, nan, -1 gave tracebacks (or were taken);
        # 0 GB was ignored silently
        png = os.path.join(WORK, "mm-range.png")
        cases = [("--device-memory-gb", v) for v in ("-5", "0", "nan", "inf", "1e308")]
        cases += [("--memory-margin", v) for v in ("1", "1.5", "nan", "-1")]
        for option, value in cases:
            with self.subTest(option=option, value=value):
                self.assert_refused("memory_map.py", [FILES["maps"], "--system", "abci", "-o",
                                                      png, option, value], option, "must be")
        self.assertFalse(os.path.exists(png))

    def test_the_contour_is_the_memory_the_sweep_recorded_even_after_the_system_file_changed(self):
        # memory_map.py re-read a system file (with its own copy of paradise's parser), so a
        # file edited or removed after the sweep moved the contour away from the limit behind
        # the points' status, or failed. The sweep now records the memory it tested against:
        # SYSTEM_FILE's 32 GB less its 10% margin is 28.8 GB
        system = os.path.join(WORK, "mine.system")
        with open(system, "wb") as f:
            f.write(SYSTEM_FILE)
        sweep_of("system-file", f"[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                 f"system = {system}\nstrategy = data\ngpus = 1, 2\nbatch = 32..1024 *2\n"
                 "[output]\nstorage = maps\n")
        with h5py.File(FILES["system-file"]) as f:
            group = f["systems"]
            self.assertEqual([n.decode() for n in group["system"][()]], [system])
            self.assertEqual(group["device_memory_bytes"][0], 32_000_000_000)
            self.assertEqual(group["usable_memory_bytes"][0], 28_800_000_000)
            self.assertEqual(group["gpus_per_node"][0], 4)
            status, memory = f["status"][()], f["memory_per_gpu_bytes"][()]
            # the record is the limit behind the status: both kinds of point on either side
            self.assertTrue((status == OUT_OF_MEMORY).any() and (status == OK).any())
            self.assertLessEqual(memory[status == OK].max(), 28.8e9)
            self.assertGreater(memory[status == OUT_OF_MEMORY].min(), 28.8e9)
        for change in ("as written", "edited to 64 GB", "removed"):
            with self.subTest(change=change):
                if change == "edited to 64 GB":
                    with open(system, "wb") as f:
                        f.write(SYSTEM_FILE.replace(b"memory_GB = 32", b"memory_GB = 64"))
                elif change == "removed":
                    os.remove(system)
                _, data = plot("memory_map.py", "system-file", "mm-sys")
                self.assertAlmostEqual(data["notes"]["usable_memory_gb"], 28.8)
                self.assertAlmostEqual(data["notes"]["device_memory_gb"], 32)
                self.assertIn("usable device memory 28.8 GB (32 GB less 10%)", data["legend"])

    def test_options_replace_the_recorded_memory_and_margin_one_by_one(self):
        # dgx-a100 (src/system/gpus.cpp): 80 GiB, of which totalGlobalMem 85,100,068,864 B
        # (deviceQuery, tests/data/measured/kernel-overheads.csv), 5% of that kept free; the
        # recorded share kept from the device is 1 - usable / device; --device-memory-gb keeps
        # it (it once took 0.05 for every system, ABCI's is 0), --memory-margin keeps the
        # recorded memory
        sweep_of("a100", "[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\n"
                 "strategy = data\ngpus = 1, 2\nbatch = 32, 64\n[output]\nstorage = maps\n")
        device, usable = 80 * 2**30, round(85100068864 * 0.95)
        cases = {(): usable / 1e9, ("--device-memory-gb", "40"): 40 * usable / device,
                 ("--memory-margin", "0.5"): device / 2e9,
                 ("--device-memory-gb", "40", "--memory-margin", "0.25"): 30}
        for args, usable in cases.items():
            with self.subTest(args=args):
                _, data = plot("memory_map.py", "a100", "mm-a100", *args)
                self.assertAlmostEqual(data["notes"]["usable_memory_gb"], usable)

    def test_a_file_without_the_record_needs_both_options(self):
        # a sweep file written before paradise recorded device memory: refused, naming the
        # options, never drawn at a guessed margin; with both, drawn where they say
        path = os.path.join(WORK, "no-systems.h5")
        shutil.copyfile(FILES["maps"], path)
        with h5py.File(path, "r+") as f:
            del f["systems"]
        FILES["no-systems"] = path
        png = os.path.join(WORK, "mm-old.png")
        for given in ([], ["--device-memory-gb", "16"], ["--memory-margin", "0"]):
            with self.subTest(given=given):
                self.assert_refused("memory_map.py", [path, "--system", "abci", "-o", png,
                                                      *given], path, "no 'systems' group",
                                    "--device-memory-gb and --memory-margin")
        self.assertFalse(os.path.exists(png))
        _, data = plot("memory_map.py", "no-systems", "mm-old", "--system", "abci",
                       "--device-memory-gb", "16", "--memory-margin", "0.25")
        self.assertAlmostEqual(data["notes"]["usable_memory_gb"], 12)


class StandardOutput(Refusals):
    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_a_full_disk_is_one_line_and_a_closed_pipe_ends_quietly(self):
        # `summary.py > /dev/full` ended in an OSError traceback
        with open("/dev/full", "w", encoding="utf-8") as full:
            r = run("summary.py", FILES["full"], stdout=full)
        self.assert_one_line(r, "cannot write to standard output", "No space left on device")
        # a reader that stops early (`| head`): exit 0, nothing on stderr ('Exception ignored')
        p = subprocess.Popen([sys.executable, os.path.join(ANALYSIS, "summary.py"),
                              FILES["full"]], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=WORK)
        p.stdout.close()
        _, err = p.communicate(timeout=120)
        self.assertEqual((p.returncode, err), (0, b""))


class SizeLimits(Refusals):
    def test_pareto_refuses_more_panels_than_a_figure_holds_before_plotting(self):
        # a 2,000-value resolution axis made 2,000 panels (9.6 GB, 250 s, then MemoryError);
        # 50 here: refused at once, naming the option that narrows them, which then plots
        path = sweep_of("panels", "[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\n"
                        "resolution = 32..424 +8\nsystem = abci\nstrategy = data\n"
                        "gpus = 1, 2\nbatch = 4\n[output]\nstorage = full\n")
        png = os.path.join(WORK, "panels.png")
        begun = time.monotonic()
        self.assert_refused("pareto.py", [path, "-o", png], path,
                            "50 panels (model 1 × dataset 1 × resolution 50), more than the 48",
                            "--resolution")
        self.assertLess(time.monotonic() - begun, 30)
        self.assertFalse(os.path.exists(png))
        r = run("pareto.py", path, "-o", png, "--resolution", "128,256")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_breakdown_refuses_more_gpu_counts_than_bar_groups_and_suggests_some(self):
        # gpus = 8..4096 +8, 512 counts: an 84,930-pixel-wide figure matplotlib refused
        # (ValueError); refused with a --gpus choice, which then draws a figure of sane width
        path = sweep_of("wide", "[sweep]\nmodel = resnet50\ndataset = imagenet\n"
                        "system = dgx-a100\nstrategy = data\ngpus = 8..4096 +8\n"
                        "batch = 8192\n[output]\nstorage = full\n")
        png = os.path.join(WORK, "wide.png")
        r = run("breakdown.py", path, "-o", png)
        self.assert_one_line(r, path, "512 GPU counts (8..4096)", "more than the 32", "--gpus")
        self.assertFalse(os.path.exists(png))
        suggested = re.search(r"--gpus (\S+)$", r.stderr.strip()).group(1)
        r = run("breakdown.py", path, "-o", png, "--gpus", suggested)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLess(png_size(png)[0], 10_000)

if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main(verbosity=2)
