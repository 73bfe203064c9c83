"""`python -m fuzz`: run a fuzz campaign and print the counts of each outcome class.

    python -m fuzz --inputs 100000 --seed 1 [--start 0] [--workers 2] [--api-share 0.1] [--out fuzz-out]
                   [--time-limit 10] [--mem-limit 2048] [--minimize] [--replay DIR]

Cases come from the corpus (`fuzz.corpus`) through the mutators (`fuzz.mutate`) and from the
API strategies (`fuzz.api`), all fixed by `--seed`. Failures (see `fuzz.classify.FAILING`,
plus mismatches) are saved under `--out`, at most `--keep` per signature: the input files, the
command (`command.sh` reruns it with the real tools), the message and a pickle `--replay` reads.
Exit status: 1 when any failing class was seen, else 0.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter

from fuzz.api import draw_api_cases
from fuzz.case import Case
from fuzz.classify import CLASSES, FAILING, signature
from fuzz.corpus import load_corpus
from fuzz.execute import preload, run_case
from fuzz.minimize import minimize
from fuzz.mutate import Mutator
from fuzz.pool import Pool


def _args(argv):
    p = argparse.ArgumentParser(prog="python -m fuzz", description="meshc's fuzz campaign")
    p.add_argument("--inputs", type=int, default=2000, help="number of inputs (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the campaign (default 1)")
    p.add_argument("--start", type=int, default=0,
                   help="skip the seed's first START inputs (drawn, not run): `--start 50000 --inputs 50000` "
                        "runs the second half of `--inputs 100000`, so a campaign can run in slices")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="forked workers (default: cores)")
    p.add_argument("--api-share", type=float, default=0.1, help="share of inputs that are API calls")
    p.add_argument("--import-share", type=float, default=0.1,
                   help="share of the other inputs that go to meshc-import (StableHLO seeds; default 0.1)")
    p.add_argument("--time-limit", type=float, default=10.0, help="CPU seconds per input (default 10)")
    p.add_argument("--mem-limit", type=int, default=2048, help="MiB of address space per input (default 2048)")
    p.add_argument("--out", default="fuzz-out", help="where failures are saved (default fuzz-out)")
    p.add_argument("--keep", type=int, default=3, help="failures saved per signature (default 3)")
    p.add_argument("--minimize", action="store_true", help="minimise one saved input per failure signature")
    p.add_argument("--replay", metavar="DIR", help="rerun a saved failure (its case.pickle) and print the outcome")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p.parse_args(argv)


API_BATCH = 200
"""API cases are drawn by hypothesis in batches of this size (batch b from seed (seed, b)), so the
first inputs run at once instead of after drawing them all."""


def _api_stream(seed: int):
    batch = 0
    while True:
        yield from draw_api_cases(API_BATCH, seed * 1_000_003 + batch)
        batch += 1


def _cases(n: int, seed: int, api_share: float, start: int = 0, import_share: float = 0.1):
    """Inputs start .. start + n - 1 of the seed's stream (the first `start` drawn and dropped)."""
    rng = random.Random(seed)
    mut = Mutator(load_corpus(), rng, import_share)
    api = _api_stream(seed)
    for i in range(start + n):
        case = next(api) if rng.random() < api_share else mut.case()
        if i >= start:
            yield case


def _save(out: str, n: int, case: Case, klass: str, message: str) -> str:
    d = os.path.join(out, f"{klass}-{n:05d}")
    os.makedirs(d, exist_ok=True)
    for name, data in case.files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    with open(os.path.join(d, "command.sh"), "w") as f:
        f.write(f"# {case.origin}\ncd \"$(dirname \"$0\")\"\n{case.describe().replace('{dir}', '.')}\n")
    with open(os.path.join(d, "message.txt"), "w") as f:
        f.write(f"{klass}\n{message}\n")
    with open(os.path.join(d, "case.pickle"), "wb") as f:
        pickle.dump(case, f)
    return d


def main(argv=None) -> int:
    args = _args(argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    preload()
    scratch = tempfile.mkdtemp(prefix="meshc-fuzz-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        if args.replay:
            with open(os.path.join(args.replay, "case.pickle"), "rb") as f:
                case = pickle.load(f)
            klass, message = run_case(case, os.path.join(scratch, "replay"), args.time_limit)
            print(f"{case.describe()}\n{klass}\n{message}")
            return 1 if klass in FAILING else 0
        return _campaign(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _campaign(args, scratch: str) -> int:
    pool = Pool(args.workers, args.time_limit, args.mem_limit, scratch)
    counts: Counter[str] = Counter()
    by_sig: dict[str, list] = {}
    t0 = last = time.monotonic()
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    stopped = False
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # `kill` stops it like Ctrl-C: counts printed
    try:
        for _, case, klass, message in pool.run(_cases(args.inputs, args.seed, args.api_share, args.start, args.import_share)):
            _count(args, counts, by_sig, case, klass, message)
            now = time.monotonic()
            if not args.quiet and now - last > 30:
                last = now
                done = sum(counts.values())
                print(f"[{now - t0:6.0f} s] {done} inputs, {done / (now - t0):.1f}/s: "
                      + ", ".join(f"{k} {counts[k]}" for k in CLASSES if counts[k]), file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        stopped = True
    elapsed = time.monotonic() - t0
    if args.minimize and by_sig and not stopped:
        _minimize_all(args, scratch, by_sig)
    total = sum(counts.values())
    first = f", inputs {args.start}..{args.start + args.inputs - 1}" if args.start else ""
    print(f"fuzz: {total} inputs (seed {args.seed}{first}, {args.workers} workers) in {elapsed:.0f} s "
          f"({total / max(elapsed, 1e-9):.1f}/s){' (stopped before the end)' if stopped else ''}")
    for k in CLASSES:
        print(f"  {k:10s} {counts[k]}")
    for sig, hits in sorted(by_sig.items(), key=lambda kv: -len(kv[1])):
        first = next(h for h in hits if h is not None)
        print(f"  {len(hits):6d}x {sig}\n          e.g. {first[3]}: {first[0].describe()[:300]}")
    bad = sum(counts[k] for k in FAILING)
    if bad:
        print(f"fuzz: FAILED: {bad} inputs in failing classes ({', '.join(FAILING)}); saved under {args.out}/")
    return 1 if bad or stopped else 0


def _count(args, counts: Counter, by_sig: dict, case: Case, klass: str, message: str) -> None:
    """Count one outcome; save a failure (at most --keep a signature)."""
    counts[klass] += 1
    if klass in FAILING or klass == "mismatch":
        sig = signature(klass, message)
        hits = by_sig.setdefault(sig, [])
        if len(hits) < args.keep:
            n = sum(len(h) for h in by_sig.values())
            hits.append((case, klass, message, _save(args.out, n, case, klass, message)))
        else:
            hits.append(None)


def _minimize_all(args, scratch: str, by_sig: dict) -> None:
    pool = Pool(args.workers, args.time_limit, args.mem_limit, scratch)

    def run(cases: list[Case]) -> list[tuple[str, str]]:
        res = {i: (k, m) for i, _, k, m in pool.run(cases)}
        return [res[i] for i in range(len(cases))]

    for hits in by_sig.values():
        case, klass, message, where = hits[0]
        small = minimize(case, klass, message, run)
        if small is not case:
            _save(os.path.join(where, "minimised"), 0, small, klass, message)


if __name__ == "__main__":
    sys.exit(main())
