"""Reading the HDF5 file `paradise sweep` writes (netCDF-4 layout) for the analysis commands.

Opens the root maps and the `pareto` and `memlimit` groups with xarray, narrows the axes to
the values the user chose (--model resnet50 ...), fixes the axes a plot does not show, and
turns every problem with the input into an InputError whose message names the file and
what is missing; the commands print it on one line and exit with code 2.

A storage = summary file with `reduce = A, B` keeps the coordinates of every axis, but its
maps have no A and B axes (each cell is the best over them): a command reads the variables
it needs with their own axes (`select(root[[names]], ...)`), so that a choice on a reduced
axis is refused instead of narrowing a coordinate no map uses.
"""
import contextlib
import itertools
import math
import os
import signal
import time

import h5py
import numpy as np
import xarray as xr

STATUS_OK, STATUS_OUT_OF_MEMORY, STATUS_INVALID = 0, 1, 2

# The grid axes in the order the file stores them (bracketed ones only when swept).
AXES = ("model", "dataset", "resolution", "system", "network_bandwidth_gbps",
        "network_latency_us", "input_cpu_cores_per_node", "input_node_read_GBps",
        "input_filesystem_GBps", "strategy", "precision", "optimizer", "zero_stage", "recompute",
        "implementation", "spatial_split", "p2", "segments", "gpus", "batch")
# Text-valued axes (p2 and segments: a count or "auto").
CATEGORICAL_AXES = ("model", "dataset", "system", "strategy", "precision", "optimizer",
                    "recompute", "implementation", "spatial_split", "p2", "segments")
# The axes every sweep file has (the others only when swept).
SWEEP_AXES = ("model", "dataset", "system", "strategy", "gpus", "batch")

# The per-point quantities the commands read. Which variable holds one, and its status flags,
# the file says: paradise sweep writes its table of maps (src/engine/output_layout.cpp) into
# each map's attributes: a storage = summary cell's least value names the per-point map in
# `minimum_of`, and every value map its status flags in `ancillary_variables` (CF).
MAP_QUANTITIES = {"epoch": "epoch_time_s", "memory": "memory_per_gpu_bytes"}


class InputError(Exception):
    """Bad input (file, variable, axis value); the message names the file and what is missing."""


def _cause(error):
    """The first line of an h5py/h5netcdf error message, without the trailing full stop."""
    lines = str(error).strip().splitlines() or [type(error).__name__]
    return lines[0].strip().strip("'").rstrip(".")  # a KeyError's text comes quoted


def _from_hdf5(error):
    """Whether a KeyError is h5py's report of an HDF5 failure ("Unable to open object ...")."""
    return "Unable to" in str(error)


