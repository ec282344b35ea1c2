#!/usr/bin/python3
"""pareto.py FILE.h5 [-o OUT.png] [--pdf] [--x gpus|gpu_hours]: Pareto fronts of epoch time
against GPUs (or GPU-hours per epoch), one panel per model × dataset [× resolution]
[× precision] [× optimizer], one line per strategy, the front highlighted.

A strategy's line is its shortest feasible epoch at each GPU count over the axes not shown
(system, batch, network; narrow them with --system, --batch, ...). It comes from the epoch
time map when the file has one over the panel axes, strategy, gpus and each axis chosen
(storage = full, or summary not reduced over those), else from the file's `pareto` group
(storage = maps, summary), which holds only the points on the engine's fronts (with the
default third objective, memory, also slower points that need less memory: a line takes
the fastest of its points at each GPU count). The
highlighted front is the set of drawn points that no other beats in both objectives.

Every strategy of the selection is in the legend: one with no point in a panel (nothing
feasible; from the pareto group, none on the stored fronts) is named in that panel and on
standard error. The title names the axes held at one value (the system of a one-system
sweep, or the one chosen with --system) and those the lines take the best over.

A pareto group whose objective is the time to train (`[pareto] objectives = time_to_train,
...`, docs/time-to-train.md) and no epoch times draws the time to train instead.
"""
import os
import sys

import numpy as np

import command
import paradise_h5 as h5
from figure_output import (axes_title, check_outputs, gpu_axis, grid_of, legend_below,
                           log_value_axis, save, strategy_styles, suptitle)

FACETS = ("model", "dataset", "resolution", "precision", "optimizer", "implementation")  # default group
X_LABELS = {"gpus": "number of GPUs", "gpu_hours": "GPU-hours per epoch (GPU·h)"}
# Panels one figure holds: 48 make a 7 x 7 grid of 6 x 4.2 inches (6,300 x 4,500 pixels);
# a 2,000-value resolution axis made 2,000 panels (9.6 GB, minutes, then MemoryError).
MAX_PANELS = 48


def from_map(epoch, status, panel):
    """{strategy: (gpus, epoch seconds)}: the shortest feasible epoch per GPU count."""
    t = epoch.sel(panel).where(status.sel(panel) == h5.STATUS_OK)
    other = [d for d in t.dims if d not in ("strategy", "gpus")]
    best = t.min(dim=other, skipna=True) if other else t
    out = {}
    for s in best.strategy.values:
        line = best.sel(strategy=s)
        ok = np.isfinite(line.values)
        if ok.any():
            out[str(s)] = (line.gpus.values[ok].astype(float), line.values[ok])
    return out


# The time drawn: the epoch's, or (a pareto group with the time to train only) the training's.
QUANTITIES = {"epoch_time_s": "epoch time", "time_to_train_s": "time to train"}


def from_table(table, panel, column="epoch_time_s"):
    """{strategy: (gpus, seconds)} from the pareto group rows of one panel."""
    keep = np.ones(table.sizes["point"], dtype=bool)
    for axis, value in panel.items():
        keep &= table[axis].values == value
    strategies = table.strategy.values[keep]
    gpus, seconds = table.gpus.values[keep], table[column].values[keep]
    out = {}
    for s in dict.fromkeys(strategies):
        mine = strategies == s
        xs = np.unique(gpus[mine])
        out[str(s)] = (xs.astype(float), np.array([seconds[mine & (gpus == g)].min() for g in xs]))
    return out


def front(points):
    """The (x, y) points no other beats in both (minimised), sorted by x."""
    kept, best_y = [], np.inf
    for x, y in sorted(points):
        if y < best_y:
            kept.append((x, y))
            best_y = y
    return kept


