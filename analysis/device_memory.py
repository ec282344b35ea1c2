"""Device memory of a system, for the memory contour of memory_map.py.

The sweep file records it: its `systems` group holds, per value of the system axis, the
device memory of one GPU and the usable part (less the margin kept free) that paradise's
out-of-memory test used (src/app/sweep_output.cpp, write_systems). The contour is drawn
there, so it is the limit behind every point's status, whatever the system file or the
catalogue say later. --device-memory-gb replaces the device memory (keeping the recorded
margin) and --memory-margin the margin: to ask what another GPU would allow. A file without
the group (written by paradise before 0.1.0 recorded it) needs both.
"""
import h5py

from paradise_h5 import InputError

# paradise's bounds for a system file's memory_GB: above, a unit slip (an exabyte GPU); below,
# a typo (a kilobyte GPU)
MEMORY_GB_MOST, MEMORY_GB_LEAST = 1e6, 1e-6
GROUP = "systems"


def add_options(parser):
    parser.add_argument("--device-memory-gb", type=float, metavar="GB",
                        help="device memory of one GPU in GB (default: the system's, as the "
                             "sweep recorded it)")
    parser.add_argument("--memory-margin", type=float, metavar="F",
                        help="fraction of device memory kept free, in [0, 1) (default: the "
                             "system's, as the sweep recorded it)")


def check_options(args):
    """InputError for a value paradise would refuse in a system file (nan, inf, <= 0, 1e308 GB;
    a margin outside [0, 1)): before any work."""
    gb = args.device_memory_gb
    if gb is not None and not MEMORY_GB_LEAST <= gb <= MEMORY_GB_MOST:  # nan fails both
        raise InputError(f"--device-memory-gb {gb:g}: must be a number of GB in "
                         f"[{MEMORY_GB_LEAST:g}, {MEMORY_GB_MOST:g}] (paradise's bounds for "
                         "memory_GB)")
    margin = args.memory_margin
    if margin is not None and not 0 <= margin < 1:  # 1 leaves no memory; nan is no fraction
        raise InputError(f"--memory-margin {margin:g}: must be a fraction in [0, 1)")


def recorded_memory(path, system):
    """(device GB, margin) of `system` as the sweep in `path` recorded them; InputError
    naming what to pass where the file has no record (an older paradise) or a bad one."""
    with h5py.File(path, "r") as f:  # the caller has opened it as a sweep file: it reads
        group = f.get(GROUP)
        if not isinstance(group, h5py.Group):
            raise InputError(f"{path}: no '{GROUP}' group (written by a paradise that did not "
                             "record device memory): pass --device-memory-gb and "
                             "--memory-margin, or run the sweep again")
        try:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in group["system"][()]]
            at = names.index(system)
            device = float(group["device_memory_bytes"][at])
            usable = float(group["usable_memory_bytes"][at])
        except (KeyError, ValueError, IndexError, TypeError, OSError) as e:
            raise InputError(f"{path}: '{GROUP}' group has no memory of system '{system}' "
                             f"({type(e).__name__}): the file is damaged") from None
    if not (0 < usable <= device):  # also nan
        raise InputError(f"{path}: '{GROUP}' group: system '{system}' has usable memory "
                         f"{usable:g} of {device:g} bytes: the file is damaged")
    return device / 1e9, 1 - usable / device


def usable_memory_bytes(system, args, path):
    """(usable bytes, device GB, margin) of a system: the sweep's record, with
    --device-memory-gb and --memory-margin in its place where given."""
    gb, margin = args.device_memory_gb, args.memory_margin
    if gb is None or margin is None:
        recorded_gb, recorded_margin = recorded_memory(path, system)
        gb = recorded_gb if gb is None else gb
        margin = recorded_margin if margin is None else margin
    return gb * 1e9 * (1 - margin), gb, margin