def open_sweep(path, group=None):
    """The root (or a group) of a sweep file as an xarray Dataset; InputError if unreadable.

    A file without the `complete` attribute, which paradise sweep writes last, is refused as
    unfinished: an interrupted sweep's OUT.h5.tmp holds unwritten chunks that read as
    status 0 (ok) and time 0."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if not h5py.is_hdf5(path):
        raise InputError(f"{path}: not an HDF5 file (expected the output of paradise sweep)")
    probe_structure(path)
    try:
        with h5py.File(path, "r") as f:
            if "storage" not in f.attrs:
                raise InputError(f"{path}: not a paradise sweep file (no 'storage' attribute)")
            for axis in SWEEP_AXES:
                if not isinstance(f.get(axis), h5py.Dataset):
                    raise InputError(f"{path}: not a paradise sweep file (no '{axis}' axis)")
            complete = f.attrs.get("complete")
            if isinstance(complete, bytes):
                complete = complete.decode("utf-8", "replace")
            if "complete" not in f.attrs or str(complete) != "true":
                raise InputError(f"{path}: an unfinished sweep (no 'complete' attribute 'true', which "
                                 "paradise sweep writes last): use the OUT.h5 of a finished "
                                 "run, or finish this one with paradise sweep --resume")
            if group is not None and group not in f:
                raise InputError(f"{path}: no group '{group}'")
            _check_objects(f, path)
            _check_data(f, path)
    except (OSError, KeyError, RuntimeError) as e:  # HDF5 cannot open it: truncated, damaged
        # superblock, object header (a copy cut short: "bad object header version number") or
        # attribute message (h5py's RuntimeError: "bad version number for attribute message")
        if isinstance(e, KeyError) and not _from_hdf5(e):
            raise
        raise InputError(f"{path}: cannot read the HDF5 file ({_cause(e)})") from None
    try:
        ds = xr.open_dataset(path, engine="h5netcdf", group=group)
        if group == "pareto":
            _check_pareto(ds, xr.open_dataset(path, engine="h5netcdf"), path)
        elif group is None:
            _check_axes(ds, path)
        return ds
    except ValueError as e:  # h5netcdf: an HDF5 file, but not the netCDF-4 layout of a sweep
        raise InputError(f"{path}: not a paradise sweep file ({_cause(e)})") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read the HDF5 file ({_cause(e)})") from None
    except (KeyError, AttributeError, TypeError, IndexError, RuntimeError) as e:
        # damage _check_objects did not see (an attribute, a dimension list): h5netcdf fails
        # on what h5py hands it, e.g. None for an object it cannot open
        raise InputError(f"{path}: cannot read the HDF5 file (the netCDF reader failed: "
                         f"{type(e).__name__}); the file is damaged") from None


PROBE_SECONDS = 30  # a sweep file's structure reads in well under a second
_probed = set()  # files probed in this process (a command opens its file several times)


def _probe_seconds():
    """PROBE_SECONDS, or $PARADISE_PROBE_SECONDS where it is a positive number (the tests
    shorten the wait for a file that hangs HDF5)."""
    try:
        seconds = float(os.environ.get("PARADISE_PROBE_SECONDS", PROBE_SECONDS))
    except ValueError:
        return PROBE_SECONDS
    return seconds if 0 < seconds < math.inf else PROBE_SECONDS


def probe_structure(path):
    """InputError when reading the file's structure crashes or hangs the HDF5 library.

    Some damage (a group's link storage, a dimension list) makes HDF5 abort ("free(): invalid
    size") or loop for ever in C, where Python can neither catch nor interrupt it. So a forked
    child reads the structure first, as open_sweep will (every object, every group through
    h5netcdf); the parent only watches how it ends. Its Python errors are the parent's to
    report (the same reads raise them again there, as InputErrors naming the cause)."""
    key = os.path.realpath(path)
    if key in _probed or not hasattr(os, "fork"):
        return
    _probed.add(key)
    pid = os.fork()
    if pid == 0:  # the child: no output (glibc's abort message), no exit handlers
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            _read_structure(path)
        finally:
            os._exit(0)
    seconds = _probe_seconds()
    status = _wait(pid, seconds)
    if status is None:
        raise InputError(f"{path}: reading the file's structure did not end in {seconds:g} s "
                         "(a loop in the HDF5 library); the file is damaged")
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise InputError(f"{path}: the HDF5 library crashed reading the file's structure "
                         f"({name}); the file is damaged")


def _wait(pid, seconds):
    """The child's wait status, or None after killing it when it ran past seconds (killed
    too when the parent is interrupted: no child is left behind)."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                pid = 0  # reaped: nothing to kill
                return status
            time.sleep(0.005)
        return None
    finally:
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def _read_structure(path):
    """What open_sweep reads of every group (in the probe's child; errors are ignored there)."""
    groups = [None]
    with h5py.File(path, "r") as f:
        _check_objects(f, path)
        f.visit(lambda name: groups.append(name) if isinstance(f[name], h5py.Group) else None)
    for group in groups:
        xr.open_dataset(path, engine="h5netcdf", group=group).close()


POSITIVE_AXES = ("resolution", "input_cpu_cores_per_node", "gpus", "batch")  # counts, sizes: >= 1


def _check_axes(root, path):
    """InputError unless the counts on the axes are at least 1 (a hand-edited file)."""
    for axis in POSITIVE_AXES:
        if axis in root.variables and (root[axis].values < 1).any():
            bad = root[axis].values[root[axis].values < 1][0]
            raise InputError(f"{path}: axis '{axis}' holds {bad}, not a count >= 1; the file "
                             "is damaged or was edited")


