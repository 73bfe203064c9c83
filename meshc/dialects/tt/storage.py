"""`tt.storage`: the data format a function argument is stored in on the devices.

    func.func @main(%x: tensor<64x128xf32>,
                    %w: tensor<128x256xf32> {tt.storage = #tt.data_type<bfp_bf8>}) -> ...

The argument stays an f32 (or bf16) tensor in the program; on the devices it is held as the
block-float format named (bfp_bf8: 1088 B a 32x32 tile, bfp_bf4: 576 B), as TT-Metal holds
weights: `ttir-layout` gives the tensor the argument becomes on the devices (its
`ttir.mesh_shard` full_to_shard, in a program on more than one device) that data type, so its DRAM and host bytes, the rate of the
matmuls that read it (TTNN's default math fidelity for the format: HiFi2 for bfp8, LoFi for
bfp4) and its values (the host packs it: `meshc.layout.numerics`) follow; the golden run rounds
the argument to the format the same way, so `--check` compares like with like.

Carried by `ttir-to-ttnn-pipeline` on a mesh of more than one device; an argument that reaches
the devices another way (one device: `ttnn.to_device`), and `ttir-to-ttmetal-pipeline` (its
mesh buffers hold their element type), refuse it, located at the function.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import BlockArgument, SSAValue
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.tt.enums import DataTypeAttr

STORAGE_ATTR = "tt.storage"
STORAGE_FORMATS = ("bfp_bf8", "bfp_bf4")


def stored_format(f: func.FuncOp, index: int) -> str | None:
    """The format argument `index` of `f` is stored in, or None (its element type).
    VerifyException when `tt.storage` is not a `#tt.data_type` of a block-float format."""
    if f.arg_attrs is None or index >= len(f.arg_attrs.data):
        return None
    attr = f.arg_attrs.data[index].data.get(STORAGE_ATTR)
    if attr is None:
        return None
    if not isinstance(attr, DataTypeAttr) or attr.data.value not in STORAGE_FORMATS:
        raise VerifyException(f"{STORAGE_ATTR} of argument #{index} must be #tt.data_type<bfp_bf8> or "
                              f"#tt.data_type<bfp_bf4> (a block-float format weights are stored in), got {attr}")
    return attr.data.value


def value_storage(value: SSAValue) -> str | None:
    """The stored format of a function argument (None for any other value)."""
    if not isinstance(value, BlockArgument):
        return None
    f = value.block.parent_op() if value.block is not None else None
    return stored_format(f, value.index) if isinstance(f, func.FuncOp) else None


def stored_arguments(f: func.FuncOp) -> list[tuple[int, str]]:
    """(index, format) of every argument of `f` with a `tt.storage`; VerifyException for a bad one."""
    return [(i, fmt) for i in range(len(f.body.blocks.first.args) if f.body.blocks else 0)
            if (fmt := stored_format(f, i)) is not None]
