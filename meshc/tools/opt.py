"""meshc-opt: parse, verify, transform and print MLIR with meshc's dialects and passes.

Follows the xdsl-opt / mlir-opt conventions: `-p 'pass{opt=val},other'`, `-o`,
`--split-input-file`, `--print-op-generic`, `--verify-diagnostics`,
`--allow-unregistered-dialect`. Errors on user input print as
`file:line:col: error: ...` with the source line and a caret, and exit 1.
"""

from __future__ import annotations

import argparse
import sys

from xdsl.utils.exceptions import ParseError

from meshc.diagnostics import (
    Diagnostic,
    DiagnosticError,
    SourceFile,
    check_expected_diagnostics,
    collect_expectations,
    decode_source,
)
from meshc.driver import (
    apply_pipeline,
    build_pipeline,
    make_context,
    parse_source,
    print_module,
    split_chunks,
    verify_or_raise,
)
from meshc.tools.common import tool_main


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="meshc-opt",
        description="meshc modular optimizer driver (xdsl-opt conventions, meshc dialects and passes)",
    )
    p.add_argument("input_file", nargs="?", help="input .mlir file (default: stdin)")
    p.add_argument("-p", "--passes", default="", help="pass pipeline, e.g. 'tt-register-device{system=t3k}'")
    p.add_argument("-o", "--output-file", help="write the result here instead of stdout")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each `// -----` separated chunk independently")
    p.add_argument("--print-op-generic", action="store_true", help="print operations in generic form")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against `// expected-error` annotations")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accept operations of dialects meshc does not know")
    p.add_argument("--no-aliases", action="store_true", help="print long attributes inline, not as aliases")
    p.add_argument("--list-passes", action="store_true", help="list the registered passes and exit")
    return p


def _process_chunk(args, source: SourceFile, chunk_text: str, pipeline_spec: str) -> str:
    """Parse, verify, transform and print one chunk. Raises DiagnosticError on bad input."""
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    pipeline = build_pipeline(pipeline_spec)
    module = parse_source(ctx, chunk_text, source.name)
    verify_or_raise(module, source.name)
    apply_pipeline(ctx, module, pipeline, source.name)
    return print_module(module, generic=args.print_op_generic, aliases=not args.no_aliases)


def run(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    if args.list_passes:
        from meshc.passes import get_all_passes

        for name in sorted(get_all_passes()):
            print(name)
        return 0
    if args.input_file is None or args.input_file == "-":
        name, data = "<stdin>", sys.stdin.buffer.read()
    else:
        name = args.input_file
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"meshc-opt: error: cannot read '{name}': {e.strerror}", file=sys.stderr)
            return 1
    try:
        text = decode_source(data, name)
    except DiagnosticError as e:
        print("\n".join(d.format() for d in e.diagnostics), file=sys.stderr)
        return 1
    source = SourceFile(name, text)

    try:
        build_pipeline(args.passes)  # report a bad pipeline once, before any chunk
    except ValueError as e:
        print(f"meshc-opt: error: {e}", file=sys.stderr)
        return 1

    chunks = split_chunks(text) if args.split_input_file else [text]
    outputs: list[str] = []
    failed = False
    problems: list[str] = []
    for chunk in chunks:
        produced: list[Diagnostic] = []
        try:
            outputs.append(_process_chunk(args, source, chunk, args.passes))
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
    if args.verify_diagnostics and problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1
    if failed:
        return 1

    result = "// -----\n".join(outputs)
    if args.output_file:
        try:
            with open(args.output_file, "w", encoding="utf-8") as f:
                f.write(result)
        except OSError as e:
            print(f"meshc-opt: error: cannot write '{args.output_file}': {e.strerror}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(result)
    return 0


def main(argv: list[str] | None = None) -> None:
    tool_main("meshc-opt", run, argv)


if __name__ == "__main__":
    main()