def _check_pareto(table, root, path):
    """InputError unless the pareto group is the table paradise sweep writes: every column one
    value per point, text that decodes, each axis column's values on the root's axis, and
    positive times (the commands index the root's axes with these values)."""
    def damaged(what):
        return InputError(f"{path}: {what}; the file is damaged or was edited")

    try:
        table.load()  # lazily read values fail here, not in a plot
    except UnicodeDecodeError as e:
        raise damaged(f"the pareto group holds text that is not UTF-8 ({e.reason})") from None
    for name, var in table.variables.items():
        if var.dims != ("point",):
            raise damaged(f"pareto/{name} has dimensions {var.dims}, not one value per point")
    for axis in AXES:
        if axis not in table.variables:
            continue
        if axis not in root.variables:
            raise damaged(f"pareto/{axis}: {axis} is not an axis of the file")
        have = set(root[axis].values.tolist())
        off = [v for v in table[axis].values.tolist() if v not in have]
        if off:
            raise damaged(f"pareto/{axis} holds {off[0]!r}, not a value of the file's {axis} axis")
    for name in ("epoch_time_s", "memory_per_gpu_bytes", "gpu_hours"):
        if name in table.variables:
            values = np.asarray(table[name].values, dtype=float)
            if not (np.isfinite(values) & (values >= 0)).all():
                raise damaged(f"pareto/{name} holds {values[~(np.isfinite(values) & (values >= 0))][0]}, "
                              "not a finite value >= 0")


def _check_objects(group, path):
    """InputError naming the first object of the file HDF5 cannot open (a damaged object
    header: h5py's KeyError, which h5netcdf turned into None and then an AttributeError)."""
    for name in group:
        try:
            obj = group[name]
        except (KeyError, RuntimeError) as e:  # RuntimeError: "bad version number for message"
            if isinstance(e, KeyError) and not _from_hdf5(e):
                raise
            raise InputError(f"{path}: cannot read the HDF5 file's object '{group.name.rstrip('/')}"
                             f"/{name}' ({_cause(e)}); the file is damaged") from None
        if isinstance(obj, h5py.Group):
            _check_objects(obj, path)


_data_checked = set()  # files whose every value was read back in this process


def _check_data(f, path):
    """InputError naming the first dataset whose values do not read back (a damaged chunk:
    "Can't read data (inflate() failed)"). Every value, chunk by chunk (bounded memory), once
    per file: a command that read only the Pareto table took such a file for a good one."""
    key = os.path.realpath(path)
    if key in _data_checked:
        return
    datasets = []
    f.visititems(lambda name, obj: datasets.append(name) if isinstance(obj, h5py.Dataset)
                 else None)
    for name in datasets:
        d = f[name]
        try:
            if d.chunks is None or d.size == 0:
                d[()]
            else:
                for where in d.iter_chunks():
                    d[where]
        except (OSError, RuntimeError, ValueError) as e:
            raise InputError(f"{path}: cannot read the HDF5 file's data ('{name}': "
                             f"{_cause(e)}); the file is damaged") from None
    _data_checked.add(key)


@contextlib.contextmanager
def reading(path):
    """Around the code that uses a sweep file's values: xarray reads them lazily, so a damaged
    chunk fails there, not in open_sweep; h5py's OSError becomes an InputError naming path."""
    try:
        yield
    except (OSError, KeyError, UnicodeDecodeError) as e:  # "Can't read data (inflate() failed)"
        if isinstance(e, KeyError) and not _from_hdf5(e):
            raise  # a script's own lookup, not the file
        raise InputError(f"{path}: cannot read the HDF5 file's data ({_cause(e)}); "
                         "the file is damaged") from None


def storage(ds, root=None):
    """The file's storage kind: full, maps or summary (a root attribute: give the root
    dataset when ds is a group's)."""
    return str((root if root is not None else ds).attrs.get("storage", "?"))


def require(ds, names, path, why, where="", root=None):
    """InputError unless every variable in names is in ds (a group's: give its root)."""
    for name in names:
        if name not in ds.variables:
            raise InputError(f"{path}: no variable '{where}{name}' "
                             f"(storage = {storage(ds, root)}); {why}")


