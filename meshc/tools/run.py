"""meshc-run: run a ttir or ttnn module on the simulated machine, check it, report its traffic.

    meshc-run FILE [--entry NAME] [--input NAME=FILE.npy | NAME=FILE.npz | FILE.npz ...] [--seed N]
                   [--check] [--report] [--report-json FILE] [--trace FILE] [--progress]
                   [--full] [--save-outputs DIR] [--golden FILE] [--pipeline SPEC] [--system NAME]
                   [--aggregate [NAME=]SPEC ...]

- ttir FILE: lowered with `ttir-to-ttnn-pipeline` for the module's mesh (`--target ttmetal`:
  `ttir-to-ttmetal-pipeline`; or `--pipeline`), run on the simulator; `--check` compares with
  the numpy golden run of FILE itself.
- ttnn or ttmetal FILE: run on the simulator; `--check` compares with the golden run of `--golden FILE`
  (the ttir program it was lowered from) when given, else of the ttir program FILE carries as
  its reference (meshc/dialects/reference.py; the lowering pipelines keep it); a FILE with
  neither is refused (exit 1) rather than checked against itself.
A result left distributed over the devices (an SPMD function returning a device tensor) is
printed one tensor a device (`result0@device1`); `--aggregate [NAME=]SPEC` prints it as the one
tensor its pieces make under a sharding spec (`[R, S1]`: devices along mesh axis 1 hold column
blocks; replicas read once; `P0` partial sums added). `--check` compares every device's tensor.
Inputs not given with `--input` are seeded random (`--seed`, default 0); an input whose numpy
type is not the argument's (f64 for an f32 argument, f32 values a bf16 one cannot hold) is
refused with the argument's location, never rounded silently. Tolerances: meshc/interp/check.py
and docs/simulator.md. `--report-json FILE` writes the traffic, memory, time model and every op
as JSON (RunResult.to_json); `--trace FILE` writes the simulated timeline as a Chrome / Perfetto
trace (one process a chip, one for the ethernet links); progress with an ETA goes to stderr
when it is a terminal, or with `--progress`. Bad input is a located error, exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from meshc.errors import Diagnostic, DiagnosticError, LocatedError, SourceFile, op_diagnostic

from meshc.located_parser import decode_source
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import fmt_shape
from meshc.layout.system import system
from meshc.tools.common import add_version, tool_main, wrote
from meshc.tools.run_inputs import InputFileError, load_inputs
from meshc.tools.safe_io import write_atomic

# A CLI entry point: the compiler, the interpreters and rich are imported inside the functions
# that use them, so `meshc-run --help` and an argument error answer without loading them (about
# half of the start-up time; test_architecture.CLI_ENTRY_POINTS allows it here).


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="meshc-run", description="run a ttir / ttnn module on meshc's simulator")
    p.add_argument("input_file", help="the .mlir module to run")
    p.add_argument("--entry", help="function to run (default: @main, else the first public function)")
    p.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy",
                   help="an input from a .npy file (NAME: the argument's name as the program prints it, x for %%x; "
                        "arg0, arg1, ... also work), NAME=FILE.npz "
                        "(the array NAME in it, or its only array), or FILE.npz (every array by name); repeatable")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs not given (default 0)")
    p.add_argument("--check", action="store_true", help="compare every output with the golden numpy run")
    p.add_argument("--golden", metavar="FILE", help="the pre-lowering (ttir) program to check against")
    p.add_argument("--report", action="store_true", help="print the traffic, memory and time tables")
    p.add_argument("--report-json", metavar="FILE", help="write the traffic, memory, time model and every op as JSON")
    p.add_argument("--trace", metavar="FILE", help="write the simulated timeline as a Chrome / Perfetto trace (JSON)")
    p.add_argument("--report-csv", metavar="FILE", help="write one row an op (its time by resource, its bytes) as CSV")
    p.add_argument("--plot", metavar="DIR", help="draw links.png (link traffic on the mesh), l1.png (peak L1 per chip "
                                                 "and per core) and op_time.png (per-op time by resource) into DIR")
    p.add_argument("--progress", action="store_true",
                   help="report progress and ETA on stderr even when it is not a terminal")
    p.add_argument("--aggregate", action="append", default=[], metavar="[NAME=]SPEC",
                   help="print (and save) a result left distributed over the devices as the one tensor its "
                        "pieces make under the sharding spec SPEC, e.g. '[R, S1]' (replicas read once, "
                        "partial axes P0 summed); NAME=SPEC for one result; repeatable. Without it each "
                        "device's tensor is printed. --check still compares every device's tensor")
    p.add_argument("--full", action="store_true", help="print outputs in full")
    p.add_argument("--save-outputs", metavar="DIR", help="save every output as DIR/<name>.npy")
    p.add_argument("--pipeline", help="pass pipeline lowering a ttir FILE (default: ttir-to-ttnn-pipeline "
                                      "for the module's mesh)")
    p.add_argument("--target", choices=("ttnn", "ttmetal"), default="ttnn",
                   help="what a ttir FILE is lowered to before it runs (default ttnn)")
    p.add_argument("--system", help="system to simulate (n150, n300, t3k, galaxy; default: the module's)")
    p.add_argument("--abstract", action="store_true",
                   help="simulate shapes only (no tensor data): the same traffic, time and memory report "
                        "as a data run, for systems too large to hold the tensors")
    p.add_argument("--split-input-file", action="store_true",
                   help="run each `// -----` separated module of FILE on its own (e.g. pipeline stages)")
    add_version(p)
    return p


class _Fail(Exception):
    pass


def _read(name: str) -> str:
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _Fail(f"meshc-run: error: cannot read '{name}': {e.strerror}") from None
    try:
        return decode_source(data, name)
    except DiagnosticError as e:
        raise _Fail("\n".join(d.format() for d in e.diagnostics)) from None


def _parse(name: str, text: str | None = None):
    from meshc.driver import make_context, parse_source, verify_or_raise

    text = _read(name) if text is None else text
    try:
        module = parse_source(make_context(), text, name)
        verify_or_raise(module, name)
    except DiagnosticError as e:
        src = SourceFile(name, text)
        raise _Fail("\n".join(d.format(src) for d in e.diagnostics)) from None
    return module, SourceFile(name, text)


def _run_error(e, source: SourceFile, where) -> _Fail:
    """A run error at its op; one tied to no op is placed at `where` (the module or the entry)."""
    op = getattr(e, "op", None)
    msg = getattr(e, "message", None) or str(e)
    if op is not None:
        return _Fail(op_diagnostic(op, msg, source.name).format(source))
    d = op_diagnostic(where, msg, source.name)
    return _Fail(Diagnostic(d.file, d.line, d.col, msg).format(source))


def _summary(name: str, v, full: bool) -> str:
    if isinstance(v, list):
        return "\n".join(_summary(f"{name}@device{d}", x, full) for d, x in enumerate(v))
    v = np.asarray(v)
    head = f"{name}: {fmt_shape(v.shape) or 'scalar'} {v.dtype}"
    if full:
        with np.printoptions(threshold=sys.maxsize, linewidth=120):
            return f"{head}\n{v}"
    if v.size == 0:
        return head
    flat = v.reshape(-1)
    first = ", ".join(f"{x:.6g}" if v.dtype.kind == "f" else str(x) for x in flat[:6])
    stats = f"min {flat.min():.6g} max {flat.max():.6g} mean {flat.astype(np.float64).mean():.6g}"
    return f"{head}  {stats}  [{first}{', ...' if flat.size > 6 else ''}]"


def _write_files(args, result, pending: list) -> None:
    """--report-json and --trace, made now and written (`_write_pending`) once every module ran
    and checked without an error."""
    from meshc.interp.result_export import chrome_trace

    if args.report_json:
        pending.append((args.report_json, "--report-json", (result.to_json() + "\n").encode()))
    if args.trace:
        pending.append((args.trace, "--trace", json.dumps(chrome_trace(result)).encode()))
    if args.report_csv or args.plot:
        from meshc.interp.result_export import report
        from meshc.tools.report_views import csv_text, plot_files

        rep = report(result)
        if args.report_csv:
            pending.append((args.report_csv, "--report-csv", csv_text(rep).encode()))
        if args.plot:
            prefix = f"{result.entry}." if args.split_input_file and result.entry else ""
            for name, png in plot_files(rep, result.system).items():
                pending.append((os.path.join(args.plot, prefix + name), "--plot", png))


def _write_pending(pending: list) -> None:
    """The output files of a run that succeeded, each written whole or not at all (safe_io)."""
    for path, what, data in pending:
        try:
            if what == "--save-outputs":
                os.makedirs(os.path.dirname(path), exist_ok=True)
                write_atomic(path, lambda f, a=data: np.save(f, a))
            else:
                if what == "--plot":
                    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
                write_atomic(path, lambda f, d=data: f.write(d))
                if what in ("--plot", "--report-csv"):
                    wrote("meshc-run", path, f"{len(data):,} bytes")
        except OSError as e:
            if what == "--save-outputs":
                raise _Fail(f"meshc-run: error: --save-outputs: cannot write to '{os.path.dirname(path)}': "
                            f"{e.strerror or e}") from None
            raise _Fail(f"meshc-run: error: cannot write '{path}': {e.strerror or e}") from None


def run(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    from meshc.driver import split_chunks

    try:
        _check_system(args.system)
        try:
            inputs = load_inputs(args.input)
        except InputFileError as e:
            raise _Fail(f"meshc-run: error: {e}") from None
        text = _read(args.input_file)
        chunks = split_chunks(text) if args.split_input_file else [text]
        if args.golden:
            gtext = _read(args.golden)
            gchunks = split_chunks(gtext) if args.split_input_file else [gtext]
            if len(gchunks) != len(chunks):
                raise _Fail(f"meshc-run: error: {args.input_file} has {len(chunks)} modules but the golden "
                            f"{args.golden} has {len(gchunks)}")
        else:
            gchunks = [None] * len(chunks)
        code = 0
        pending: list = []  # output files, written only when every module ran and checked
        for i, (chunk, gchunk) in enumerate(zip(chunks, gchunks)):
            if len(chunks) > 1:
                print(f"// ----- module {i}")
            try:
                with np.errstate(all="ignore"):  # inf and nan propagate as on the device, silently
                    code = max(code, _run_one(args, chunk, gchunk, inputs, pending))
            except _Fail as e:  # each module fails on its own
                sys.stdout.flush()  # its error after what it printed, when both go to one pipe
                print(str(e), file=sys.stderr)
                code = 1
        if code == 0:
            _write_pending(pending)
        elif pending:
            print("meshc-run: no output files written (--save-outputs, --report-json, --trace): the run failed",
                  file=sys.stderr)
        return code
    except _Fail as e:
        print(str(e), file=sys.stderr)
        return 1


def _run_one(args, text: str, golden_text: str | None, inputs: dict, pending: list) -> int:
    from rich.console import Console

    from meshc import lower, run as sim_run
    from meshc.dialects.tt import module_device
    from meshc.interp.check import check_output, program_computes
    from meshc.interp.common import element_dtype_name, find_entry
    from meshc.interp.runner import RunError, dialect_of, run_golden
    from meshc.tools.run_progress import RunProgress

    module, source = _parse(args.input_file, text)
    source_module = module
    try:
        f = find_entry(module, args.entry)
    except LayoutError as e:
        raise _run_error(e, source, module) from None
    progress = RunProgress.for_stderr(args.progress)
    if args.abstract and (args.check or args.save_outputs or args.full):
        raise _Fail("meshc-run: error: --abstract runs hold no tensor data: --check, --save-outputs and --full "
                    "need a data run")
    kw = dict(entry=args.entry, seed=args.seed, system=args.system, pipeline=args.pipeline, target=args.target,
              abstract=args.abstract)
    try:
        if dialect_of(module) == "ttir":  # lower first, as run() would, to report the phase
            with progress.phase("lowering", None):
                module = lower(module, args.pipeline, args.target)
        f = find_entry(module, args.entry)
        body = f.body.blocks.first
        with progress.phase("simulating", len(body.ops), block=body, by_work=True):
            result = sim_run(module, inputs, progress=progress, source_device=module_device(source_module), **kw)
    except DiagnosticError as e:  # lowering a ttir module failed
        raise _Fail("\n".join(d.format(source) for d in e.diagnostics)) from None
    except (RunError, LayoutError, LocatedError) as e:  # LocatedError: a module attribute read at run time
        raise _run_error(e, source, f) from None
    except ValueError as e:  # a pass pipeline that does not parse
        raise _Fail(f"meshc-run: error: {e}") from None

    out_types = [element_dtype_name(t) for t in f.function_type.outputs.data]
    shown = _aggregated(args.aggregate, result)
    for name, v in zip(result.names, shown):
        if args.abstract:
            shapes = [np.shape(x) for x in v] if isinstance(v, list) else [np.shape(v)]
            print(f"{name}: {' | '.join(fmt_shape(sh) or 'scalar' for sh in shapes)} (abstract: shape only)")
        else:
            print(_summary(name, v, args.full))
    if args.save_outputs:
        _save_outputs(args.save_outputs, f"{f.sym_name.data}." if args.split_input_file else "", result.names, shown,
                      pending)
    if args.report:
        from meshc.tools.report import print_report

        # a terminal's own width (rich fits the tables to it); 140 columns into a file or a pipe
        console = Console(width=None if sys.stdout.isatty() else 140)
        print_report(result, console)
        if dialect_of(module) in ("ttnn", "ttmetal"):  # where each tensor sits and why (docs/passes.md)
            from meshc.tools.report_placement import print_placement

            print_placement(module, f, console)
    _write_files(args, result, pending)

    code = 0
    if args.check:
        gmod, gsource = _reference(args, source_module, module, source, golden_text)
        try:
            gf = find_entry(gmod, args.entry)
            gbody = gf.body.blocks.first
            with progress.phase("golden", len(gbody.ops), block=gbody, by_work=True):
                golden = run_golden(gmod, list(result.inputs.values()), entry=args.entry, progress=progress)
        except (RunError, LayoutError) as e:
            raise _run_error(e, gsource, gmod) from None
        exact = not program_computes(gmod)
        if len(golden.outputs) != len(result.outputs):
            raise _Fail(f"meshc-run: error: the golden program returns {len(golden.outputs)} outputs, "
                        f"the simulated one {len(result.outputs)}")
        result.checks = []
        with progress.phase("check", len(result.outputs), unit="outputs"):
            for name, got, want, dt in zip(result.names, result.outputs, golden.outputs, out_types):
                result.checks.append(check_output(name, got, want, dt, exact))
                progress.advance(1, name)
        for c, dt in zip(result.checks, out_types):
            if not c.ok:
                print(f"check: MISMATCH at {c.mismatch}\ncheck: {c.summary()}", file=sys.stderr)
                code = 1
            else:
                how = "exact" if exact else f"within the {dt} tolerance"
                print(f"check: {c.output} matches the golden run ({how})\ncheck: {c.summary()}")
    return code


def _check_system(name: str | None) -> None:
    if name is None:
        return

    try:
        system(name)
    except LayoutError as e:
        raise _Fail(f"meshc-run: error: --system: {e}") from None


def _aggregated(specs: list[str], result) -> list:
    """The outputs as `--aggregate` asks to show them: a distributed output whose spec is given
    (by its name, or by a spec without a name for every distributed output) becomes the one tensor
    its devices' pieces make (meshc.layout.to_global); the others are as they are."""
    if not specs:
        return list(result.outputs)
    from meshc.layout.errors import LayoutError
    from meshc.layout.sharding_spec import parse_spec, to_global

    by_name: dict[str | None, str] = {}
    for s in specs:
        name, spec = (s.split("=", 1) if "=" in s.split("[", 1)[0] else (None, s))
        if name is not None and name not in result.names:
            raise _Fail(f"meshc-run: error: --aggregate {s}: the entry function has no result '{name}' "
                        f"(its results: {', '.join(result.names) or 'none'})")
        by_name[name] = spec.strip()
    parsed = {}
    for name, spec in by_name.items():  # every spec read, whether or not a result takes it
        try:
            parsed[name] = parse_spec(spec, tuple(result.mesh_shape))
        except LayoutError as e:
            whose = f" for {name}" if name is not None else ""
            raise _Fail(f"meshc-run: error: --aggregate {spec}{whose} on the {fmt_shape(result.mesh_shape)} mesh: "
                        f"{e}") from None
    if None in by_name and not any(isinstance(v, list) for v in result.outputs):
        raise _Fail(f"meshc-run: error: --aggregate {by_name[None]}: no result is left distributed over the devices "
                    "(every result is one host tensor); "
                    "--aggregate makes one tensor of a distributed result's pieces")
    shown = []
    for name, v in zip(result.names, result.outputs):
        spec = by_name.get(name, by_name.get(None))
        if spec is None or not isinstance(v, list):
            if spec is not None and name in by_name:
                raise _Fail(f"meshc-run: error: --aggregate {name}={spec}: {name} is one host tensor, not a "
                            "result left distributed over the devices")
            shown.append(v)
            continue
        try:
            shown.append(to_global([np.asarray(x) for x in v], parsed[name if name in parsed else None]))
        except LayoutError as e:
            raise _Fail(f"meshc-run: error: --aggregate {spec} for {name} on the {fmt_shape(result.mesh_shape)} "
                        f"mesh: {e}") from None
    return shown


