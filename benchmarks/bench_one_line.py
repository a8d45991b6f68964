"""Peak memory of reading a 100 MB tool export written on one line (issue 26).

A Label Studio JSON export is one JSON array, usually on a single line. The
file is generated (``--mb`` MB, default 100: two annotators' sentiment choices
per task, a text of about 150 characters) and read by ``accord compute FILE``
in a fresh process, whose peak resident memory (``ru_maxrss``) and wall-clock
time are reported. Peers: ``json.load`` of the same file alone (what any reader
that parses the export whole must hold at least), and the interpreter with
accord imported (the floor).

Usage: ``python benchmarks/bench_one_line.py [--mb 100] [--src DIR]``; ``--src``
runs another checkout's sources (e.g. main's, for the figure before a change).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _timing import child_run  # noqa: E402


def export(path: Path, mb: int) -> int:
    """A one-line Label Studio JSON export of about ``mb`` MB; the number of tasks."""
    rng = random.Random(1)
    tasks, size = [], 0
    while size < mb * 1_000_000:
        i = len(tasks)
        task = {"id": i, "data": {"text": f"review {i}: " + "lorem ipsum " * 12},
                "annotations": [{"id": 10 * i + k, "completed_by": k, "result": [
                    {"id": f"r{k}", "from_name": "sentiment", "to_name": "text",
                     "type": "choices", "value": {"choices": [
                         rng.choice(["positive", "negative", "neutral"])]}}],
                    "was_cancelled": False, "ground_truth": False,
                    "created_at": "2024-05-02T10:00:00.000000Z", "lead_time": 3.2,
                    "task": i, "project": 7} for k in (1, 2)]}
        size += len(json.dumps(task)) + 2
        tasks.append(task)
    path.write_text(json.dumps(tasks))
    return len(tasks)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--src", type=Path, default=Path(__file__).parents[1] / "src")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.json"
        n = export(path, args.mb)
        print(f"{path.stat().st_size / 1e6:.0f} MB on one line, {n:,} tasks, "
              f"{2 * n:,} ratings; sources {args.src}")
        rows = [
            ("python -c 'import accord' (floor)", [sys.executable, "-c", "import accord"]),
            ("json.load of the file alone (peer)",
             [sys.executable, "-c", f"import json; json.load(open({str(path)!r}))"]),
            ("accord compute FILE", [sys.executable, "-m", "accord", "compute", str(path)]),
            ("accord.read(FILE)", [sys.executable, "-c",
                                   f"import accord; accord.read({str(path)!r})"]),
        ]
        print("| run | seconds | peak RSS (MiB) |\n|---|---:|---:|")
        for label, argv in rows:
            seconds, mib, _ = child_run(argv, env)
            print(f"| {label} | {seconds:.1f} | {mib:.0f} |")


if __name__ == "__main__":
    main()