def _text(value):
    """An attribute's value as text (h5netcdf gives fixed-length strings as bytes or str)."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def map_names(ds, kind):
    """(value, status) names of the map holding the quantity kind ('epoch' or 'memory'): the
    per-point map itself or a summary file's least value of it, by the file's layout
    attributes; None if the file has neither, with its status flags."""
    quantity = MAP_QUANTITIES[kind]
    for name, var in ds.data_vars.items():
        if name != quantity and _text(var.attrs.get("minimum_of", "")) != quantity:
            continue
        status = _text(var.attrs.get("ancillary_variables", ""))
        if status in ds.variables:
            return name, status
    return None


def map_variable(ds, kind, path, why):
    """(values, status) DataArrays of a per-point map ('epoch' or 'memory'), full or summary."""
    names = map_names(ds, kind)
    if names is not None:
        return ds[names[0]], ds[names[1]]
    quantity = MAP_QUANTITIES[kind]
    if quantity in ds.variables and "storage_levels" not in ds[quantity].attrs:
        raise InputError(f"{path}: variable '{quantity}' has no layout attributes "
                         "(storage_levels, ancillary_variables): a file of an older paradise "
                         "sweep; run the sweep again")
    raise InputError(f"{path}: no variable '{quantity}' (storage = {storage(ds)}); {why}")


def reduced_axes(root):
    """The axes a storage = summary file's maps were reduced over (its `reduce`), else []."""
    maps = [root[v] for v in root.data_vars]
    return [a for a in grid_axes(root) if maps and not any(a in m.dims for m in maps)]


def has_map(root, kind, axes=()):
    """Whether the file has the map kind over each of axes the file has (a summary file's may
    be reduced over some); axes the file lacks (an unswept resolution) are left out."""
    names = map_names(root, kind)
    return names is not None and all(a in root[names[0]].dims for a in axes if a in root.dims)


def require_axes(da, axes, path, why, root):
    """InputError unless da spans every one of axes (a summary map may be reduced over some)."""
    for axis in axes:
        if axis not in root.dims:
            raise InputError(f"{path}: no {axis} axis (axes: {', '.join(grid_axes(root))}); "
                             f"{why}")
        if axis not in da.dims:
            if axis in reduced_axes(root):
                how = f"storage = summary, reduce = {', '.join(reduced_axes(root))}"
            else:
                how = f"axes: {', '.join(da.dims)}"
            raise InputError(f"{path}: variable '{da.name}' has no {axis} axis ({how}); {why}")


def map_of(root, kind, filters, path, why, axes=(), also=()):
    """(values, status, *also) of a per-point map narrowed to the chosen values.

    InputError if the file has no such map, if the map lacks one of axes, or if a value is
    chosen on an axis the map was reduced over. also: other variables over the same axes
    (None where the file has none)."""
    values, status = map_variable(root, kind, path, why)
    names = [values.name, status.name] + [v for v in also if v in root.data_vars]
    ds = select(root[names], filters, path, root)
    require_axes(ds[values.name], axes, path, why, root)
    check_flags(ds[status.name], path)
    return (ds[values.name], ds[status.name]) + tuple(ds[v] if v in ds else None for v in also)


def check_flags(status, path):
    """InputError unless every chosen point's status is one of the variable's CF flag_values
    (0 ok, 1 out of memory, 2 invalid): a hand-edited 9 was drawn as neither feasible nor
    out of memory, without a word. Reads the narrowed map (what the plot reads anyway)."""
    allowed = np.asarray(status.attrs.get("flag_values", (STATUS_OK, STATUS_OUT_OF_MEMORY,
                                                           STATUS_INVALID)))
    values = np.asarray(status.values)
    bad = ~np.isin(values, allowed)
    if bad.any():
        codes = ", ".join(str(v) for v in allowed.tolist())
        raise InputError(f"{path}: variable '{status.name}' holds {values[bad][0]}, not one of its "
                         f"flag_values ({codes}); the file is damaged or was edited")


def axes_of(root):
    """The file's coordinates without its maps (to choose panels when the data is a table)."""
    return root.drop_vars(list(root.data_vars))


def grid_axes(ds):
    """The grid axes present in a dataset, in file order."""
    return [a for a in AXES if a in ds.dims]


# Names the precision axis stores under another: paradise takes fp16 and bf16 as mixed.
PRECISION_ALIASES = {"fp16": "mixed", "bf16": "mixed"}


def parse_filters(args):
    """{axis: [text values]} from the --model/--dataset/... options that were given.

    InputError for an empty value or list item (`--model ""` chose everything, `--model ,`
    nothing: said as "no feasible configuration")."""
    out = {}
    for axis in AXES:
        text = getattr(args, axis, None)
        if text is None:
            continue
        option = "--" + axis.replace("_", "-")
        items = [v.strip() for v in text.split(",")]
        if not text.strip():  # an unset variable in a script: `--model "$MODEL"`
            raise InputError(f"{option} '{text}': an empty value; give comma-separated values")
        if not all(items):  # `--model ,` or `a,,b`: a slip, not a choice of nothing
            raise InputError(f"{option} '{text}': an empty item in the list")
        out[axis] = list(dict.fromkeys(items))
    if "precision" in out:
        out["precision"] = [PRECISION_ALIASES.get(v.lower(), v) for v in out["precision"]]
    return out


