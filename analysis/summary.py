#!/usr/bin/python3
"""summary.py FILE.h5 [--top N] [--csv]: the fastest feasible configurations per model ×
dataset [× resolution] as a table (or CSV on stdout with --csv): every axis, the epoch
time, GPU-hours per epoch and, when the file has the memory map, memory per GPU.

They are read from the epoch time map when the file has one over model, dataset,
resolution, gpus and each axis chosen (storage = full, or summary not reduced over those; a
row then leaves out the axes the map was reduced over), else from the `pareto` group
(storage = maps, summary), which holds the points of the engine's Pareto fronts: then the
list is the fastest Pareto-optimal configurations, and a choice (or a panel) on an axis
outside the fronts' `group` is refused: its fastest configuration need not be in a front.
A pareto group whose objective is the time to train (`[pareto] objectives = time_to_train,
...`, docs/time-to-train.md) lists the configurations fastest to train instead.
"""
import csv
import sys

import numpy as np

import command
import paradise_h5 as h5

GROUPS = ("model", "dataset", "resolution")


# The shapes a point used, where the sweep searched them (paradise sweep's *_chosen maps and
# pareto columns): 0 (none) where its strategy has none.
CHOSEN = ("spatial_split_chosen", "p2_chosen", "segments_chosen")
SPLITS = ("none", "w", "hw", "all")  # spatial_split_chosen's flag_meanings, by code


def _chosen(name, value):
    """A used shape as the table shows it: the count or split, None where none."""
    if name == "spatial_split_chosen":
        text = value.decode() if isinstance(value, bytes) else str(value)
        text = SPLITS[int(text)] if text.isdigit() and int(text) < len(SPLITS) else text
        return None if text == "none" else text
    return int(value) if int(value) > 0 else None


def _rows_from_map(epoch, status, memory, panel, top, chosen=()):
    t = epoch.sel(panel).where(status.sel(panel) == h5.STATUS_OK)
    flat = t.values.ravel()
    order = np.flatnonzero(np.isfinite(flat))
    order = order[np.argsort(flat[order], kind="stable")][:top]
    m = memory.sel(panel).values.ravel() if memory is not None else None
    rows = []
    for i in order:
        where = np.unravel_index(i, t.shape)
        row = dict(panel)
        row.update({d: t[d].values[k] for d, k in zip(t.dims, where)})
        row["epoch_time_s"] = float(flat[i])
        if m is not None:
            row["memory_per_gpu_bytes"] = float(m[i])
        for c in chosen:
            row[c.name] = _chosen(c.name, c.sel(panel).values.ravel()[i])
        rows.append(row)
    return rows


# The time a pareto group's rows are ranked by: the epoch's, else the time to train.
RANKED_BY = ("epoch_time_s", "time_to_train_s")
VALUES = ("epoch_time_s", "gpu_hours", "time_to_train_s", "gpu_hours_to_train",
          "memory_per_gpu_bytes")


def _rows_from_table(table, panel, top, key):
    keep = np.ones(table.sizes["point"], dtype=bool)
    for axis, value in panel.items():
        keep &= table[axis].values == value
    picked = np.flatnonzero(keep)
    picked = picked[np.argsort(table[key].values[picked], kind="stable")][:top]
    columns = [a for a in h5.AXES if a in table.variables]
    columns += [v for v in VALUES if v in table.variables and v != "gpu_hours"]
    shapes = [c for c in CHOSEN if c in table.variables]
    return [{**{c: table[c].values[i] for c in columns},
             **{c: _chosen(c, table[c].values[i]) for c in shapes}} for i in picked]


def _require_front_axes(pareto, axes, filters, path):
    """The fronts are per combination of the group's axes (the `group` attribute): a choice
    on another axis, or a panel per value of one, would keep only front points of it, which
    need not hold that value's fastest configuration. Refused, naming what would serve."""
    if "group" not in pareto.attrs:  # a file from before the attribute: unknown, allowed
        return
    group = [a.strip() for a in str(pareto.attrs["group"]).split(",") if a.strip()]
    panel_axes = [a for a in GROUPS if a in axes.dims and axes.sizes[a] > 1]
    outside = [a for a in list(filters) + panel_axes if a not in group]
    if outside:
        raise h5.InputError(
            f"{path}: the map this needs is reduced, and the pareto group's fronts are per "
            f"{', '.join(group) or 'the whole grid'} ([pareto] group): a choice or panel on "
            f"{', '.join(dict.fromkeys(outside))} would list front points only, not its "
            "fastest configurations; use storage = maps, or add it to [pareto] group")


