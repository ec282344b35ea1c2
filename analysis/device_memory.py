"""Device memory of a system, for the memory contour of memory_map.py.

The sweep file does not store it, so it comes from (first that applies): the
--device-memory-gb option; a system file's `[gpu] memory_GB` when the system axis names a
file; or the `memory GB` column of `paradise systems` (the binary from --paradise, $PARADISE,
PATH or this repository's build/{ci,release,dev}). The usable part is that times
(1 - memory margin), the margin the sweep used: a system file's `[system] memory_margin`,
or the `margin` column of `paradise systems` (0.05 for the DGX systems, 0 for ABCI, as
src/system/catalog.cpp), also with --device-memory-gb (0.05 where the system is not
found). --memory-margin replaces it.

A system file is read as paradise reads it (src/core/ini.cpp, src/system/system_file.cpp):
`#` and `;` start comments anywhere, a section or a key given twice and a key before the
first section are errors, and memory_GB and memory_margin have paradise's bounds; an error
is one line naming the file, line, key and value. (paradise has no command that prints a
system file's memory, which would make its parser the only one.)
"""
import math
import os
import re
import shutil
import subprocess

import command
from paradise_h5 import InputError

DEFAULT_MARGIN = 0.05  # with --device-memory-gb and no --memory-margin
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# paradise's bounds for a system file's memory_GB: above, a unit slip (an exabyte GPU); below,
# a typo (a kilobyte GPU)
MEMORY_GB_MOST, MEMORY_GB_LEAST = 1e6, 1e-6
SYSTEM_FILE_MOST_BYTES = 16 << 20  # a system file is a few hundred bytes; /dev/zero is endless
# std::from_chars' general format, which paradise's parse_double takes (no '+', no '_')
NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def add_options(parser):
    parser.add_argument("--device-memory-gb", type=float, metavar="GB",
                        help="device memory of the system in GB (default: asked of paradise)")
    parser.add_argument("--memory-margin", type=float, metavar="F",
                        help="fraction of device memory kept free, in [0, 1) (default: the "
                             "system's, as the sweep used it; 0.05 if it cannot be found)")
    parser.add_argument("--paradise", metavar="BINARY",
                        help="the paradise binary to ask for the system table")


def check_options(args):
    """InputError for a value paradise would refuse in a system file (nan, inf, <= 0, 1e308 GB;
    a margin outside [0, 1)) or a --paradise that is no executable: before any work."""
    gb = args.device_memory_gb
    if gb is not None and not MEMORY_GB_LEAST <= gb <= MEMORY_GB_MOST:  # nan fails both
        raise InputError(f"--device-memory-gb {gb:g}: must be a number of GB in "
                         f"[{MEMORY_GB_LEAST:g}, {MEMORY_GB_MOST:g}] (paradise's bounds for "
                         "memory_GB)")
    margin = args.memory_margin
    if margin is not None and not 0 <= margin < 1:  # 1 leaves no memory; nan is no fraction
        raise InputError(f"--memory-margin {margin:g}: must be a fraction in [0, 1)")
    if args.paradise is not None:
        _require_executable(args.paradise, "--paradise")


def _require_executable(path, option):
    """InputError unless path is an executable file: a binary the user named is never
    silently replaced by another (the one on PATH, the repository's build)."""
    if not path:
        raise InputError(f"{option} '': an empty path")
    if not os.path.exists(path):
        raise InputError(f"{option} '{path}': no such file")
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise InputError(f"{option} '{path}': not an executable file")


def find_binary(explicit):
    """The paradise binary: --paradise, else $PARADISE (each an InputError if it is not an
    executable), else paradise on PATH or this repository's build; None if none is found."""
    for option, given in (("--paradise", explicit), ("$PARADISE", os.environ.get("PARADISE"))):
        if given:
            _require_executable(given, option)
            return given
    candidates = [shutil.which("paradise")]
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


def _fail(file, line, key, value, why):
    """paradise's message for a system file's error: FILE:LINE: KEY 'VALUE': WHY."""
    return InputError(f"system file {file}:{line}: {key} '{value}': {why}")


