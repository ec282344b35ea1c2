"""Device memory of a system, for the memory contour of memory_map.py.

The sweep file does not store it, so it comes from (first that applies): the
--device-memory-gb option; a system file's `[gpu] memory_GB` when the system axis names a
file; or the `memory GB` column of `paradise systems` (the binary from --paradise, $PARADISE,
PATH or this repository's build/{ci,release,dev}). The usable part is that times
(1 - memory margin), the margin the sweep used: a system file's `[system] memory_margin`,
or the `margin` column of `paradise systems` (0.05 for the DGX systems, 0 for ABCI, as
src/system/catalog.cpp), also with --device-memory-gb (0.05 where the system is not
found). --memory-margin replaces it.
"""
import argparse
import configparser
import os
import shutil
import subprocess

from paradise_h5 import InputError

DEFAULT_MARGIN = 0.05  # with --device-memory-gb and no --memory-margin
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_options(parser):
    parser.add_argument("--device-memory-gb", type=float, metavar="GB",
                        help="device memory of the system in GB (default: asked of paradise)")
    parser.add_argument("--memory-margin", type=float, metavar="F",
                        help="fraction of device memory kept free (default: the system's, "
                             "as the sweep used it; 0.05 if it cannot be found)")
    parser.add_argument("--paradise", metavar="BINARY",
                        help="the paradise binary to ask for the system table")


def find_binary(explicit):
    candidates = [explicit, os.environ.get("PARADISE"), shutil.which("paradise")]
    candidates += [os.path.join(REPO, "build", p, "src", "app", "paradise")
                   for p in ("ci", "release", "dev")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def parse_systems_table(text):
    """{system: memory GB} from the table `paradise systems` prints (columns by the dashes)."""
    lines = text.splitlines()
    dash = next(i for i, line in enumerate(lines) if line.startswith("---"))
    spans, start = [], 0
    for field in lines[dash].split("  "):
        if field:
            spans.append((start, start + len(field)))
        start += len(field) + 2
    header = [lines[dash - 1][a:b].strip() for a, b in spans]
    name, memory = header.index("system"), header.index("memory GB")
    margin = header.index("margin")
    out = {}
    for line in lines[dash + 1:]:
        if line.strip():
            out[line[slice(*spans[name])].strip()] = (float(line[slice(*spans[memory])]),
                                                      float(line[slice(*spans[margin])]))
    return out


def usable_memory_bytes(system, args, path):
    """(usable bytes, device GB, margin) of a system; InputError naming what to pass if unknown."""
    given = args.memory_margin
    if args.device_memory_gb:
        # the system's own margin where it can be found (ABCI: 0), else DEFAULT_MARGIN
        margin = given
        if margin is None:
            try:
                margin = usable_memory_bytes(system, argparse.Namespace(
                    device_memory_gb=None, memory_margin=None, paradise=args.paradise), path)[2]
            except InputError:
                margin = DEFAULT_MARGIN
        return args.device_memory_gb * 1e9 * (1 - margin), args.device_memory_gb, margin
    if os.path.isfile(system):
        ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
        ini.read(system)
        gb = ini.getfloat("gpu", "memory_GB")
        margin = ini.getfloat("system", "memory_margin", fallback=0.0) if given is None else given
        return gb * 1e9 * (1 - margin), gb, margin
    binary = find_binary(args.paradise)
    if binary is None:
        raise InputError(f"{path}: device memory of system '{system}' unknown: no paradise "
                         f"binary found; pass --device-memory-gb or --paradise")
    try:
        text = subprocess.run([binary, "systems"], capture_output=True, text=True,
                              check=True, timeout=30).stdout
        table = parse_systems_table(text)
    except (OSError, subprocess.SubprocessError, StopIteration, ValueError) as e:
        raise InputError(f"{path}: cannot read the system table of {binary} ({e}); "
                         f"pass --device-memory-gb") from None
    if system not in table:
        raise InputError(f"{path}: system '{system}' is not in `{binary} systems`; "
                         f"pass --device-memory-gb")
    gb, margin = table[system]
    margin = margin if given is None else given
    return gb * 1e9 * (1 - margin), gb, margin
