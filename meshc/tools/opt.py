"""meshc-opt: parse, verify, transform and print MLIR with meshc's dialects and passes.

Follows the xdsl-opt / mlir-opt conventions: `-p 'pass{opt=val},other'` or MLIR's
`--pass-pipeline='builtin.module(pass{opt=val},other)'`, `-o`, `--split-input-file` (every good
chunk printed, separated by `// -----`; a bad chunk reports its errors and makes the exit code
1), `--print-op-generic` / `--mlir-print-op-generic`, `--print-between-passes` /
`--mlir-print-ir-after-all` (to stderr), `--time-passes` (a report on stderr),
`--verify-diagnostics`, `--allow-unregistered-dialect`, `--list-passes` (descriptions and
options, as mlir-opt's help lists them), `--version`, `--show-dialects`; every pass as a flag
(`--ttir-propagate-sharding`, `--tt-register-device='system=t3k mesh-shape=2,4'`, in command-line
order); `--mlir-print-ir-before=<pass>` / `--mlir-print-ir-after=<pass>` (passes nested in a
pipeline too), `--mlir-timing` (mlir-opt's execution time report), and
`--mlir-elide-elementsattrs-if-larger=N` (meshc/tools/opt_observe.py). Empty or comment-only
input is an empty module. Unknown pass, option and operation names get a "did you mean". Errors
on user input print as `file:line:col: error: ...` with the source line and a caret, and exit 1;
`-o FILE` says on stderr what it wrote.
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import nullcontext
from typing import TYPE_CHECKING

from meshc.passes import pass_names
from meshc.tools.common import add_version, tool_main, write_output
from meshc.tools.gc_tuning import tune_for_large_ir

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

# xDSL, meshc's driver, dialects and passes are imported once the arguments are read (in `run`
# and the helpers it calls), so `--help` and usage errors answer without loading them
# (test_architecture.CLI_ENTRY_POINTS allows it here).


class _Usage(Exception):
    pass


class _ArgParser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 1, as every meshc tool does on bad input
        raise _Usage(message)


def _arg_parser() -> argparse.ArgumentParser:
    p = _ArgParser(
        prog="meshc-opt",
        description="meshc modular optimizer driver (xdsl-opt conventions, meshc dialects and passes)",
    )
    p.add_argument("input_file", nargs="?", help="input .mlir file (default: stdin)")
    p.add_argument("-p", "--passes", default="", help="pass pipeline, e.g. 'tt-register-device{system=t3k}'")
    p.add_argument("--pass-pipeline", help="MLIR's form of the pipeline: 'builtin.module(pass1,pass2{opt=value})'")
    p.add_argument("-o", "--output-file", help="write the result here instead of stdout")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each `// -----` separated chunk independently")
    p.add_argument("--print-op-generic", "--mlir-print-op-generic", dest="print_op_generic", action="store_true",
                   help="print operations in generic form")
    p.add_argument("--emit", choices=("meshc", "ttmlir"), default="meshc",
                   help="the spelling of the output: meshc's own, or tt-mlir's (ttcore names, properties, "
                        "generic form) for tt-mlir's tools (docs/importers.md)")
    p.add_argument("--print-between-passes", "--mlir-print-ir-after-all", dest="print_between_passes",
                   action="store_true", help="print the IR after every pass (to stderr)")
    p.add_argument("--time-passes", action="store_true", help="print the time each pass took (to stderr)")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against `// expected-error` annotations")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accept operations of dialects meshc does not know")
    p.add_argument("--no-aliases", action="store_true", help="print long attributes inline, not as aliases")
    p.add_argument("--list-passes", action="store_true",
                   help="list the registered passes with their descriptions and options, and exit")
    add_version(p)
    p.add_argument("--show-dialects", action="store_true", help="print the registered dialects and exit")
    p.add_argument("--mlir-timing", action="store_true",
                   help="print mlir-opt's execution time report (parser, verifier, every pass, nested ones "
                        "under their pipeline, output) on stderr")
    p.add_argument("--mlir-print-ir-before", action="append", default=[], metavar="PASS[,PASS...]",
                   help="print the IR before each run of these passes (nested ones too) on stderr")
    p.add_argument("--mlir-print-ir-after", action="append", default=[], metavar="PASS[,PASS...]",
                   help="print the IR after each run of these passes (nested ones too) on stderr")
    p.add_argument("--mlir-elide-elementsattrs-if-larger", type=int, metavar="N", dest="elide_larger",
                   help="print dense literals of more than N elements (not splats) as dense_resource<__elided__>")
    g = p.add_argument_group("passes", "every pass is also a flag; the flags run in command-line order, "
                                       "options as --NAME='option=value ...' (--list-passes describes them)")
    for name in pass_names():  # listed for --help; run() takes them out of argv before parsing
        g.add_argument(f"--{name}", action="store_true", dest=f"_pass_{name}")
    return p


def pass_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """(argv without the per-pass flags, the `-p` items they spell, in order): `--NAME` is the
    pass NAME, `--NAME=OPTS` (mlir-opt's `--pass="opt=value ..."`) is `NAME{OPTS}`."""
    names = set(pass_names())
    rest: list[str] = []
    items: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            rest += argv[i:]
            break
        head, eq, opts = arg[2:].partition("=") if arg.startswith("--") else ("", "", "")
        if head in names:
            items.append(f"{head}{{{opts}}}" if eq and opts.strip() else head)
        else:
            rest.append(arg)
    return rest, items


class _PassHooks:
    """Per-pass timings of the top-level passes (--time-passes)."""

    def __init__(self, args):
        self.args = args
        self.times: list[tuple[str, float]] = []

    def after(self, p, module: ModuleOp, seconds: float) -> None:
        self.times.append((p.name, seconds))

    def report(self) -> None:
        if not self.args.time_passes:
            return
        total = sum(t for _, t in self.times) or 1e-12
        width = max([len(n) for n, _ in self.times] + [5])
        print("===" + "-" * 70 + "===\n  meshc-opt pass execution timing report\n===" + "-" * 70 + "===",
              file=sys.stderr)
        print(f"  {'wall time (s)':>14}  {'share':>6}  pass", file=sys.stderr)
        for name, t in self.times:
            print(f"  {t:14.4f}  {100 * t / total:5.1f}%  {name}", file=sys.stderr)
        print(f"  {total:14.4f}  100.0%  {'total'.ljust(width)}", file=sys.stderr)


def _process_chunk(args, source: SourceFile, chunk_text: str, pipeline_spec: str, hooks: _PassHooks,
                   watch) -> str:
    """Parse, verify, transform and print one chunk. Raises DiagnosticError on bad input."""
    from meshc.driver import apply_pipeline, build_pipeline, make_context, parse_source, print_module, verify_or_raise
    from meshc.errors import DiagnosticError, LocatedError, op_diagnostic
    from meshc.passes.observe import observing
    from meshc.ttmlir_emit import print_ttmlir

    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    pipeline = build_pipeline(pipeline_spec)
    with watch.phase("Parser"):
        module = parse_source(ctx, chunk_text, source.name)  # nothing but comments: an empty module
    with watch.phase("Verifier"):
        verify_or_raise(module, source.name)
    with observing(watch):
        for p in pipeline:  # one pass at a time, through the driver's located pass loop
            start = time.perf_counter()
            apply_pipeline(ctx, module, (p,), source.name)
            hooks.after(p, module, time.perf_counter() - start)
    with watch.phase("Output"):
        if args.emit == "ttmlir":
            try:
                return print_ttmlir(module)
            except LocatedError as e:  # an op tt-mlir's spelling cannot say
                raise DiagnosticError([op_diagnostic(e.op, e.message, source.name)]) from None
        return print_module(module, generic=args.print_op_generic, aliases=not args.no_aliases,
                            elide_larger=args.elide_larger)


def run(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    try:
        argv, flagged = pass_flags(list(sys.argv[1:] if argv is None else argv))
        args = _arg_parser().parse_args(argv)
        if args.pass_pipeline is not None:
            if args.passes:
                raise _Usage("give the pipeline once: -p or --pass-pipeline, not both")
            from meshc.tools.pass_catalog import from_pass_pipeline

            args.passes = from_pass_pipeline(args.pass_pipeline)
        if flagged:
            if args.passes:
                raise _Usage("give the pipeline one way: -p, --pass-pipeline or pass flags such as "
                             f"--{flagged[0].split('{')[0]}, not several")
            args.passes = ",".join(flagged)
        if args.elide_larger is not None and args.elide_larger < 0:
            raise _Usage(f"--mlir-elide-elementsattrs-if-larger={args.elide_larger}: N must be 0 or more")
    except (_Usage, ValueError) as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1
    from xdsl.utils.exceptions import ParseError

    from meshc.errors import Diagnostic, DiagnosticError, SourceFile, collecting_warnings

    from meshc.located_parser import read_source

    from meshc.verify_diagnostics import check_expected_diagnostics, collect_expectations
    from meshc.driver import build_pipeline, split_chunks
    from meshc.passes import get_all_passes
    from meshc.tools.pass_catalog import check_names, describe_passes

    from meshc.tools.opt_observe import PassWatch, named_passes, show_dialects

    if args.list_passes:
        sys.stdout.write(describe_passes(get_all_passes()))
        return 0
    if args.show_dialects:
        sys.stdout.write(show_dialects())
        return 0
    try:
        watch = PassWatch(named_passes(args.mlir_print_ir_before, "--mlir-print-ir-before"),
                          named_passes(args.mlir_print_ir_after, "--mlir-print-ir-after"),
                          args.print_between_passes,
                          dict(generic=args.print_op_generic, aliases=not args.no_aliases,
                               elide_larger=args.elide_larger))
        watch.times[("Start-up (loading meshc and xDSL)",)] = time.perf_counter() - started
    except ValueError as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1
    read = read_source("meshc-opt", args.input_file)
    if read is None:
        return 1
    name, text = read
    source = SourceFile(name, text)

    try:
        with watch.phase("Pipeline construction (loading the passes)"):
            check_names(args.passes, get_all_passes())
            build_pipeline(args.passes)  # report a bad pipeline once, before any chunk
    except ValueError as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1

    chunks = split_chunks(text) if args.split_input_file else [text]
    hooks = _PassHooks(args)
    outputs: list[str] = []
    failed = False
    problems: list[Diagnostic] = []
    for chunk in chunks:
        produced: list[Diagnostic] = []
        # under --verify-diagnostics the passes' warnings are checked too, not printed
        with collecting_warnings() if args.verify_diagnostics else nullcontext([]) as warned:
            try:
                outputs.append(_process_chunk(args, source, chunk, args.passes, hooks, watch))
            except DiagnosticError as e:
                produced = e.diagnostics
            except ParseError as e:  # pragma: no cover - parse_source converts these
                produced = [Diagnostic(name, 0, 0, e.msg)]
        if args.verify_diagnostics:
            problems += check_expected_diagnostics(collect_expectations(chunk), warned + produced, name)
        elif produced:
            failed = True
            for d in produced:
                print(d.format(source), file=sys.stderr)
    hooks.report()
    if args.mlir_timing:
        sys.stderr.write(watch.timing_report(time.perf_counter() - started))
    if args.verify_diagnostics and problems:
        for d in problems:
            print(d.format(source), file=sys.stderr)
        return 1
    if failed and (not args.split_input_file or args.output_file):
        return 1  # -o is written only when every chunk succeeded: `-o F` never replaces F with part of it

    # with --split-input-file the good chunks are printed even when others failed (as mlir-opt does)
    if not write_output("meshc-opt", args.output_file, "// -----\n".join(outputs)):
        return 1
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> None:
    tune_for_large_ir()
    tool_main("meshc-opt", run, argv)


if __name__ == "__main__":
    main()
