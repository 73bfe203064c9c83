"""meshc-import: StableHLO (as JAX writes it, with Shardy or GSPMD shardings) -> global-view ttir.

`meshc-import FILE [-o OUT] [--mesh-shape 2,4] [--entry NAME] [--system NAME]`: reads a StableHLO
module (MLIR's generic form; the dialects' custom syntax too when jax is installed), translates
its entry function to ttir (meshc/importers/) and prints the module. `--split-input-file` and
`--verify-diagnostics` work as in meshc-opt. Errors point at the op in the input file
(`file:line:col: error: 'stablehlo.sort' op has no ttir translation ...`) and exit 1.
"""

from __future__ import annotations

import argparse
import sys

from meshc.errors import Diagnostic, DiagnosticError, SourceFile

from meshc.located_parser import read_source

from meshc.verify_diagnostics import check_expected_diagnostics, collect_expectations
from meshc.driver import print_module, split_chunks
from meshc.tools.common import add_version, tool_main, write_output

# A CLI entry point: the heavy modules are imported inside the functions that use them, so
# `meshc-import --help` answers without loading the importers
# (test_architecture.CLI_ENTRY_POINTS allows it here).


def _mesh_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(t) for t in text.replace("x", ",").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 2,4 or 2x4, got '{text}'") from None
    if not shape or any(n < 1 for n in shape):
        raise argparse.ArgumentTypeError(f"mesh sizes must be positive, got '{text}'")
    return shape


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="meshc-import",
                                description="translate StableHLO (JAX's export, with sdy / mhlo.sharding "
                                            "annotations) to meshc's global-view ttir")
    p.add_argument("input_file", nargs="?", help="StableHLO .mlir file (default: stdin)")
    p.add_argument("-o", "--output-file", help="write the ttir module here instead of stdout")
    p.add_argument("--mesh-shape", type=_mesh_shape,
                   help="the device mesh, e.g. 2,4 (needed for mhlo.sharding; Shardy modules declare theirs)")
    p.add_argument("--entry", help="the function to import (default: every public function, as tt-mlir makes each "
                                   "one a program; meshc-run runs @main, or the first)")
    p.add_argument("--system", help="the system the mesh runs on (n150, n300, t3k, galaxy; default: the "
                                    "smallest that holds the mesh)")
    p.add_argument("--automatic-arg-analysis", action="store_true",
                   help="tt-mlir's automatic argument analysis for a module with no sharding annotation: on a "
                        "1,N mesh, split dim 0 of each argument of the largest rank (at least 4) over the "
                        "second axis (batch parallelism)")
    p.add_argument("--split-input-file", action="store_true", help="import each `// -----` chunk on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against `// expected-error` annotations")
    p.add_argument("--print-op-generic", action="store_true", help="print operations in generic form")
    add_version(p)
    return p


def run(argv: list[str] | None = None) -> int:
    from meshc.importers import import_stablehlo

    args = _arg_parser().parse_args(argv)
    read = read_source("meshc-import", args.input_file)
    if read is None:
        return 1
    name, text = read
    source = SourceFile(name, text)
    outputs: list[str] = []
    failed = False
    problems: list[Diagnostic] = []
    for chunk in split_chunks(text) if args.split_input_file else [text]:
        produced: list[Diagnostic] = []
        try:
            module = import_stablehlo(chunk, name, mesh_shape=args.mesh_shape, entry=args.entry, system=args.system,
                                      automatic_arg_analysis=args.automatic_arg_analysis)
            outputs.append(print_module(module, generic=args.print_op_generic))
        except DiagnosticError as e:
            produced = e.diagnostics
        if args.verify_diagnostics:
            problems += check_expected_diagnostics(collect_expectations(chunk), produced, name)
        elif produced:
            failed = True
            for d in produced:
                print(d.format(source), file=sys.stderr)
    if problems:
        for d in problems:
            print(d.format(source), file=sys.stderr)
        return 1
    if failed:
        return 1
    return 0 if write_output("meshc-import", args.output_file, "// -----\n".join(outputs)) else 1


def main(argv: list[str] | None = None) -> None:
    tool_main("meshc-import", run, argv)


if __name__ == "__main__":
    main()