def settled(root, filters, path):
    """filters without the choices on a training setting the file has one value of (a root
    attribute, not an axis): choosing that value keeps every point, another is an
    InputError. What is left are choices on axes (checked where they are used)."""
    return {axis: texts for axis, texts in filters.items()
            if axis in root.dims or not _fixed_setting(root, axis, texts, path)}


def _fixed_setting(root, axis, texts, path):
    """True when the file has no `axis` axis but every point is at the chosen value (a sweep
    without a precision axis is fp32, its root attribute says); InputError when it has
    another; False for other axes."""
    value = root.attrs.get(axis)
    if value is None:
        return False
    value = value.decode() if isinstance(value, bytes) else str(value)
    wrong = [t for t in texts if t.casefold() != value.casefold()]  # as on an axis (_typed)
    if wrong:
        raise InputError(f"{path}: no {axis} '{wrong[0]}': every point of the file is "
                         f"{axis} {value} (it has no {axis} axis)")
    return True


def _typed(ds, axis, texts, path):
    """The filter values as the axis stores them; InputError for values not on the axis.

    Text is compared ignoring case (`--recompute True` as `--precision FP32`), numbers by
    value (`--network-bandwidth-gbps 100.0` is the integer axis's 100)."""
    have = list(ds[axis].values)
    out = []
    for t in texts:
        if axis in CATEGORICAL_AXES:
            value = _text_value(have, axis, t, path)
        else:
            value = _number_value(ds[axis].dtype.kind == "f", axis, t, path)
        if value is None or value not in have:
            listed = ", ".join(str(v) for v in have)
            how = "; compared ignoring case" if axis in CATEGORICAL_AXES else ""
            raise InputError(f"{path}: no {axis} '{t}' in the file (it has: {listed}{how})")
        out.append(value)
    return list(dict.fromkeys(out))  # `--model resnet50,RESNET50`: one panel, not two


def _text_value(have, axis, text, path):
    """The value of a text axis text names: itself, else the one equal to it ignoring case
    (None if there is none; InputError if several differ only in case)."""
    if text in have:
        return text
    folded = [v for v in have if str(v).casefold() == text.casefold()]
    if len(folded) > 1:
        raise InputError(f"{path}: {axis} '{text}' is {' and '.join(map(str, folded))} "
                         "ignoring case; give the exact value")
    return folded[0] if folded else None


def _number_value(real, axis, text, path):
    """text as a number of a float (real) or integer axis; InputError if it is none."""
    try:
        x = float(text)
    except ValueError:
        raise InputError(f"{path}: {axis} '{text}' is not {'a number' if real else 'an integer'}") \
            from None
    if real:
        return x
    if not (math.isfinite(x) and x.is_integer()):  # 100.5, inf: no integer's text
        raise InputError(f"{path}: {axis} '{text}' is not an integer")
    try:
        return int(text)  # exact beyond 2**53
    except ValueError:  # 100.0, 1e2
        return int(x)


def select(ds, filters, path, root=None, where=""):
    """ds narrowed to the chosen values; axes and values are checked against root's (default ds's).

    ds holds the variables a command reads, each with its own axes (`root[[names]]`): a
    value chosen on an axis the file has but ds has not (a summary map reduced over it, a
    memlimit table over every other axis) is refused, never ignored. where: the group's
    prefix for the message ('memlimit/')."""
    root = ds if root is None else root
    for axis, texts in settled(root, filters, path).items():
        if axis not in root.dims:
            raise InputError(f"{path}: no {axis} axis (axes: {', '.join(grid_axes(root))})")
        if axis not in ds.dims:
            if not where and axis in reduced_axes(root):
                raise InputError(f"{path}: the maps are reduced over {axis} (storage = summary, "
                                 f"reduce = {', '.join(reduced_axes(root))}), so a selection "
                                 f"on {axis} is not possible")
            names = ", ".join(f"'{where}{v}'" for v in ds.data_vars)
            raise InputError(f"{path}: {names} has no {axis} axis, so a selection on {axis} "
                             "is not possible")
        ds = ds.sel({axis: _typed(root, axis, texts, path)})
    return ds


