"""meshc-opt: parse, verify, transform and print MLIR with meshc's dialects and passes.

Follows the xdsl-opt / mlir-opt conventions: `-p 'pass{opt=val},other'` or MLIR's
`--pass-pipeline='builtin.module(pass{opt=val},other)'`, `-o`, `--split-input-file` (every good
chunk printed, separated by `// -----`; a bad chunk reports its errors and makes the exit code
1), `--print-op-generic` / `--mlir-print-op-generic`, `--print-between-passes` /
`--mlir-print-ir-after-all` (to stderr), `--time-passes` (a report on stderr),
`--verify-diagnostics`, `--allow-unregistered-dialect`, `--list-passes` (descriptions and
options), `--version` (xDSL's version action). Empty or comment-only input is an empty module.
Unknown pass or option names get a "did you mean". Errors on user input print as
`file:line:col: error: ...` with the source line and a caret, and exit 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

import meshc

from meshc.tools.common import tool_main, write_output

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

# xDSL, meshc's driver, dialects and passes are imported once the arguments are read (in `run`
# and the helpers it calls), so `--help` and usage errors answer without loading them
# (test_architecture.CLI_ENTRY_POINTS allows it here).


class _Usage(Exception):
    pass


class _Version(argparse.Action):
    """xDSL's version action (`--version`), imported only when the flag is given."""

    def __init__(self, *args, version_format: str, **kwargs):
        super().__init__(*args, nargs=0, **kwargs)
        self.version_format = version_format

    def __call__(self, parser, namespace, values, option_string=None):
        from xdsl.xdsl_opt_main import VersionAction

        VersionAction([], self.dest, version_format=self.version_format)(parser, namespace, values, option_string)


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
    p.add_argument("--version", action=_Version,
                   version_format=f"meshc-opt {meshc.__version__} (xDSL {{xdsl_version}})")
    return p


class _PassHooks:
    """Per-pass IR dumps and timings (--print-between-passes, --time-passes)."""

    def __init__(self, args):
        self.args = args
        self.times: list[tuple[str, float]] = []

    def after(self, p, module: ModuleOp, seconds: float) -> None:
        self.times.append((p.name, seconds))
        if self.args.print_between_passes:
            from meshc.driver import print_module

            print(f"// -----// IR Dump After {p.name} //----- //", file=sys.stderr)
            sys.stderr.write(print_module(module, generic=self.args.print_op_generic,
                                          aliases=not self.args.no_aliases))

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


def _process_chunk(args, source: SourceFile, chunk_text: str, pipeline_spec: str, hooks: _PassHooks) -> str:
    """Parse, verify, transform and print one chunk. Raises DiagnosticError on bad input."""
    from xdsl.dialects.builtin import ModuleOp

    from meshc.driver import apply_pipeline, build_pipeline, make_context, parse_source, print_module, verify_or_raise

    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    pipeline = build_pipeline(pipeline_spec)
    module = parse_source(ctx, chunk_text, source.name)  # nothing but comments: an empty module
    verify_or_raise(module, source.name)
    for p in pipeline:  # one pass at a time, through the driver's located pass loop
        start = time.perf_counter()
        apply_pipeline(ctx, module, (p,), source.name)
        hooks.after(p, module, time.perf_counter() - start)
    return print_module(module, generic=args.print_op_generic, aliases=not args.no_aliases)


def run(argv: list[str] | None = None) -> int:
    try:
        args = _arg_parser().parse_args(argv)
        if args.pass_pipeline is not None:
            if args.passes:
                raise _Usage("give the pipeline once: -p or --pass-pipeline, not both")
            from meshc.tools.pass_catalog import from_pass_pipeline

            args.passes = from_pass_pipeline(args.pass_pipeline)
    except (_Usage, ValueError) as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1
    from xdsl.utils.exceptions import ParseError

    from meshc.errors import Diagnostic, DiagnosticError, SourceFile

    from meshc.located_parser import read_source

    from meshc.verify_diagnostics import check_expected_diagnostics, collect_expectations
    from meshc.driver import build_pipeline, split_chunks
    from meshc.passes import get_all_passes
    from meshc.tools.pass_catalog import check_names, describe_passes

    if args.list_passes:
        sys.stdout.write(describe_passes(get_all_passes()))
        return 0
    read = read_source("meshc-opt", args.input_file)
    if read is None:
        return 1
    name, text = read
    source = SourceFile(name, text)

    try:
        check_names(args.passes, get_all_passes())
        build_pipeline(args.passes)  # report a bad pipeline once, before any chunk
    except ValueError as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1

    chunks = split_chunks(text) if args.split_input_file else [text]
    hooks = _PassHooks(args)
    outputs: list[str] = []
    failed = False
    problems: list[str] = []
    for chunk in chunks:
        produced: list[Diagnostic] = []
        try:
            outputs.append(_process_chunk(args, source, chunk, args.passes, hooks))
        except DiagnosticError as e:
            produced = e.diagnostics
        except ParseError as e:  # pragma: no cover - parse_source converts these
            produced = [Diagnostic(name, 0, 0, e.msg)]
        if args.verify_diagnostics:
            problems += check_expected_diagnostics(collect_expectations(chunk), produced, name)
        elif produced:
            failed = True
            for d in produced:
                print(d.format(source), file=sys.stderr)
    hooks.report()
    if args.verify_diagnostics and problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1
    if failed and not args.split_input_file:
        return 1

    # with --split-input-file the good chunks are printed even when others failed (as mlir-opt does)
    if not write_output("meshc-opt", args.output_file, "// -----\n".join(outputs)):
        return 1
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> None:
    tool_main("meshc-opt", run, argv)


if __name__ == "__main__":
    main()
