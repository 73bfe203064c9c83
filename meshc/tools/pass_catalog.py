"""What meshc-opt says about its passes: `--list-passes` (each pass with its description and its
options, spelled as on the command line), MLIR's `--pass-pipeline='builtin.module(...)'` form,
and "did you mean" suggestions for unknown pass and option names.

The option facts come from xDSL (`xdsl.passes.get_pass_option_infos`, the pass's dataclass
fields); the pipeline text is read by xDSL's own `parse_pipeline`, as `-p` is.
"""

from __future__ import annotations

import difflib
import inspect
import re

from xdsl.passes import ModulePass, get_pass_option_infos
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError


def cli_name(field: str) -> str:
    """An option's name as written in a pipeline (`mesh-shape`), from its field (`mesh_shape`)."""
    return field.replace("_", "-")


def _summary(cls: type) -> str:
    """The pass's own docstring, else its module's (a dataclass without one gets `Name(fields)`)."""
    doc = cls.__dict__.get("__doc__") or ""
    if not doc or doc.startswith(cls.__name__ + "(") or doc == ModulePass.__doc__:
        doc = inspect.getdoc(inspect.getmodule(cls)) or "(no description)"
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


OPTION_HELP: dict[str, str] = {
    "system": "the system the mesh runs on: n150, n300, t3k, galaxy, or a file holding a #tt.system_desc (none: the module's, else the smallest that holds the mesh)",
    "mesh-shape": "the device mesh, e.g. 2,4 (none: the module's, else the system's chip mesh)",
    "memory-space": "where device tensors live: l1 or dram",
    "memory-layout": "how a chip's tensor is spread over its cores or banks: sharded or interleaved",
    "tiled": "lay tensors out in 32x32 tiles (false: row-major pages)",
    "reinterpret-grid": "run ttir-reinterpret-grid (a transpose done by reading the core grid transposed)",
    "check-l1": "check at compile time that every chip's L1 holds the program (ttnn-check-l1)",
    "spill-to-dram": "move tensors to DRAM interleaved until the program fits L1, instead of failing",
    "optimize-memory": "choose each device tensor's place (L1 height/width/block sharded, DRAM interleaved or sharded) by modelled time within L1 (ttnn-optimize-memory; a ttmetal program's mesh buffers: ttmetal-optimize-memory)",
    "keep-reference": "keep the ttir program as the module's reference, for meshc-run --check",
    "max-ratio": "take the collectives walk when it moves at most this multiple of the lower bound (none: exactly the bound)",
    "point-to-point": "allow ttir.point_to_point moves (false: collectives only)",
}
"""What each pass option means, by its command-line name (an option means the same in every pass
that has it); `--list-passes` prints it beside the option."""

_MLIR_TYPES = {"str": "string", "int": "long", "float": "number", "bool": "boolean"}


def mlir_type(expected: str) -> str:
    """An option's value as mlir-opt's help names it (`<string>`, `<long>`, `<boolean>`, a list
    `<long,...>`), from xDSL's Python annotation (`'tuple[int, ...] | None'`)."""
    parts = [t.strip() for t in expected.strip("'\"").split("|") if t.strip() != "None"]
    names = []
    for t in parts:
        if t.startswith(("tuple[", "list[")):
            inner = t[t.index("[") + 1 : -1].split(",")[0].strip()
            names.append(_MLIR_TYPES.get(inner, inner) + ",...")
        else:
            names.append(_MLIR_TYPES.get(t, t))
    if set(names) == {"number", "long"}:
        names = ["number"]
    return "<" + "|".join(dict.fromkeys(names)) + ">"


def describe_passes(passes: dict) -> str:
    """`--list-passes`: every pass (as a meshc-opt flag), its one-paragraph description and its
    options, as mlir-opt's help lists them (`--name=<type> - description (default: ...)`)."""
    lines = ["Available passes (run one as a flag, --NAME or --NAME='option=value ...', or in "
             "-p 'NAME{option=value ...},...'):"]
    for name in sorted(passes):
        cls = passes[name]()
        lines.append(f"  --{name}")
        lines.append(f"      {re.sub(r'^`[^`]*`: ', '', _summary(cls))}")
        for opt in get_pass_option_infos(cls):
            flag = cli_name(opt.name)
            default = "" if opt.default_value in (None, "none") else f" (default: {opt.default_value})"
            help_text = OPTION_HELP.get(flag, "")
            lines.append(f"      --{flag}={mlir_type(opt.expected_type)}"
                         f"{' - ' + help_text if help_text else ''}{default}")
    return "\n".join(lines) + "\n"


def suggestion(word: str, choices) -> str:
    """`; did you mean 'x'?` for the closest choice, or ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def check_names(spec: str, passes: dict) -> None:
    """ValueError naming the first unknown pass or option of a pipeline, with a suggestion."""
    try:
        items = list(parse_pipeline(spec))
    except (Exception, ArgSpecParseError):  # a syntax error (a BaseException in xDSL): the builder reports it
        return
    for item in items:
        if item.name not in passes:
            raise ValueError(f"unknown pass '{item.name}'{suggestion(item.name, passes)} "
                             "(meshc-opt --list-passes lists the passes)")
        cls = passes[item.name]()
        known = {cli_name(o.name) for o in get_pass_option_infos(cls)}
        for arg in item.parameters:
            if cli_name(arg) not in known:
                listed = ", ".join(sorted(known)) or "none"
                raise ValueError(f"pass '{item.name}' has no option '{arg}'{suggestion(cli_name(arg), known)} "
                                 f"(its options: {listed})")


def from_pass_pipeline(text: str) -> str:
    """MLIR's `builtin.module(p1, p2{opt=v})` -> the `-p` spec `p1,p2{opt=v}`; ValueError for
    other anchors (meshc's passes all run on the module)."""
    t = text.strip()
    head = t.split("(", 1)[0].strip()
    if "(" not in t or not t.endswith(")"):
        raise ValueError(f"--pass-pipeline '{text}' is not of the form 'builtin.module(pass1,pass2{{opt=value}})'")
    if head not in ("builtin.module", "module"):
        raise ValueError(f"--pass-pipeline anchors on '{head}'; meshc's passes run on the module: "
                         "write 'builtin.module(...)'")
    inner = t[len(t.split("(", 1)[0]) + 1 : -1].strip()
    depth = 0
    for c in inner:  # a '(' outside an option block {...} opens a nested pipeline
        depth += (c == "{") - (c == "}")
        if c == "(" and depth == 0:
            raise ValueError(f"--pass-pipeline '{text}': nested pipelines are not supported; meshc's passes "
                             "run on the module")
    return inner
