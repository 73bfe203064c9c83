"""Tensor layouts: how the elements of a tensor become pages (TT-Metal's Tensor and Memory Layouts report, section 3).

A tensor folds into 2D: its outer dims multiply into the height, its last dim is the width.

* Row-major: a page is a row, or, for width/block/ND sharding, the part of a row a shard holds
  (`page_width` elements; the last page of a row is padded when the width does not divide).
* Tiled: a page is a tile (32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32). Each 2D slice
  of the tensor pads up to whole tiles with the OOB value. Inside a tile the elements are stored
  as faces: 16-column faces (16 rows high, or the tile's height if smaller) in row-major face
  order, each face row-major.

Pages are numbered row-major over the page grid (folded height in pages, width in pages).
`to_pages` / `from_pages` move a whole tensor to and from its pages with a few reshapes and
one transpose; `page_elements` is the same map applied to element indices (the inverse table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_ELEMENTS, MAX_PAGES, as_int, check_count
from meshc.layout.shapes import fmt_shape, round_up

TILE_SHAPES: tuple[tuple[int, int], ...] = ((32, 32), (16, 32), (32, 16), (16, 16), (8, 32), (4, 32), (2, 32), (1, 32))
FACE = 16


def normalize_shape(shape) -> tuple[int, ...]:
    try:
        dims = tuple(as_int(d, "a tensor dimension") for d in shape)
    except (TypeError, LayoutError):
        raise LayoutError(f"a tensor shape is a sequence of integers; got {shape!r}") from None
    if not dims:
        dims = (1,)
    if any(d <= 0 for d in dims):
        raise LayoutError(f"tensor shape {fmt_shape(dims)} has a dimension < 1; "
                          "every dimension must be at least 1")
    return dims


def check_tile(tile) -> tuple[int, int] | None:
    if tile is None:
        return None
    try:
        t = tuple(as_int(x, "a tile extent") for x in tile)
    except (TypeError, LayoutError):
        raise LayoutError(f"a tile shape is a pair (rows, cols) such as (32, 32), or None for row-major; "
                          f"got {tile!r}") from None
    if t not in TILE_SHAPES:
        raise LayoutError(f"tile shape {fmt_shape(t)} is not supported; expected one of "
                          + ", ".join(f"{a}x{b}" for a, b in TILE_SHAPES))
    return t  # type: ignore[return-value]


@dataclass(frozen=True)
class TensorLayout:
    """The page structure of one tensor: shape, data type, tile (None: row-major), page width."""

    shape: tuple[int, ...]
    dtype: DataType
    tile: tuple[int, int] | None = (32, 32)
    page_width: int | None = None
    """Row-major only: elements a page (None: the whole row)."""

    def __post_init__(self):
        object.__setattr__(self, "shape", normalize_shape(self.shape))
        object.__setattr__(self, "dtype", get_dtype(self.dtype))
        object.__setattr__(self, "tile", check_tile(self.tile))
        if self.tile is None:
            if self.dtype.is_block_float:
                raise LayoutError(f"{self.dtype.name} is a block float: it is stored in tiles with a "
                                  "shared exponent every 16 elements and has no row-major layout; "
                                  "give a tile shape")
            pw = self.width if self.page_width is None else as_int(self.page_width, "a page width")
            if pw <= 0:
                raise LayoutError(f"a row-major page needs a positive width; got {pw}")
            object.__setattr__(self, "page_width", pw)
        elif self.page_width is not None:
            object.__setattr__(self, "page_width", None)
        what = f"tensor {fmt_shape(self.shape)}"
        check_count(self.num_pages, MAX_PAGES, what, "pages")

    # ------------------------------------------------------------------ folding
    @property
    def outer(self) -> int:
        return math.prod(self.shape[:-2]) if len(self.shape) > 2 else 1

    @property
    def height(self) -> int:
        return self.shape[-2] if len(self.shape) >= 2 else 1

    @property
    def width(self) -> int:
        return self.shape[-1]

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def is_tiled(self) -> bool:
        return self.tile is not None

    @property
    def page_shape(self) -> tuple[int, int]:
        return self.tile if self.tile is not None else (1, self.page_width)  # type: ignore[return-value]

    @property
    def slice_height(self) -> int:
        """Rows of one padded 2D slice."""
        ph = self.page_shape[0]
        return round_up(self.height, ph)

    @property
    def padded_shape(self) -> tuple[int, int]:
        """The folded, padded 2D shape the pages tile exactly."""
        ph, pw = self.page_shape
        return self.outer * self.slice_height, round_up(self.width, pw)

    @property
    def page_grid(self) -> tuple[int, int]:
        ph, pw = self.page_shape
        h, w = self.padded_shape
        return h // ph, w // pw

    @property
    def num_pages(self) -> int:
        r, c = self.page_grid
        return r * c

    @property
    def page_elems(self) -> int:
        ph, pw = self.page_shape
        return ph * pw

    @property
    def page_bytes(self) -> int:
        return self.dtype.bytes_for(*self.page_shape)

    @property
    def face_shape(self) -> tuple[int, int]:
        th, tw = self.page_shape
        if self.tile is None:
            return th, tw
        return min(th, FACE), min(tw, FACE)

    # ------------------------------------------------------------------ bytes inside a page
    def slot_byte_offset(self, slot: np.ndarray) -> np.ndarray:
        """Byte offset inside a page of the element at storage position `slot`.

        Block floats: the offset of the element's sign+mantissa field, after the exponents
        (for bfp_bf4, the byte holding its nibble: low nibble for even slots).
        """
        d = self.dtype
        slot = np.asarray(slot, dtype=np.int64)
        if d.is_block_float:
            exps = self.page_elems // 16
            return exps + (slot * d.bits) // 8
        return slot * d.itemsize

    # ------------------------------------------------------------------ pages of a tensor
    def to_pages(self, tensor, oob=0) -> np.ndarray:
        """(num_pages, page_elems) array: each page's elements in storage order, padding = oob."""
        a = np.asarray(tensor)
        if a.shape != self.shape and a.size == self.size and (a.ndim == 0 or len(self.shape) == 1):
            a = a.reshape(self.shape)
        if a.shape != self.shape:
            raise LayoutError(f"tensor of shape {a.shape} does not match the layout's shape {self.shape}")
        ph, pw = self.page_shape
        hp, wp = self.padded_shape
        a3 = a.reshape(self.outer, self.height, self.width)
        pad_h, pad_w = self.slice_height - self.height, wp - self.width
        if pad_h or pad_w:
            full = np.empty((self.outer, self.slice_height, wp), dtype=a.dtype)
            full[...] = oob
            full[:, : self.height, : self.width] = a3
            a3 = full
        if self.tile is None:
            return a3.reshape(hp * (wp // pw), pw)
        fh, fw = self.face_shape
        tr, tc = self.slice_height // ph, wp // pw
        t = a3.reshape(self.outer, tr, ph // fh, fh, tc, pw // fw, fw)
        t = t.transpose(0, 1, 4, 2, 5, 3, 6)
        return t.reshape(self.num_pages, ph * pw)

    def page_view(self, tensor: np.ndarray) -> np.ndarray | None:
        """A view (no copy) of a C-contiguous tensor as (page rows, page cols, *page storage dims).

        Flattening the trailing dims in C order gives each page's elements in storage order.
        None when the tensor needs padding to fill its pages (then use `to_pages`).
        """
        hp, wp = self.padded_shape
        if self.slice_height != self.height or wp != self.width or not tensor.flags.c_contiguous:
            return None
        rows, cols = self.page_grid
        ph, pw = self.page_shape
        if self.tile is None:
            return tensor.reshape(rows, cols, pw)
        fh, fw = self.face_shape
        t = tensor.reshape(rows, ph // fh, fh, cols, pw // fw, fw)
        return t.transpose(0, 3, 1, 4, 2, 5)

    def from_pages(self, pages: np.ndarray) -> np.ndarray:
        """The tensor whose pages are `pages` (the inverse of `to_pages`, padding dropped)."""
        pages = np.asarray(pages)
        if pages.shape != (self.num_pages, self.page_elems):
            raise LayoutError(f"expected {self.num_pages} pages of {self.page_elems} elements; "
                              f"got an array of shape {pages.shape}")
        ph, pw = self.page_shape
        hp, wp = self.padded_shape
        if self.tile is None:
            a3 = pages.reshape(self.outer, self.slice_height, wp)
        else:
            fh, fw = self.face_shape
            tr, tc = self.slice_height // ph, wp // pw
            t = pages.reshape(self.outer, tr, tc, ph // fh, pw // fw, fh, fw)
            a3 = t.transpose(0, 1, 3, 5, 2, 4, 6).reshape(self.outer, self.slice_height, wp)
        return np.ascontiguousarray(a3[:, : self.height, : self.width]).reshape(self.shape)

    def page_elements(self) -> np.ndarray:
        """(num_pages, page_elems) int64: flat (row-major) tensor index in each slot, -1 = padding."""
        check_count(self.num_pages * self.page_elems, MAX_ELEMENTS,
                    f"tensor {fmt_shape(self.shape)}", "padded elements")
        return self.to_pages(np.arange(self.size, dtype=np.int64).reshape(self.shape), oob=-1)

    def page_coords(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every page: (outer slice index, page row inside its slice, page column)."""
        rows, cols = self.page_grid
        p = np.arange(rows * cols, dtype=np.int64)
        r, c = np.divmod(p, cols)
        per_slice = self.slice_height // self.page_shape[0]
        o, rr = np.divmod(r, per_slice)
        return o, rr, c
