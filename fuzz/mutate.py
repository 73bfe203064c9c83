"""Grammar-aware mutation of MLIR text and of the tools' command lines.

The text is cut into MLIR-ish tokens (numbers, shapes `4x8xf32`, identifiers, types, SSA
names, punctuation, strings) and mutated where bugs hide: numbers become extremes (0, -1,
2**31, 2**63-1, 10**30), a dimension of a shape changes, affine expressions get `floordiv 0`,
`ceildiv`, `mod` and products of dims, type names change (`i6464`, `ui16`, `f64`), enum words
and attribute values swap, lines and ops swap or vanish, the text is cut short or gets bytes
that are not UTF-8. Pipelines' options and meshc-run's inputs (.npy files, output paths,
seeds) mutate too. Everything is driven by one `random.Random`, so a seed fixes the campaign.

Classes the mutations above seldom or never reach are made on purpose: brackets nested past
MAX_NESTING (arrays, dictionaries, types, regions, modules; up to 5000 deep), a duplicate mesh
axis (`#sdy.mesh<["x"=2, "x"=4]>`, `mesh = [data=2, data=4]`), meshes of up to 4096 devices in a
pipeline's options, `-o` onto the input with `--split-input-file`, --input files that are not
what they claim (text named .npy, an .npz that is not a zip, a zip with a member that is not an
array), and runs with stderr a pipe nobody reads. Inputs that must be refused carry `must_fail`.
"""

from __future__ import annotations

import io
import random
import re
import zipfile

import numpy as np

from fuzz.case import Case
from fuzz.corpus import PIPELINES, Seed
from meshc.layout.limits import MAX_NESTING

EXTREMES = ("0", "-1", "1", "2", "3", "7", "31", "33", "65", "2147483647", "2147483648", "4294967296",
            "9223372036854775807", "9223372036854775808", "18446744073709551616", "99999999999",
            "1000000000000000000000000000000", "-2147483648", "-9223372036854775808", "1024", "100000")
TYPES = ("i1", "i8", "i16", "i32", "i64", "i6464", "i0", "ui16", "ui32", "si32", "si8", "f16", "bf16", "f32",
         "f64", "f80", "index", "none", "!tt.tile<32x32, f32>", "!tt.tile<16x16, bf16>", "!tt.tile<0x32, f32>",
         "!tt.tile<32x32, i6464>", "complex<f32>", "tensor<4xf32>")
WORDS = ("interleaved", "height_sharded", "width_sharded", "block_sharded", "nd_sharded", "l1", "dram",
         "system", "row_major", "col_major", "tile", "oob_val", "undef", "zero", "nan", "inf", "wormhole_b0",
         "grayskull", "blackhole", "n150", "n300", "t3k", "galaxy", "replicate", "shard_to_full",
         "full_to_shard", "devices", "mesh", "shard_dims", "shard_shape", "shard_type", "tile_size",
         "true", "false", "unit", "sum", "max", "mean", "d0", "d1", "d2", "d7", "s0", "main", "foo")
AFFINE = ("floordiv 0", "ceildiv 0", "mod 0", "floordiv -1", "mod -3", "ceildiv 4", "ceildiv d1",
          "* d1", "floordiv d0", "mod d1", "* 9223372036854775807", "+ 9223372036854775807", "* 0",
          "floordiv 2147483648", "* -1", "+ s0")