def read_ini(path):
    """{section: {key: (value, line)}} and {section: line} of a system file, by paradise's
    rules (src/core/ini.cpp); InputError naming the file, line, key and value."""
    raw = command.read_bounded(path, SYSTEM_FILE_MOST_BYTES, f"system file {path}",
                               "not a system file")
    sections, lines_of = {}, {}
    current = None
    # bytes paradise takes as they are: shown with U+FFFD rather than failing to decode
    for number, text in enumerate(raw.decode("utf-8", "replace").split("\n"), start=1):
        text = re.split("[#;]", text, maxsplit=1)[0].strip()
        if not text:
            continue
        if text.startswith("["):
            name = text[1:-1].strip()
            if not text.endswith("]") or len(text) < 3 or not name or name.endswith("."):
                raise _fail(path, number, "section", text, "expected [name]")
            if name in sections:  # the last would silently win
                raise _fail(path, number, "section", text,
                            f"given twice (first at line {lines_of[name]})")
            sections[name], lines_of[name], current = {}, number, name
            continue
        key, eq, value = text.partition("=")
        if not eq:
            raise _fail(path, number, "line", text, "expected key = value")
        if current is None:
            raise _fail(path, number, "line", text, "entry before the first [section]")
        key, value = key.strip(), value.strip()
        if not key:
            raise _fail(path, number, "line", text, "empty key")
        if key in sections[current]:
            raise _fail(path, number, key, value, "key given twice in this section")
        sections[current][key] = (value, number)
    return sections, lines_of


def _number(path, entry, key):
    """A key's (value, line) as a finite number, as paradise's parse_double takes it."""
    value, line = entry
    if not NUMBER.fullmatch(value) or not math.isfinite(float(value)):
        raise _fail(path, line, key, value, "expected a finite number")
    return float(value)


def system_file_memory(path):
    """(memory GB, memory margin) of a system file: [gpu] memory_GB (required, > 0, within
    paradise's bounds) and [system] memory_margin (default 0, in [0, 1))."""
    sections, lines_of = read_ini(path)
    for name in ("system", "gpu"):
        if name not in sections:
            raise InputError(f"system file {path}: missing [{name}] section")
    gpu, system = sections["gpu"], sections["system"]
    if "memory_GB" not in gpu:
        raise _fail(path, lines_of["gpu"], "section", "gpu", "missing key 'memory_GB'")
    gb = _number(path, gpu["memory_GB"], "memory_GB")
    if gb <= 0:  # paradise's messages, in its order
        raise _fail(path, gpu["memory_GB"][1], "memory_GB", gpu["memory_GB"][0], "must be > 0")
    if not MEMORY_GB_LEAST <= gb <= MEMORY_GB_MOST:
        bound = f"<= {MEMORY_GB_MOST:g}" if gb > MEMORY_GB_MOST else f">= {MEMORY_GB_LEAST:g}"
        raise _fail(path, gpu["memory_GB"][1], "memory_GB", gpu["memory_GB"][0],
                    f"must be {bound} (implausible)")
    margin = 0.0
    if "memory_margin" in system:
        margin = _number(path, system["memory_margin"], "memory_margin")
        if not 0 <= margin < 1:
            raise _fail(path, system["memory_margin"][1], "memory_margin",
                        system["memory_margin"][0], "must be in [0, 1)")
    return gb, margin


def table_memory(system, args, path, required=True):
    """(memory GB, margin) of a built-in system from `paradise systems`; None where it cannot
    be found and not required (no binary, not in the table), else an InputError."""
    binary = find_binary(args.paradise)  # a binary the user named must exist
    if binary is None:
        if not required:
            return None
        raise InputError(f"{path}: device memory of system '{system}' unknown: no paradise "
                         f"binary found; pass --device-memory-gb or --paradise")
    try:
        text = subprocess.run([binary, "systems"], capture_output=True, text=True,
                              check=True, timeout=30).stdout
        table = parse_systems_table(text)
    except (OSError, subprocess.SubprocessError, StopIteration, ValueError, IndexError) as e:
        raise InputError(f"{path}: cannot read the system table of {binary} ({e}); "
                         f"pass --device-memory-gb") from None
    if system not in table:
        if not required:
            return None
        raise InputError(f"{path}: system '{system}' is not in `{binary} systems`; "
                         f"pass --device-memory-gb")
    return table[system]


def usable_memory_bytes(system, args, path):
    """(usable bytes, device GB, margin) of a system; InputError naming what to pass if unknown.

    With --device-memory-gb the margin is still the system's (ABCI: 0) where it can be found,
    else DEFAULT_MARGIN; --memory-margin replaces it."""
    known = None  # (GB, margin) of the system: looked up unless both are given
    if args.device_memory_gb is None or args.memory_margin is None:
        if os.path.isfile(system):
            known = system_file_memory(system)
        else:
            known = table_memory(system, args, path, required=args.device_memory_gb is None)
    gb = args.device_memory_gb if args.device_memory_gb is not None else known[0]
    margin = args.memory_margin
    if margin is None:
        margin = known[1] if known is not None else DEFAULT_MARGIN
    return gb * 1e9 * (1 - margin), gb, margin
