"""Run many fuzz cases (see fuzzer.py and README.md) and count their outcomes.

    nice -n 19 .venv/bin/python tests/fuzz/run_fuzz.py --cases 100000 --jobs 2 --seed 1
    .venv/bin/python tests/fuzz/run_fuzz.py --seed 1 --case 4711   # one case, shown

Case ``k`` of seed ``S`` is ``fuzzer.make_case("S:k")``: the same on every machine.
Every failure is printed with its reproduction as it is found; a progress line every
``--every`` cases; the counts at the end.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

import fuzzer  # noqa: E402

_folder: Path | None = None


_seconds = fuzzer.SECONDS


def _init(seconds: float = fuzzer.SECONDS) -> None:
    global _folder, _seconds
    _seconds = seconds
    _folder = Path(tempfile.mkdtemp(prefix="fuzz-")) / "case"
    fuzzer.reuse_parses()


def _one(seed: str) -> tuple[str, str, str, str, float, str]:
    case = fuzzer.make_case(seed)
    start = time.process_time()
    outcome = fuzzer.run(case, _folder, _seconds)
    spent = time.process_time() - start
    shown = case.reproduction() if outcome.failed else ""
    return seed, case.kind, outcome.kind, outcome.detail if outcome.failed else "", spent, shown


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--cases", type=int, default=1000)
    options.add_argument("--jobs", type=int, default=1)
    options.add_argument("--seed", default="1")
    options.add_argument("--start", type=int, default=0, help="index of the first case")
    options.add_argument("--case", type=int, default=None, help="run this one case, verbosely")
    options.add_argument("--every", type=int, default=5000, help="cases between progress lines")
    options.add_argument(
        "--seconds", type=float, default=fuzzer.SECONDS, help="CPU seconds before a case hangs"
    )
    args = options.parse_args()
    if args.case is not None:
        _init(args.seconds)
        case = fuzzer.make_case(f"{args.seed}:{args.case}")
        for name, text in case.files.items():
            print(f"=== {name}\n{text}")
        print("===", case.reproduction())
        outcome = fuzzer.run(case, _folder, _seconds)
        print(f"outcome: {outcome.kind} after {outcome.decisions} decisions\n{outcome.detail}")
        return 1 if outcome.failed else 0
    seeds = (f"{args.seed}:{k}" for k in range(args.start, args.start + args.cases))
    counts: collections.Counter = collections.Counter()
    kinds: collections.Counter = collections.Counter()
    failures = 0
    slowest = (0.0, "")
    began = time.time()
    print(
        f"fuzz: {args.cases} cases from {args.seed}:{args.start}, {args.jobs} job(s), "
        f"pid {os.getpid()}",
        flush=True,
    )
    with multiprocessing.Pool(args.jobs, initializer=_init, initargs=(args.seconds,)) as pool:
        for done, (seed, kind, outcome, detail, spent, shown) in enumerate(
            pool.imap_unordered(_one, seeds, chunksize=50), 1
        ):
            counts[outcome] += 1
            kinds[(kind, outcome)] += 1
            slowest = max(slowest, (spent, seed))
            if outcome == "FAILURE":
                failures += 1
                print(f"\nFAILURE {seed}: {detail}\n{shown}\n", flush=True)
            if done % args.every == 0 or done == args.cases:
                elapsed = time.time() - began
                print(
                    f"[{done} cases, {elapsed:.0f} s] "
                    + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
                    flush=True,
                )
    elapsed = time.time() - began
    print(f"\n{sum(counts.values())} cases in {elapsed:.0f} s ({args.jobs} jobs)")
    for (kind, outcome), n in sorted(kinds.items()):
        print(f"  {kind:8} {outcome:13} {n}")
    print(f"slowest case: {slowest[1]} ({slowest[0]:.2f} CPU s); failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
