#!/usr/bin/python3
"""scaling.py FILE.h5 [-o OUT.png] [--pdf]: strong-scaling curves, epoch time against GPU
count at a fixed global batch, one line per strategy, each with its ideal (linear) scaling
from its smallest feasible GPU count dotted (storage = full).

Axes not shown (model, dataset, system, batch, ...) are fixed at their first value unless
chosen with --model, --batch, ... (one value each: several are refused); the title names
them.
"""
import numpy as np

import command
import paradise_h5 as h5
from figure_output import (axes_title, check_outputs, gpu_axis, log_value_axis, pyplot, save,
                           strategy_styles)


def series(path, filters):
    """{strategy: (gpus, epoch seconds)} of the feasible points, {fixed axis: value}, root."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    # every axis: a curve is at one value of each (a summary map's cell is a best over some)
    epoch, status = h5.map_of(root, "epoch", filters, path,
                              "the scaling curves need epoch times at every point "
                              "(storage = full)", axes=h5.grid_axes(root))
    h5.check_one_value(epoch, filters, ("strategy", "gpus"), path, "the scaling plot")
    lines, fixed = {}, {}
    for s in epoch.strategy.values:
        t, fixed = h5.fix_axes(epoch.sel(strategy=s).where(status.sel(strategy=s) == 0),
                               ("gpus",))
        ok = np.isfinite(t.values)
        if ok.any():
            lines[str(s)] = (t.gpus.values[ok], t.values[ok])
    if not lines:
        raise h5.InputError(f"{path}: no feasible configuration at {h5.panel_title(fixed)}")
    return lines, fixed, root


def plot(lines, fixed, root):
    styles = strategy_styles([str(s) for s in root.strategy.values])
    from matplotlib.lines import Line2D  # as pyplot(): only with a figure
    fig, ax = pyplot().subplots(figsize=(8, 5.5))
    for s, (gpus, t) in lines.items():
        ax.plot(gpus, t, label=s, **styles[s])
        ax.plot(gpus, t[0] * gpus[0] / gpus, ls=":", color=styles[s]["color"], label=f"ideal {s}")
    gpu_axis(ax, root.gpus.values)
    log_value_axis(ax, "epoch time (s)")
    ax.grid(True, which="both", alpha=0.3)
    handles = [Line2D([], [], **styles[s]) for s in lines]
    handles.append(Line2D([], [], color="grey", ls=":"))
    ax.legend(handles, list(lines) + ["ideal linear scaling"])
    axes_title(ax, f"Strong scaling: epoch time vs. GPUs at {h5.panel_title(fixed)}\n"
                   f"({h5.source_label(root)}; feasible configurations only)")
    fig.tight_layout()
    return fig


def main():
    args = command.parser(__doc__.split("\n\n")[0]).parse_args()
    check_outputs(args, "scaling")  # before any work: a refused path wastes none
    with h5.reading(args.file):
        lines, fixed, root = series(args.file, h5.parse_filters(args))
    save(plot(lines, fixed, root), args, "scaling", notes={"fixed": h5.panel_title(fixed)})


if __name__ == "__main__":
    command.run(main)