def select_rows(table, filters, path, root):
    """Rows of a 1-D table (the pareto group) whose columns hold the chosen values."""
    if table.sizes.get("point", 0) == 0:  # a sweep where nothing fits: an empty front
        raise InputError(f"{path}: no feasible configuration (the pareto group is empty)")
    keep = np.ones(table.sizes["point"], dtype=bool)
    for axis, texts in settled(root, filters, path).items():
        if axis not in root.dims:
            raise InputError(f"{path}: no {axis} axis (axes: {', '.join(grid_axes(root))})")
        values = _typed(root, axis, texts, path)
        if axis not in table.variables:
            raise InputError(f"{path}: no variable 'pareto/{axis}', so a selection on {axis} "
                             "is not possible")
        keep &= np.isin(table[axis].values, values)
    if not keep.any():  # the fronts hold none of the chosen values (an empty table crashed)
        chosen = "; ".join(f"{a} {', '.join(t)}" for a, t in filters.items())
        raise InputError(f"{path}: no point of the pareto group has {chosen} (its fronts hold "
                         "Pareto-optimal points only; a map, storage = full, has every point)")
    return table.isel(point=np.flatnonzero(keep))


def value_label(axis, value):
    """How a fixed axis value reads in a title: 'resnet50', 'batch 256', 'recompute true'."""
    if axis in CATEGORICAL_AXES and axis not in ("recompute", "spatial_split", "p2", "segments"):
        return str(value)
    return f"{axis.replace('_', ' ')} {value}"


def fix_axes(da, keep):
    """da reduced to the dims in keep: every other axis at its first (or only) chosen value.

    Returns the narrowed DataArray and {axis: value} of the fixed axes (for the title)."""
    fixed = {a: da[a].values[0] for a in da.dims if a not in keep}
    return da.isel({a: 0 for a in fixed}), fixed


def check_one_value(ds, filters, keep, path, command):
    """InputError when a selection option chose several values of an axis the plot fixes
    (every axis of ds not in keep): fix_axes drew the first of them and said nothing of the
    others. The message names the option and its values."""
    for axis, texts in filters.items():
        if axis in keep or axis not in ds.dims or ds.sizes[axis] < 2:
            continue
        option = "--" + axis.replace("_", "-")
        raise InputError(f"{path}: {option} '{','.join(texts)}': {command} draws one "
                         f"{axis.replace('_', ' ')} at a time; choose one value (or run it "
                         "once per value)")


def fixed_and_varied(ds, axes):
    """({axis: value} of the axes among `axes` that ds holds at one value, [the others]): what
    a plot that takes the best over `axes` names as fixed, and what it takes the best over."""
    fixed, varied = {}, []
    for axis in axes:
        if axis in ds.dims and ds.sizes[axis] == 1:
            fixed[axis] = ds[axis].values[0]
        else:
            varied.append(axis)
    return fixed, varied


def panels(ds, axes):
    """Every combination of values on the given axes (those present in ds), as dicts."""
    axes = [a for a in axes if a in ds.dims]
    for combo in itertools.product(*(list(ds[a].values) for a in axes)):
        yield dict(zip(axes, combo))


def panel_title(panel):
    """'resnet50 · imagenet' for a panel dict."""
    return " · ".join(value_label(a, v) for a, v in panel.items())


# A training setting's value when it is not swept (root attribute), and its default.
SETTING_DEFAULTS = {"precision": "fp32", "optimizer": "momentum", "zero_stage": "0",
                    "recompute": "false", "implementation": "pytorch-nccl"}


def fixed_settings(ds):
    """The one-valued training settings that differ from the defaults, as title labels."""
    out = []
    for axis, default in SETTING_DEFAULTS.items():
        value = ds.attrs.get(axis)
        if value is None:
            continue
        value = value.decode() if isinstance(value, bytes) else str(value)
        if value != default:
            out.append(value_label(axis, value))
    return out


def source_label(ds):
    """'sweep quickstart.ini, storage = full[, mixed, adam]': where a figure's data comes
    from, and the training settings of every point that are not the defaults."""
    title = str(ds.attrs.get("title", ""))
    sweep = os.path.basename(title.split("ParaDiSE sweep ", 1)[-1]) if title else "?"
    return ", ".join([f"sweep {sweep}", f"storage = {storage(ds)}"] + fixed_settings(ds))