DEPTHS = (MAX_NESTING - 8, MAX_NESTING + 1, MAX_NESTING + 40, 1000, 5000)
"""How deep the nesting mutator nests (on top of the text's own nesting)."""
HUGE_MESHES = ("64,64", "1,4096", "4096", "32,128", "4096,1", "2,2048", "64,65", "4097")
"""Pipelines' mesh-shape option at and past MAX_DEVICES (4096): they must finish in the time limit."""
BAD_BYTES = (b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\x00", b"\x80abc", b"\xf0\x28\x8c\xbc")

_TOKEN = re.compile(rb"""
    (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<shape>(?:\d+x)+(?:\d+|[a-z]\w*))
  | (?P<num>-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)
  | (?P<ssa>[%@^#!]?[A-Za-z_][\w.$-]*)
  | (?P<punct>->|[{}()\[\]<>,=:*+])
""", re.X)


_SDY_MESH = re.compile(rb'<\[((?:\s*"\w+"\s*=\s*\d+\s*,?)+)\]')
_NAMED_MESH = re.compile(rb"mesh = \[((?:\s*\w+\s*=\s*\d+\s*,?)+)\]")
_MESH = re.compile(_SDY_MESH.pattern + b"|" + _NAMED_MESH.pattern)
"""Meshes that name their axes: Shardy's (`<["x"=2, "y"=4]>`) and a named #tt.sharding mesh."""


def _in_comment(data: bytes, at: int) -> bool:
    """Whether offset `at` follows a `//` on its line (a comment: what it holds is not parsed)."""
    return b"//" in data[data.rfind(b"\n", 0, at) + 1: at]


def _has_mesh(data: bytes) -> bool:
    """Whether the text holds a mesh that names its axes outside comments."""
    return any(not _in_comment(data, m.start()) for m in _MESH.finditer(data))


class Mutator:
    """Builds mutated cases from seeds, deterministically from `rng`."""

    def __init__(self, seeds: list[Seed], rng: random.Random, import_share: float = 0.1):
        self.seeds = seeds
        self.import_share = import_share
        self.runnable = [s for s in seeds if s.runnable]
        self.stablehlo = [s for s in seeds if s.stablehlo]
        self.rng = rng
        self.ops = [
            (6, "number", self._number), (4, "dim", self._dim), (3, "affine", self._affine),
            (3, "type", self._type), (3, "word", self._word), (2, "swap-lines", self._swap_lines),
            (2, "delete-line", self._delete_line), (1, "duplicate-line", self._duplicate_line),
            (2, "swap-ops", self._swap_ops), (2, "truncate", self._truncate), (2, "bytes", self._bad_bytes),
            (2, "delete-token", self._delete_token), (1, "splice", self._splice), (1, "punct", self._punct),
        ]
        self.must_fail = ""
        self._weights = [w for w, _, _ in self.ops]

    # ------------------------------------------------------------------ cases

    def case(self) -> Case:
        r = self.rng
        imp = r.random() < self.import_share and self.stablehlo
        run = not imp and r.random() < 0.15 and self.runnable
        pool = self.stablehlo if imp else self.runnable if run else self.seeds
        if r.random() < 0.8:  # mostly single chunks: a whole split file costs one run per chunk
            pool = [s for s in pool if not s.split] or pool
        seed = r.choice(pool)
        data = seed.text.encode("utf-8")
        names = []
        self.must_fail = ""
        meshy = [s for s in pool if _has_mesh(s.text.encode())] if r.random() < 0.03 else []
        if meshy:  # a mesh that names an axis twice, on a seed that has a mesh
            seed = r.choice(meshy)
            data = seed.text.encode("utf-8")
        for _ in range(r.choice((1, 1, 1, 2, 2, 3))):
            _, name, fn = r.choices(self.ops, self._weights)[0]
            data = fn(data)
            names.append(name)
        # the mutations that make an input bad by construction come last, so no other undoes them
        if meshy:
            data = self._mesh_axes(data)
            names.append("mesh-axes")
        elif r.random() < 0.05:
            data = self._nest(data)
            names.append("nest")
        if imp:
            case = self._import_case(seed, data, names)
        elif run:
            case = self._run_case(seed, data, names)
        else:
            case = self._opt_case(seed, data, names)
        case.must_fail = case.must_fail or self.must_fail
        case.stderr_closed = r.random() < 0.03
        return case

    def _import_case(self, seed: Seed, data: bytes, names: list[str]) -> Case:
        r = self.rng
        argv = ["{dir}/in.mlir"]
        if seed.split:
            argv.append("--split-input-file")
        if r.random() < 0.2:
            argv += ["--mesh-shape", r.choice(("2,2", "2x4", "1", "0,2", "4096,4096", "2,", "x"))]
        if r.random() < 0.05:
            argv += ["--system", r.choice(("n150", "t3k", "galaxy", "dgx", ""))]
        if r.random() < 0.05:
            argv += ["--entry", r.choice(("main", "nope", ""))]
        if r.random() < 0.1:
            argv.append("--print-op-generic")
        if r.random() < 0.03:  # onto its own input, with every chunk on its own
            argv += ["--split-input-file", "-o", "{dir}/in.mlir"]
            names.append("o-onto-input")
        return Case("import", f"{seed.origin} [{' '.join(names)}]", argv, {"in.mlir": data})

    def _opt_case(self, seed: Seed, data: bytes, names: list[str]) -> Case:
        r = self.rng
        pipe = r.choice(seed.pipelines + PIPELINES) if r.random() < 0.8 else ""
        if pipe and r.random() < 0.1:
            pipe = self._mutate_pipeline(pipe)
            names.append("pipeline")
        elif r.random() < 0.01:  # seconds each: a few in fuzz-short, hundreds in a long campaign
            pipe = f"{r.choice(('ttir-to-ttnn-pipeline', 'ttir-to-ttmetal-pipeline'))}{{mesh-shape={r.choice(HUGE_MESHES)}}}"
            names.append("huge-mesh")
        argv = ["{dir}/in.mlir"]
        if pipe:
            argv += ["-p", pipe]
        if seed.split:
            argv.append("--split-input-file")
        if r.random() < 0.1:
            argv.append("--print-op-generic")
        if r.random() < 0.05:
            argv += ["-o", r.choice(("{dir}/out.mlir", "{dir}", "/proc/nope/out.mlir"))]
        elif r.random() < 0.04:  # onto its own input, with every chunk on its own
            if "--split-input-file" not in argv:
                argv.append("--split-input-file")
            argv += ["-o", "{dir}/in.mlir"]
            names.append("o-onto-input")
        return Case("opt", f"{seed.origin} [{' '.join(names)}]", argv, {"in.mlir": data})

    def _run_case(self, seed: Seed, data: bytes, names: list[str]) -> Case:
        r = self.rng
        argv = ["{dir}/in.mlir"]
        files = {"in.mlir": data}
        if seed.split:
            argv.append("--split-input-file")
        if r.random() < 0.5:
            argv.append("--check")
        if r.random() < 0.2:
            argv.append("--report")
        if r.random() < 0.1:
            argv += ["--target", "ttmetal"]
        if r.random() < 0.1:
            argv += [f"--seed={r.choice(EXTREMES)}"]
        if r.random() < 0.05:
            argv += ["--system", r.choice(("n150", "n300", "t3k", "galaxy", "dgx", ""))]
        if r.random() < 0.05:
            argv += ["--entry", r.choice(("main", "nope", "", "forward"))]
        must_fail = ""
        if r.random() < 0.2:
            name = r.choice(("arg0", "arg1", "x", "arg0", ""))
            files["x.npy"], bad = self._npy()
            argv += ["--input", f"{name}={{dir}}/x.npy"]
            names.append("npy")
            must_fail = bad and f"--input x.npy: {bad}"
        if r.random() < 0.08:
            files["x.npz"], bad = self._npz()
            argv += ["--input", r.choice(("{dir}/x.npz", "arg0={dir}/x.npz", "x={dir}/x.npz"))]
            names.append("npz")
            must_fail = must_fail or (bad and f"--input x.npz: {bad}")
        if r.random() < 0.1:
            target = r.choice(("{dir}/outs", "{dir}/in.mlir", "/proc/nope", "{dir}/in.mlir/sub"))
            argv += ["--save-outputs", target]
            names.append("save-outputs")
        case = Case("run", f"{seed.origin} [{' '.join(names)}]", argv, files)
        case.must_fail = must_fail
        return case

    def _npy(self) -> tuple[bytes, str]:
        """The bytes of an --input .npy file, and why it is not one ("" when it may be)."""
        r = self.rng
        kind = r.choice(("empty", "garbage", "inf", "nan", "shape", "dtype", "scalar", "ok", "truncated", "text",
                         "npz"))
        if kind == "empty":
            return b"", "empty"
        if kind == "garbage":
            return bytes(r.randrange(256) for _ in range(r.randrange(1, 200))), ""
        if kind == "text":
            return r.choice((b"1 2 3\n", b"x = [1.0, 2.0]\n", b"NUMPY\n")), "text named .npy"
        if kind == "npz":
            return self._npz_of(r.choice(("ok", "ok", "member"))), "an .npz given as .npy"
        shape = r.choice(((4, 8), (32, 32), (64, 64), (1,), (), (0, 4), (2, 3, 4), (128, 256), (8, 4)))
        dtype = np.float32
        if kind == "dtype":
            dtype = r.choice((np.int64, np.float64, np.uint8, np.bool_, np.complex64, np.float16))
        arr = np.random.default_rng(r.randrange(1 << 30)).standard_normal(shape).astype(dtype)
        if kind == "inf" and arr.size:
            arr.reshape(-1)[0] = np.inf
            arr.reshape(-1)[-1] = -np.inf
        if kind == "nan" and arr.size:
            arr.reshape(-1)[0] = np.nan
        if kind == "scalar":
            arr = np.asarray(3.0, dtype=np.float32)
        buf = io.BytesIO()
        np.save(buf, arr)
        out = buf.getvalue()
        if kind == "truncated":
            return out[: r.randrange(len(out))], "truncated"
        return out, ""

    def _npz(self) -> tuple[bytes, str]:
        """The bytes of an --input .npz file, and why it is not one ("" when it may be)."""
        kind = self.rng.choice(("ok", "text", "broken", "member", "empty", "npy"))
        why = {"ok": "", "text": "text named .npz", "broken": "a zip header and garbage",
               "member": "a member that is not an array", "empty": "empty", "npy": "an .npy given as .npz"}[kind]
        return self._npz_of(kind), why

    def _npz_of(self, kind: str) -> bytes:
        r = self.rng
        if kind == "text":
            return b"not a zip\n"
        if kind == "broken":
            return b"PK\x03\x04" + bytes(r.randrange(256) for _ in range(r.randrange(0, 100)))
        if kind == "empty":
            return b""
        buf = io.BytesIO()
        arr = np.random.default_rng(r.randrange(1 << 30)).standard_normal((4, 8)).astype(np.float32)
        if kind == "npy":
            np.save(buf, arr)
        elif kind == "member":
            with zipfile.ZipFile(buf, "w") as z:
                z.writestr("arg0.npy", b"1 2 3\n")
        else:
            np.savez(buf, arg0=arr)
        return buf.getvalue()

    def _mutate_pipeline(self, pipe: str) -> str:
        r = self.rng
        choice = r.randrange(5)
        if choice == 0 and re.search(r"\d+", pipe):
            ms = list(re.finditer(r"\d+", pipe))
            m = r.choice(ms)
            return pipe[: m.start()] + r.choice(EXTREMES) + pipe[m.end():]
        if choice == 1:
            opt = r.choice(("mesh-shape=2,4", "mesh-shape=0", "mesh-shape=9223372036854775807",
                            "mesh-shape=2,4,1,1,1", "system=galaxy", "system=\"\"", "memory-space=l1",
                            "memory-space=dram", "memory-layout=block_sharded", "max-ratio=1e309",
                            "max-ratio=-1", "point-to-point=maybe", "mesh-shape=-2,4", "system=n150"))
            pass_name = r.choice(("tt-register-device", "ttir-layout", "reshard-to-collectives",
                                  "ttir-to-ttnn-pipeline", "ttir-to-ttmetal-pipeline"))
            return f"{pass_name}{{{opt}}}" + ("," + pipe if pipe and r.random() < 0.5 else "")
        if choice == 2 and pipe:
            k = r.randrange(len(pipe))
            return pipe[:k] + r.choice(("{", "}", ",", "=", " ", "\"", "")) + pipe[k + 1:]
        if choice == 3:
            return pipe + "," + pipe
        return pipe[: r.randrange(len(pipe) + 1)]

    # ------------------------------------------------------------------ text mutators

    def _tokens(self, data: bytes, group: str | None = None) -> list[re.Match]:
        ms = [m for m in _TOKEN.finditer(data) if group is None or m.lastgroup == group]
        return ms

    def _replace(self, data: bytes, m: re.Match, new: bytes) -> bytes:
        return data[: m.start()] + new + data[m.end():]

    def _number(self, data: bytes) -> bytes:
        ms = self._tokens(data, "num")
        if not ms:
            return self._dim(data)
        return self._replace(data, self.rng.choice(ms), self.rng.choice(EXTREMES).encode())

    def _dim(self, data: bytes) -> bytes:
        ms = self._tokens(data, "shape")
        if not ms:
            return self._number(data) if self._tokens(data, "num") else self._truncate(data)
        m = self.rng.choice(ms)
        parts = m.group().split(b"x")
        r = self.rng
        how = r.randrange(4)
        if how == 0 and len(parts) > 1:
            parts.insert(r.randrange(len(parts)), r.choice(EXTREMES[:12]).lstrip("-").encode())
        elif how == 1 and len(parts) > 2:
            del parts[r.randrange(len(parts) - 1)]
        else:
            i = r.randrange(max(1, len(parts) - 1))
            parts[i] = r.choice(("0", "1", "3", "31", "2147483648", "99999999999", "9223372036854775807",
                                 "65536", "4096")).encode()
        return self._replace(data, m, b"x".join(parts))

    def _affine(self, data: bytes) -> bytes:
        r = self.rng
        ms = list(re.finditer(rb"(floordiv|ceildiv|mod|\*|\+)\s*(-?\d+|d\d+)", data))
        if ms and r.random() < 0.7:
            return self._replace(data, r.choice(ms), r.choice(AFFINE).encode())
        ms = list(re.finditer(rb"\bd\d+\b", data))
        if ms:
            m = r.choice(ms)
            return self._replace(data, m, m.group() + b" " + r.choice(AFFINE).encode())
        return self._number(data)

    def _type(self, data: bytes) -> bytes:
        ms = list(re.finditer(rb"\b(?:[su]?i\d+|bf16|f\d+|index)\b", data))
        if not ms:
            return self._word(data)
        return self._replace(data, self.rng.choice(ms), self.rng.choice(TYPES).encode())

    def _word(self, data: bytes) -> bytes:
        ms = self._tokens(data, "ssa")
        if not ms:
            return self._number(data)
        m = self.rng.choice(ms)
        prefix = m.group()[:1] if m.group()[:1] in b"%@^#!" else b""
        if prefix == b"%" and self.rng.random() < 0.5:  # another SSA name from the same text
            others = [o.group() for o in ms if o.group().startswith(b"%")]
            return self._replace(data, m, self.rng.choice(others))
        return self._replace(data, m, prefix + self.rng.choice(WORDS).encode())

    def _lines(self, data: bytes) -> list[bytes]:
        return data.split(b"\n")

    def _swap_lines(self, data: bytes) -> bytes:
        lines = self._lines(data)
        if len(lines) < 2:
            return self._truncate(data)
        i, j = self.rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)

    def _swap_ops(self, data: bytes) -> bytes:
        lines = self._lines(data)
        ops = [i for i, line in enumerate(lines) if b" = " in line and b"%" in line]
        if len(ops) < 2:
            return self._swap_lines(data)
        i = self.rng.randrange(len(ops) - 1)
        a, b = ops[i], ops[i + 1] if self.rng.random() < 0.7 else self.rng.choice(ops)
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)

    def _delete_line(self, data: bytes) -> bytes:
        lines = self._lines(data)
        del lines[self.rng.randrange(len(lines))]
        return b"\n".join(lines)

    def _duplicate_line(self, data: bytes) -> bytes:
        lines = self._lines(data)
        i = self.rng.randrange(len(lines))
        lines.insert(self.rng.randrange(len(lines) + 1), lines[i])
        return b"\n".join(lines)

    def _truncate(self, data: bytes) -> bytes:
        return data[: self.rng.randrange(len(data) + 1)]

    def _bad_bytes(self, data: bytes) -> bytes:
        k = self.rng.randrange(len(data) + 1)
        return data[:k] + self.rng.choice(BAD_BYTES) + data[k:]

    def _delete_token(self, data: bytes) -> bytes:
        ms = self._tokens(data)
        if not ms:
            return self._truncate(data)
        return self._replace(data, self.rng.choice(ms), b"")

    def _punct(self, data: bytes) -> bytes:
        k = self.rng.randrange(len(data) + 1)
        return data[:k] + self.rng.choice((b"{", b"}", b"<", b">", b"(", b")", b",", b":", b"\"", b"x", b"?",
                                           b"#", b"-", b"[", b"]", b"0x", b"1.5e999")) + data[k:]

    def _nest(self, data: bytes) -> bytes:
        """Brackets nested DEPTHS deep: around a number (arrays, dictionaries, tuple types), or the
        whole text in modules or in an unregistered op's regions."""
        r = self.rng
        n = r.choice(DEPTHS)
        how = r.randrange(4)
        if how == 3:
            wrapped = (b"module {\n" * n + data + b"\n}" * n) if r.random() < 0.5 else (
                b'"test.op"() ({\n' * n + data + b"\n}) : () -> ()" * n)
            if n > MAX_NESTING:
                self.must_fail = self.must_fail or f"{n} nested regions"
            return wrapped
        ms = [m for m in self._tokens(data, "num") if not _in_comment(data, m.start())]
        if not ms:
            return self._truncate(data)
        m = r.choice(ms)
        open_, close = ((b"[", b"]"), (b"{a = ", b"}"), (b"tuple<", b">"))[how]
        if n > MAX_NESTING:  # outside comments and strings: past the limit whatever the text around it
            self.must_fail = self.must_fail or f"{n} nested brackets"
        return self._replace(data, m, open_ * n + m.group() + close * n)

    def _mesh_axes(self, data: bytes) -> bytes:
        """A mesh that names one axis twice: Shardy's `#sdy.mesh<["x"=2, "y"=4]>` / `sdy.mesh @m =
        <[...]>`, or a named `#tt.sharding` mesh `mesh = [data=2, model=4]`."""
        r = self.rng
        meshes = [m for m in _SDY_MESH.finditer(data) if not _in_comment(data, m.start())]
        named = [m for m in _NAMED_MESH.finditer(data) if not _in_comment(data, m.start())]
        if not meshes and not named:
            return self._word(data)
        m = r.choice(meshes + named)
        axes = list(re.finditer(rb'"?(\w+)"?\s*=\s*\d+', m.group(1)))
        if len(axes) < 2:
            return self._word(data)
        first, other = axes[0], r.choice(axes[1:])
        body = m.group(1)
        body = body[: other.start(1)] + first.group(1) + body[other.end(1):]
        self.must_fail = self.must_fail or f"mesh axis {first.group(1).decode()} named twice"
        return data[: m.start(1)] + body + data[m.end(1):]

    def _splice(self, data: bytes) -> bytes:
        other = self.rng.choice(self.seeds).text.encode().split(b"\n")
        lines = self._lines(data)
        start = self.rng.randrange(len(other))
        piece = other[start: start + self.rng.randrange(1, 4)]
        k = self.rng.randrange(len(lines) + 1)
        return b"\n".join(lines[:k] + piece + lines[k:])
