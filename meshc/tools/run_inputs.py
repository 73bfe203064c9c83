"""meshc-run's `--input` files: NAME=FILE.npy, NAME=FILE.npz (the array NAME, or the only one) and
FILE.npz (every array by name), read with numpy without pickles.

A file is checked for what it claims to be before numpy reads it: an .npy file starts with numpy's
magic string (`\\x93NUMPY`), an .npz file is a zip archive (`PK\\x03\\x04`, or `PK\\x05\\x06` when
empty). Anything else is refused as "not an .npy / .npz file", where numpy would have advised
`allow_pickle=True` (an option meshc-run does not have: it never unpickles) or raised BadZipFile.
"""

from __future__ import annotations

import numpy as np

NPY_MAGIC = b"\x93NUMPY"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")


class InputFileError(Exception):
    """An --input file that cannot be read as what it is given as (the message says why)."""


def _head(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(len(NPY_MAGIC))
    except OSError as e:
        raise InputFileError(f"cannot load {what} from '{path}': {e.strerror or e}") from None


def _kind(head: bytes) -> str:
    if head.startswith(NPY_MAGIC):
        return "npy"
    if head.startswith(ZIP_MAGICS):
        return "npz"
    return "empty" if not head else "other"


def load_npy(path: str, name: str) -> np.ndarray:
    """The array of the .npy file `path`, given for the argument `name`."""
    what = f"input '{name}'"
    kind = _kind(_head(path, what))
    if kind == "empty":
        raise InputFileError(f"cannot load {what} from '{path}': the file is empty")
    if kind == "npz":
        raise InputFileError(f"cannot load {what} from '{path}': it is an .npz archive (a zip of arrays); give it "
                             f"as {name}=FILE.npz, or one array an .npy file")
    if kind != "npy":
        raise InputFileError(f"cannot load {what} from '{path}': it is not an .npy file (it does not start with "
                             "numpy's magic string \\x93NUMPY); save the array with numpy.save")
    try:
        with open(path, "rb") as f:  # numpy leaves a file it opened itself open when it fails
            return np.load(f, allow_pickle=False)
    except Exception as e:  # a damaged .npy fails in numpy's reader in many ways; all are about the file
        raise InputFileError(f"cannot load {what} from '{path}': a damaged .npy file ({e})") from None


def load_npz(path: str, name: str | None) -> dict[str, np.ndarray]:
    """The arrays of the .npz file `path`: all by name (`name` None), else the array `name` (or
    its only array, under `name`)."""
    what = "inputs"
    kind = _kind(_head(path, what))
    if kind != "npz":
        why = "the file is empty" if kind == "empty" else (
            "it is an .npy file (one array); give it as NAME=FILE.npy" if kind == "npy" else
            "it is not an .npz file (a zip archive of .npy files, as numpy.savez writes)")
        raise InputFileError(f"cannot load {what} from '{path}': {why}")
    arrays = {}
    try:
        with open(path, "rb") as fz, np.load(fz, allow_pickle=False) as z:  # closed if numpy fails
            for k in z.files:
                member = f"{k}.npy" if f"{k}.npy" in z.zip.namelist() else k
                with z.zip.open(member) as f:
                    if not f.read(len(NPY_MAGIC)).startswith(NPY_MAGIC):
                        raise InputFileError(f"cannot load {what} from '{path}': its member '{member}' is not an "
                                             ".npy array (numpy.savez writes one a name)")
                arrays[k] = z[k]
    except InputFileError:
        raise
    except Exception as e:  # zipfile.BadZipFile, a truncated member, a damaged .npy header, ...
        raise InputFileError(f"cannot load {what} from '{path}': a damaged .npz archive "
                             f"({type(e).__name__}: {e})") from None
    if name is None:
        return arrays
    if name in arrays:
        return {name: arrays[name]}
    if len(arrays) == 1:
        return {name: next(iter(arrays.values()))}
    raise InputFileError(f"'{path}' has no array '{name}' (it holds {', '.join(arrays) or 'none'})")


def load_inputs(specs: list[str]) -> dict[str, np.ndarray]:
    """The arrays `--input` gives, by argument name."""
    out: dict[str, np.ndarray] = {}
    for s in specs:
        if "=" not in s:
            if s.endswith(".npz"):
                out.update(load_npz(s, None))
                continue
            raise InputFileError(f"--input '{s}' must be NAME=FILE.npy, NAME=FILE.npz or FILE.npz")
        name, path = s.split("=", 1)
        if path.endswith(".npz"):
            out.update(load_npz(path, name))
        else:
            out[name] = load_npy(path, name)
    return out