def series(path, filters, x="gpus", source="auto"):
    """The plotted panels: [{panel, strategies: {name: (x, y)}, front: [(x, y)], absent:
    [names]}], the source, {fixed axis: value}, [axes the lines are the best over], the
    root, [the selection's strategies], why a strategy can be absent and the time drawn
    (QUANTITIES' key)."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    why = ("the Pareto plot needs epoch times (storage = full, or a pareto group with "
           "epoch_time_s) or times to train (a pareto group with time_to_train_s)")
    column = "epoch_time_s"
    # the map serves when it has every panel axis, strategy, gpus and each chosen axis (a
    # summary file's may be reduced over some); the pareto group has every axis
    needs = tuple(a for a in h5.grid_axes(root) if a in FACETS + ("strategy", "gpus"))
    use_map = source == "map"
    if source == "auto":
        use_map = h5.has_map(root, "epoch", needs + tuple(filters))
    if use_map:
        epoch, status = h5.map_of(root, "epoch", filters, path, why, axes=needs)
        axes = epoch
        lines_of = lambda panel: from_map(epoch, status, panel)  # noqa: E731
        absence = "no feasible configuration"
    else:
        axes = h5.select(h5.axes_of(root), filters, path)
        table = h5.select_rows(h5.open_sweep(path, "pareto"), filters, path, root)
        column = next((c for c in QUANTITIES if c in table.variables), column)
        h5.require(table, [column] + h5.grid_axes(axes), path, why, "pareto/", root)
        lines_of = lambda panel: from_table(table, panel, column)  # noqa: E731
        absence = (f"no point on the file's Pareto fronts (storage = {h5.storage(root)} keeps "
                   "only the fronts' points; storage = full draws every feasible strategy)")
    check_panel_count(axes, path)
    # the chosen values of every axis (a summary map may lack the axes it was reduced over)
    chosen = h5.select(h5.axes_of(root), filters, path)
    strategies = [str(s) for s in chosen.strategy.values]
    out = []
    for panel in h5.panels(axes, FACETS):
        lines = lines_of(panel)
        if x == "gpu_hours":
            lines = {s: (g * t / 3600.0, t) for s, (g, t) in lines.items()}
        if lines:
            points = [p for xs, ys in lines.values() for p in zip(xs, ys)]
            out.append({"panel": panel, "strategies": lines, "front": front(points),
                        "absent": [s for s in strategies if s not in lines]})
    if not out:
        raise h5.InputError(f"{path}: no feasible configuration in the selection")
    fixed, over = h5.fixed_and_varied(chosen, [a for a in h5.grid_axes(root) if a not in needs])
    return (out, ("epoch map" if use_map else "pareto group"), fixed, over, root, strategies,
            absence, column)


def check_panel_count(axes, path):
    """InputError, before any panel is computed, when the chosen values make more panels than
    MAX_PANELS, naming the options that narrow them."""
    sizes = {a: axes.sizes[a] for a in FACETS if a in axes.dims}
    count = int(np.prod(list(sizes.values()), dtype=float))
    if count <= MAX_PANELS:
        return
    product = " × ".join(f"{a} {n}" for a, n in sizes.items())
    options = ", ".join("--" + a for a, n in sizes.items() if n > 1)
    raise h5.InputError(f"{path}: {count} panels ({product}), more than the {MAX_PANELS} one "
                        f"figure holds; choose fewer values with {options}")


def plot(panels, source, fixed, best_over, root, x, strategies, absence, column="epoch_time_s"):
    quantity = QUANTITIES[column]
    styles = strategy_styles([str(s) for s in root.strategy.values])
    fig, axes = grid_of(len(panels))
    handles = {}
    for ax, p in zip(axes, panels):
        for s, (xs, ys) in p["strategies"].items():
            handles[s] = ax.plot(xs, ys, ms=4, lw=1.2, label=s, **styles[s])[0]
        if p["absent"]:  # said where it is missing, not left for the reader to notice
            ax.text(0.02, 0.02, f"not drawn: {', '.join(p['absent'])}\n({absence.split(' (')[0]})",
                    transform=ax.transAxes, fontsize=8, ha="left", va="bottom", zorder=4,
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "grey"})
        fx, fy = zip(*p["front"])
        handles["Pareto front"] = ax.plot(fx, fy, drawstyle="steps-post", color="black", lw=2.2,
                                          marker="o", ms=9, mfc="none", alpha=0.75,
                                          label="Pareto front", zorder=3)[0]
        if x == "gpus":
            gpu_axis(ax, [g for xs, _ in p["strategies"].values() for g in xs])
        else:
            ax.set_xscale("log")
            ax.set_xlabel(X_LABELS[x] if column == "epoch_time_s" else "GPU-hours to train (GPU·h)")
        log_value_axis(ax, f"{quantity} (s)")
        axes_title(ax, h5.panel_title(p["panel"]))
        ax.grid(True, which="both", alpha=0.3)
    # every strategy of the selection: one drawn in no panel is listed as not drawn
    labels = [s if s in handles else f"{s} (not drawn)" for s in strategies] + ["Pareto front"]
    from matplotlib.lines import Line2D  # as figure_output.pyplot(): only with a figure
    shown = [handles.get(s) or Line2D([], [], **styles[s]) for s in strategies]
    at = f"at {h5.panel_title(fixed)}; " if fixed else ""
    shortest = "shortest feasible epoch" if column == "epoch_time_s" else "shortest time to train"
    best = f"{shortest} over {', '.join(best_over)}" if best_over else \
        f"its feasible {quantity}"
    x_name = X_LABELS[x].split(' (')[0] if column == "epoch_time_s" or x == "gpus" else \
        "GPU-hours to train"
    top = suptitle(fig, f"{quantity.capitalize()} vs. {x_name}: Pareto fronts "
                 f"({h5.source_label(root)})\n{at}per strategy: {best}; from the {source}")
    legend_below(fig, shown + [handles["Pareto front"]], labels, top)
    return fig


def note_absent(panels, absence, path):
    """One line on standard error per strategy that a panel does not draw."""
    program = os.path.basename(sys.argv[0])
    missing = {}
    for p in panels:
        for s in p["absent"]:
            missing.setdefault(s, []).append(h5.panel_title(p["panel"]))
    for s, where in missing.items():
        print(f"{program}: note: {path}: strategy {s} is not drawn in {'; '.join(where)}: "
              f"{absence}", file=sys.stderr)


def main():
    p = command.parser(__doc__.split("\n\n")[0])
    p.add_argument("--x", choices=sorted(X_LABELS), default="gpus",
                   help="horizontal axis (default gpus)")
    p.add_argument("--source", choices=("auto", "map", "pareto"), default="auto",
                   help="per-strategy lines from the epoch map or the pareto group "
                        "(default: the map when the file has one)")
    args = p.parse_args()
    check_outputs(args, "pareto")  # before any work: a refused path wastes none
    with h5.reading(args.file):
        panels, source, fixed, over, root, strategies, absence, column = series(
            args.file, h5.parse_filters(args), args.x, args.source)
    note_absent(panels, absence, args.file)
    save(plot(panels, source, fixed, over, root, args.x, strategies, absence, column), args,
         "pareto",
         notes={"fixed": h5.panel_title(fixed), "best_over": over})


if __name__ == "__main__":
    command.run(main)
