"""Reading the HDF5 file `paradise sweep` writes (netCDF-4 layout) for the analysis commands.

Opens the root maps and the `pareto` and `memlimit` groups with xarray, narrows the axes to
the values the user chose (--model resnet50 ...), fixes the axes a plot does not show, and
turns every problem with the input into an InputError whose message names the file and
what is missing; the commands print it on one line and exit with code 2.
"""
import itertools
import os

import h5py
import numpy as np
import xarray as xr

STATUS_OK, STATUS_OUT_OF_MEMORY, STATUS_INVALID = 0, 1, 2

# The grid axes in the order the file stores them (bracketed ones only when swept).
AXES = ("model", "dataset", "resolution", "system", "network_bandwidth_gbps",
        "network_latency_us", "strategy", "gpus", "batch")
CATEGORICAL_AXES = ("model", "dataset", "system", "strategy")

# Per-point maps and the names the same quantity has in a storage = summary file.
MAP_NAMES = {
    "epoch": [("epoch_time_s", "status"), ("min_epoch_time_s", "best_status")],
    "memory": [("memory_per_gpu_bytes", "status"), ("min_memory_per_gpu_bytes", "best_status")],
}


class InputError(Exception):
    """Bad input (file, variable, axis value); the message names the file and what is missing."""


def open_sweep(path, group=None):
    """The root (or a group) of a sweep file as an xarray Dataset; InputError if unreadable."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if not h5py.is_hdf5(path):
        raise InputError(f"{path}: not an HDF5 file (expected the output of paradise sweep)")
    with h5py.File(path, "r") as f:
        if "storage" not in f.attrs:
            raise InputError(f"{path}: not a paradise sweep file (no 'storage' attribute)")
        if group is not None and group not in f:
            raise InputError(f"{path}: no group '{group}'")
    return xr.open_dataset(path, engine="h5netcdf", group=group)


def storage(ds):
    """The file's storage kind: full, maps or summary."""
    return str(ds.attrs.get("storage", "?"))


def require(ds, names, path, why, where=""):
    """InputError unless every variable in names is in ds."""
    for name in names:
        if name not in ds.variables:
            raise InputError(f"{path}: no variable '{where}{name}' (storage = {storage(ds)}); "
                             f"{why}")


def map_variable(ds, kind, path, why):
    """(values, status) DataArrays of a per-point map ('epoch' or 'memory'), full or summary."""
    for value, status in MAP_NAMES[kind]:
        if value in ds.variables and status in ds.variables:
            return ds[value], ds[status]
    raise InputError(f"{path}: no variable '{MAP_NAMES[kind][0][0]}' "
                     f"(storage = {storage(ds)}); {why}")


def grid_axes(ds):
    """The grid axes present in a dataset, in file order."""
    return [a for a in AXES if a in ds.dims]


def parse_filters(args):
    """{axis: [text values]} from the --model/--dataset/... options that were given."""
    out = {}
    for axis in AXES:
        text = getattr(args, axis, None)
        if text:
            out[axis] = [v.strip() for v in text.split(",") if v.strip()]
    return out


def _typed(ds, axis, texts, path):
    """The filter values as the axis stores them; InputError for values not on the axis."""
    have = list(ds[axis].values)
    out = []
    for t in texts:
        value = t
        if axis not in CATEGORICAL_AXES:
            try:
                value = int(t)
            except ValueError:
                raise InputError(f"{path}: {axis} '{t}' is not an integer") from None
        if value not in have:
            listed = ", ".join(str(v) for v in have)
            raise InputError(f"{path}: no {axis} '{t}' in the file (it has: {listed})")
        out.append(value)
    return out


def select(ds, filters, path, root=None):
    """ds narrowed to the chosen values; axes are checked against root's (default ds's)."""
    root = ds if root is None else root
    for axis, texts in filters.items():
        if axis not in root.dims:
            raise InputError(f"{path}: no {axis} axis (axes: {', '.join(grid_axes(root))})")
        if axis in ds.dims:
            ds = ds.sel({axis: _typed(root, axis, texts, path)})
    return ds


def select_rows(table, filters, path, root):
    """Rows of a 1-D table (the pareto group) whose columns hold the chosen values."""
    if table.sizes.get("point", 0) == 0:  # a sweep where nothing fits: an empty front
        raise InputError(f"{path}: no feasible configuration (the pareto group is empty)")
    keep = np.ones(table.sizes["point"], dtype=bool)
    for axis, texts in filters.items():
        if axis not in root.dims:
            raise InputError(f"{path}: no {axis} axis (axes: {', '.join(grid_axes(root))})")
        values = _typed(root, axis, texts, path)
        if axis in table.variables:
            keep &= np.isin(table[axis].values, values)
    return table.isel(point=np.flatnonzero(keep))


def value_label(axis, value):
    """How a fixed axis value reads in a title: 'resnet50', 'batch 256'."""
    if axis in CATEGORICAL_AXES:
        return str(value)
    return f"{axis.replace('_', ' ')} {value}"


def fix_axes(da, keep):
    """da reduced to the dims in keep: every other axis at its first (or only) chosen value.

    Returns the narrowed DataArray and {axis: value} of the fixed axes (for the title)."""
    fixed = {a: da[a].values[0] for a in da.dims if a not in keep}
    return da.isel({a: 0 for a in fixed}), fixed


def panels(ds, axes):
    """Every combination of values on the given axes (those present in ds), as dicts."""
    axes = [a for a in axes if a in ds.dims]
    for combo in itertools.product(*(list(ds[a].values) for a in axes)):
        yield dict(zip(axes, combo))


def panel_title(panel):
    """'resnet50 · imagenet' for a panel dict."""
    return " · ".join(value_label(a, v) for a, v in panel.items())


def source_label(ds):
    """'sweep quickstart.ini, storage = full': where a figure's data comes from."""
    title = str(ds.attrs.get("title", ""))
    sweep = os.path.basename(title.split("ParaDiSE sweep ", 1)[-1]) if title else "?"
    return f"sweep {sweep}, storage = {storage(ds)}"