def best(path, filters, top):
    """(rows as dicts in group order, source): the top fastest feasible configurations."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    why = ("the summary needs epoch times (a map, or a pareto group with epoch_time_s) or "
           "times to train (a pareto group with time_to_train_s)")
    # the map serves when it has the groups, gpus (for GPU-hours) and each chosen axis (a
    # summary file's may be reduced over some); the pareto group has every axis
    needs = tuple(a for a in h5.grid_axes(root) if a in GROUPS + ("gpus",))
    has_map = h5.has_map(root, "epoch", needs + tuple(filters))
    if has_map:
        # a summary file's least memory may belong to another point than the least time
        epoch, status, memory, *chosen = h5.map_of(root, "epoch", filters, path, why,
                                                   axes=needs,
                                                   also=("memory_per_gpu_bytes",) + CHOSEN)
        chosen = [c for c in chosen if c is not None]
        reduced = h5.reduced_axes(root)
        axes, source = epoch, "epoch map" + (f" (each row the best over {', '.join(reduced)})"
                                             if reduced else "")
        rows_of = lambda panel: _rows_from_map(epoch, status, memory, panel, top,  # noqa: E731
                                               chosen)
    else:
        axes = h5.select(h5.axes_of(root), filters, path)
        pareto = h5.open_sweep(path, "pareto")
        _require_front_axes(pareto, axes, filters, path)
        table = h5.select_rows(pareto, filters, path, root)
        key = next((k for k in RANKED_BY if k in table.variables), "epoch_time_s")
        h5.require(table, [key] + h5.grid_axes(axes), path, why, "pareto/", root)
        source = "pareto group (Pareto-optimal points only" + (
            ", ranked by the time to train)" if key == "time_to_train_s" else ")")
        rows_of = lambda panel: _rows_from_table(table, panel, top, key)  # noqa: E731
    rows = []
    for panel in h5.panels(axes, GROUPS):
        for rank, row in enumerate(rows_of(panel), start=1):
            if "epoch_time_s" in row:
                row["gpu_hours"] = float(row["gpus"]) * row["epoch_time_s"] / 3600.0
            rows.append({"rank": rank, **row})
    if not rows:
        raise h5.InputError(f"{path}: no feasible configuration in the selection")
    return rows, source


def _columns(rows):
    keys = list(rows[0])
    return [k for k in keys if k not in VALUES] + [k for k in VALUES if k in keys]


def _text(key, value):
    if value is None:  # a shape the configuration's strategy does not have
        return "-"
    if key == "epoch_time_s":
        return f"{value:.2f}"
    if key == "gpu_hours":
        return f"{value:.3f}"
    if key == "time_to_train_s":
        return f"{value:.1f}"
    if key == "gpu_hours_to_train":
        return f"{value:.2f}"
    if key == "memory_per_gpu_bytes":
        return f"{value / 1e9:.2f}"
    # a name from a sweep file (a custom dataset's) reaches a terminal: control characters
    # written \xNN, as paradise's own tables do (issue 35: an escape sequence was printed raw)
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256
                   else f"\\u{ord(ch):04x}" for ch in str(value))


HEADINGS = {"epoch_time_s": "epoch time s", "gpu_hours": "GPU-hours",
            "time_to_train_s": "time to train s", "gpu_hours_to_train": "GPU-h to train",
            "memory_per_gpu_bytes": "memory GB/GPU", "spatial_split_chosen": "split used",
            "p2_chosen": "p2 used", "segments_chosen": "S used"}


def print_table(rows, out):
    # a used shape no listed configuration has: no column (the CSV keeps it, empty)
    columns = [c for c in _columns(rows) if c not in CHOSEN or any(r[c] is not None for r in rows)]
    heads = [HEADINGS.get(c, c.replace("_", " ")) for c in columns]
    cells = [[_text(c, r[c]) for c in columns] for r in rows]
    widths = [max(len(h), *(len(row[i]) for row in cells)) for i, h in enumerate(heads)]
    numeric = [isinstance(rows[0][c], (int, float, np.integer, np.floating)) for c in columns]

    def line(values):
        return "  ".join(v.rjust(w) if n else v.ljust(w)
                         for v, w, n in zip(values, widths, numeric)).rstrip()

    print(line(heads), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for row in cells:
        print(line(row), file=out)


def print_csv(rows, out):
    columns = _columns(rows)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow(["" if r[c] is None  # a shape the strategy does not have
                         else repr(float(r[c])) if isinstance(r[c], (float, np.floating))
                         else str(r[c]) for c in columns])


def main():
    p = command.parser(__doc__.split("\n\n")[0], output=False)
    p.add_argument("--top", type=int, default=3, metavar="N",
                   help="configurations per model and dataset (default 3)")
    p.add_argument("--csv", action="store_true", help="CSV on stdout instead of the table")
    args = p.parse_args()
    if args.top < 1:
        p.error("--top must be >= 1")
    with h5.reading(args.file):
        rows, source = best(args.file, h5.parse_filters(args), args.top)
    if args.csv:
        print_csv(rows, sys.stdout)
    else:
        what = "fastest to train" if "time to train" in source else "fastest"
        print(f"{args.file}: the {args.top} {what} feasible configurations per model and "
              f"dataset, from the {source}\n")
        print_table(rows, sys.stdout)


if __name__ == "__main__":
    command.run(main)