def _save_outputs(folder: str, prefix: str, names: list[str], outputs: list, pending: list) -> None:
    """Every output as FOLDER/<prefix><name>.npy (a distributed one stacked, one row a device),
    written by `_write_pending` when the whole run succeeded; a folder that cannot be made or
    written is then an error about the --save-outputs argument."""
    for name, v in zip(names, outputs):
        arr = np.stack(v) if isinstance(v, list) else np.asarray(v)
        pending.append((os.path.join(folder, f"{prefix}{name}.npy"), "--save-outputs", arr))


def _reference(args, module, lowered, source: SourceFile, golden_text: str | None):
    """The independent program --check compares with: `--golden FILE`, else the ttir program the
    `lowered` module carries as its reference (for a ttir FILE, its lowering's reference holds
    FILE's program on the device the pipeline registered), else a ttir FILE itself (lowered with
    keep-reference=false); a lowered FILE without one is refused (it would be checked against
    itself)."""
    from meshc.dialects.reference import find_reference
    from meshc.interp.runner import dialect_of

    if golden_text is not None:
        return _parse(args.golden, golden_text)
    ref = find_reference(lowered)
    if ref is not None:
        return ref, source
    kind = dialect_of(module)
    if kind == "ttir":
        return module, source
    raise _Fail(op_diagnostic(
        module, f"--check needs an independent reference, and this {kind} program carries none: no "
        "`module attributes {meshc.reference}` holding the ttir program it was lowered from (the "
        "ttir-to-ttnn / ttir-to-ttmetal pipelines keep it unless keep-reference=false) and no --golden "
        f"FILE; checking the {kind} program against its own numpy reading would prove nothing. "
        "Give --golden FILE with the ttir program, or check the ttir program itself", source.name).format(source))


def main(argv: list[str] | None = None) -> None:
    tool_main("meshc-run", run, argv)


if __name__ == "__main__":
    main()
