#!/usr/bin/python3
"""memory_map.py FILE.h5 [-o OUT.png] [--pdf] [--rows batch|resolution]: memory-feasibility
heat maps, one panel per strategy: memory per GPU over GPUs × batch (or × input side),
out-of-memory cells crossed, invalid cells grey, and the contour of the usable device
memory (device memory less the margin kept free, as the sweep recorded it in its `systems`
group; see device_memory.py).

Axes not shown (model, dataset, system, ...) are fixed at their first value unless chosen
with --model, --dataset, --system, ... (one value each: several are refused); the title
says which values are shown.
"""
import warnings

import numpy as np

import command
import device_memory
import paradise_h5 as h5
from figure_output import check_outputs, grid_of, pyplot, save, suptitle

ROW_LABELS = {"batch": "global batch (samples)",
              "resolution": "input side (pixels or voxels per edge)"}
OOM_STYLE = {"marker": "X", "ls": "none", "ms": 8, "mfc": "white", "mec": "black"}
CONTOUR_STYLE = {"colors": "red", "linewidths": 2.5}


def series(path, filters, rows):
    """[(strategy, memory GB [rows × gpus] with NaN for invalid, status)], axes, fixed labels."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    why = "the heat map needs per-point memory (storage = maps or full)"
    # every axis: a heat map is at one value of each (a summary map's cell is a best over some)
    memory, status = h5.map_of(root, "memory", filters, path, why,
                               axes=h5.grid_axes(root) + [rows])
    h5.check_one_value(memory, filters, ("strategy", "gpus", rows), path, "the memory map")
    out, fixed = [], {}
    for s in memory.strategy.values:
        m, fixed = h5.fix_axes(memory.sel(strategy=s), ("gpus", rows))
        st, _ = h5.fix_axes(status.sel(strategy=s), ("gpus", rows))
        st = st.transpose(rows, "gpus").values
        gb = m.transpose(rows, "gpus").values / 1e9
        gb = np.where((st == h5.STATUS_INVALID) | ~(gb > 0), np.nan, gb)
        out.append((str(s), gb, st))
    return out, memory.gpus.values, memory[rows].values, fixed


def plot(maps, gpus, row_values, rows, fixed, usable_gb, device_gb, margin, title):
    fig, axes = grid_of(len(maps), width=5.0, height=4.0)
    finite = np.concatenate([gb[np.isfinite(gb)] for _, gb, _ in maps] + [np.array([usable_gb])])
    from matplotlib.colors import LogNorm  # as pyplot(): only with a figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    norm = LogNorm(vmin=finite.min(), vmax=max(finite.max(), finite.min() * 1.01))
    cmap = pyplot().get_cmap("viridis").copy()
    cmap.set_bad("lightgrey")
    image = None
    for ax, (strategy, gb, st) in zip(axes, maps):
        image = ax.imshow(np.ma.masked_invalid(gb), origin="lower", aspect="auto", cmap=cmap,
                          norm=norm, interpolation="nearest")
        oom_r, oom_c = np.nonzero(st == h5.STATUS_OUT_OF_MEMORY)
        ax.plot(oom_c, oom_r, **OOM_STYLE, label="out of memory")
        # the boundary only where the map crosses it: with the level outside the data's
        # range (everything fits, or nothing) matplotlib draws its contour at the minimum
        # instead, a red line through cells far below the device's memory
        drawn = gb[np.isfinite(gb)]
        if gb.shape[0] > 1 and gb.shape[1] > 1 and drawn.size and \
                drawn.min() < usable_gb < drawn.max():
            with warnings.catch_warnings():  # masked cells
                warnings.simplefilter("ignore")
                ax.contour(np.ma.masked_invalid(gb), levels=[usable_gb], **CONTOUR_STYLE)
        ax.set_xticks(range(len(gpus)))
        ax.set_xticklabels([str(g) for g in gpus], rotation=90 if len(gpus) > 6 else 0)
        ax.set_yticks(range(len(row_values)))
        ax.set_yticklabels([str(v) for v in row_values])
        ax.set_xlabel("number of GPUs")
        ax.set_ylabel(ROW_LABELS[rows])
        ax.set_title(strategy)
    fig.colorbar(image, ax=axes, label="memory per GPU (GB)", fraction=0.03, pad=0.03)
    handles = [Line2D([], [], color=CONTOUR_STYLE["colors"], lw=CONTOUR_STYLE["linewidths"]),
               Line2D([], [], **OOM_STYLE), Patch(color="lightgrey")]
    labels = [f"usable device memory {usable_gb:.4g} GB ({device_gb:g} GB less {margin:.0%})",
              "out of memory", "invalid configuration"]
    fig.legend(handles, labels, loc="lower center", ncol=3)
    suptitle(fig, f"Memory per GPU and feasibility: {h5.panel_title(fixed)}\n({title})")
    fig.subplots_adjust(bottom=0.16, top=0.86, hspace=0.5, wspace=0.35, right=0.84)
    return fig


def main():
    p = command.parser(__doc__.split("\n\n")[0])
    p.add_argument("--rows", choices=sorted(ROW_LABELS), default="batch",
                   help="vertical axis (default batch)")
    device_memory.add_options(p)
    args = p.parse_args()
    check_outputs(args, "memory-map")  # before any work: a refused path wastes none
    device_memory.check_options(args)
    with h5.reading(args.file):
        maps, gpus, row_values, fixed = series(args.file, h5.parse_filters(args), args.rows)
    system = str(fixed["system"])
    usable, device_gb, margin = device_memory.usable_memory_bytes(system, args, args.file)
    fig = plot(maps, gpus, row_values, args.rows, fixed, usable / 1e9, device_gb, margin,
               h5.source_label(h5.open_sweep(args.file)))
    save(fig, args, "memory-map", notes={"usable_memory_gb": usable / 1e9,
                                          "device_memory_gb": device_gb, "rows": args.rows,
                                          "row_values": [int(v) for v in row_values],
                                          "gpus": [int(g) for g in gpus],
                                          "fixed": h5.panel_title(fixed)})


if __name__ == "__main__":
    command.run(main)
