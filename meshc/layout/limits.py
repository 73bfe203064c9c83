"""Size limits of the placement model, and argument checks that say what is wrong.

Every function that enumerates cores, devices, pages or elements, or allocates a tensor,
checks the count against a limit here first, so a huge input (a core range to x = 2**63-1, a
2**40-device mesh, a 2**20 x 2**20 tensor) is refused at once with a `LayoutError` that names
the number and the limit, instead of hanging or running the host out of memory. The limits
are far above any real system (a galaxy is 32 chips of 8x8 cores; the benchmarks move 256 MiB
tensors); docs/contracts.md lists them.
"""

from __future__ import annotations

import math
import numbers

from meshc.layout.errors import LayoutError
from meshc.layout.shapes import fmt_shape

MAX_CORES = 1 << 20
"""Cores in one core range set or one device's logical grid (a 64x64 mesh of 16x16-core chips)."""
MAX_DEVICES = 1 << 12
"""Devices in one mesh (a 64x64 mesh)."""
MAX_DRAM_BANKS = 1 << 10
"""DRAM banks of one chip (a wormhole has 12; the simulator keeps an allocator a bank)."""
MAX_CHIP_ID = 1 << 31
"""Chip ids lie in [0, MAX_CHIP_ID) (a 32-bit id, as in tt-mlir's chipIds)."""
MAX_PAGES = 1 << 22
"""Pages in one tensor's page table."""
MAX_ELEMENTS = 1 << 27
"""Elements of one tensor that meshc materialises or maps element by element."""
MAX_TENSOR_BYTES = 1 << 29
"""Bytes of one tensor that meshc materialises (distribute's shards together, the simulator's
inputs and results)."""
RUN_COPIES = 8
"""Copies of its largest tensor a `meshc-run --check` holds at its peak (the input, the devices'
pieces, the golden run's values, the result read back and the check's float64 chunks), measured
on the largest tensors tt-mlir's tests run (docs/contracts.md): `host_tensor_limit` divides the
memory available by it."""


def available_memory() -> int | None:
    """Bytes of memory the host can give a new process without swapping (Linux's MemAvailable),
    or None where it is not known."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def host_tensor_limit() -> int:
    """Bytes of one tensor the simulator materialises in a run: MAX_TENSOR_BYTES, or, on a host
    with more memory available, that memory divided by RUN_COPIES (a run holding several copies
    of its largest tensor then still fits); read once a run, when it starts."""
    avail = available_memory()
    return max(MAX_TENSOR_BYTES, (avail or 0) // RUN_COPIES)


MAX_ATTRIBUTE_ELEMENTS = 1 << 21
"""Elements of one dense elements attribute in the source (`dense<1.0> : tensor<...>`): the parser
holds them as Python values (tens of bytes each), so a splat over a huge tensor type is refused
before it is expanded (2**22 f32 elements take a second and 400 MB to parse and print; 2**27
took 11 GB and two minutes)."""
MAX_NESTING = 64
"""Brackets (`(`, `[`, `{`, `<`) open at once in a tool's input text: xDSL's parser, printer and
verifier recurse once (or more) per level, and JAX's MLIR parser (meshc-import's custom syntax)
recurses in C, so a deeper input raised RecursionError (dictionaries at about 80 levels, regions at
about 110) or crashed the process (depth 3000-5000); real programs nest a few tens deep at most.
Measured on the text before parsing (`meshc.located_parser.check_nesting`)."""
MAX_RESHARD_CELLS = 1 << 26
"""Devices x cells of one reshard plan (`plan_reshard` holds who-holds-what as boolean device x
cell masks over the specs' common cut; 2**26 take about 0.5 GB and a few seconds: a 64x64 mesh
moving a 4096x4096 tensor from [S0, S1] to [S1, S0] is 2**24)."""
MAX_RESHARD_TRANSFERS = 3 << 20
"""Transfers of one reshard plan made as Python objects (`Step.transfers`, a `ttir.point_to_point`'s
table): a plan counts its bytes and link hops on arrays, so only a caller reading every transfer
of a plan larger than this (an all-to-all of 1774 devices and more) is refused."""
MAX_RESHARD_STAGED = 1 << 20
"""Devices x cells up to which `plan_reshard` stages its moves axis by axis on cell masks (fewer
link hops); past it every piece comes straight from its nearest holder (the same bytes, the lower
bound, counted over intervals: time and memory grow with devices, not devices x cells)."""
MAX_SHAPE_ELEMENTS = 1 << 48
"""Elements of a tensor meshc only reasons about (plans, buffer configs): byte counts stay exact."""


def as_int(value, what: str) -> int:
    """`value` as an int, or a LayoutError naming `what`: integers (and integral floats) only."""
    if isinstance(value, bool) or isinstance(value, (str, bytes)):
        raise LayoutError(f"{what} must be an integer; got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        return int(value)
    raise LayoutError(f"{what} must be an integer; got {value!r}")


def as_ints(values, what: str) -> tuple[int, ...]:
    """A sequence of integers (see `as_int`), or a LayoutError naming `what`."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise LayoutError(f"{what} must be a sequence of integers; got {values!r}")
    return tuple(as_int(v, f"{what} entry") for v in values)


def check_count(count: int, limit: int, what: str, name: str) -> None:
    """Refuse `count` things above `limit`; the message names both and the limit's constant."""
    if count > limit:
        raise LayoutError(f"{what} has {count} {name}, more than meshc handles ({limit}, "
                          f"meshc.layout.limits.{_LIMIT_NAMES.get(limit, 'limit')})")


_LIMIT_NAMES = {MAX_CORES: "MAX_CORES", MAX_DEVICES: "MAX_DEVICES", MAX_DRAM_BANKS: "MAX_DRAM_BANKS", MAX_PAGES: "MAX_PAGES",
                MAX_ELEMENTS: "MAX_ELEMENTS", MAX_TENSOR_BYTES: "MAX_TENSOR_BYTES",
                MAX_SHAPE_ELEMENTS: "MAX_SHAPE_ELEMENTS", MAX_ATTRIBUTE_ELEMENTS: "MAX_ATTRIBUTE_ELEMENTS", MAX_NESTING: "MAX_NESTING", MAX_RESHARD_CELLS: "MAX_RESHARD_CELLS",
                MAX_RESHARD_TRANSFERS: "MAX_RESHARD_TRANSFERS"}


def tensor_shape(shape, what: str = "a tensor shape", minimum: int = 0) -> tuple[int, ...]:
    """A tensor shape as ints >= `minimum`, at most MAX_SHAPE_ELEMENTS elements; else a LayoutError."""
    dims = as_ints(shape, what)
    bad = [n for n in dims if n < minimum]
    if bad:
        raise LayoutError(f"{what} {dims} has a dimension {bad[0]}; every dimension must be at least {minimum}")
    check_count(math.prod(dims), MAX_SHAPE_ELEMENTS, f"tensor {fmt_shape(dims)}", "elements")
    return dims


def check_elements(shape, itemsize: float, what: str) -> None:
    """Refuse a tensor of `shape` above MAX_ELEMENTS elements or MAX_TENSOR_BYTES bytes."""
    n = math.prod(shape)
    check_count(n, MAX_ELEMENTS, what, "elements")
    check_count(math.ceil(n * itemsize), MAX_TENSOR_BYTES, what, "bytes")
