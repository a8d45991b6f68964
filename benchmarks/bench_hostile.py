"""What the defences against hostile input cost, and that memory stays bounded.

Run by hand::

    .venv/bin/python benchmarks/bench_hostile.py [--quick]

1. Reading a wide CSV of 10^6 rows x 3 raters: plain UTF-8 against the same
   file in UTF-16 (decoded to a temporary UTF-8 copy first) and read from a
   pipe (copied whole first). Peer: the plain UTF-8 read, as the ratio's base.
2. Refusing a zip bomb (a doccano export of 1 GiB of NUL bytes, a few MB
   compressed): time and peak traced memory. Peer: ``zipfile.ZipFile.read``
   of the same member, which expands it whole (measured on a 64 MiB member).
3. Peak traced memory of drawing bootstrap resamples for Cohen's kappa
   (10^4 units) at 10^4 to 3 x 10^6 resamples, less the 8 bytes per replicate
   the interval keeps: it grows until a chunk (about 4 x 10^6 numbers) is full,
   then stays flat.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import threading
import time
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np

import accord
from accord.inference.bootstrap import bootstrap_distribution


def _best(func: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def reading(folder: Path, rows: int, repeat: int) -> None:
    rng = np.random.default_rng(1)
    labels = np.array(["neg", "neu", "pos"])[rng.integers(0, 3, size=(rows, 3))]
    text = "item,a,b,c\n" + "".join(f"u{i},{x},{y},{z}\n" for i, (x, y, z) in enumerate(labels))
    plain, utf16 = folder / "plain.csv", folder / "utf16.csv"
    plain.write_text(text, encoding="utf-8")
    utf16.write_bytes(text.encode("utf-16"))
    base = _best(lambda: accord.read(plain), repeat)
    decoded = _best(lambda: accord.read(utf16), repeat)

    def from_pipe() -> None:
        fifo = folder / "pipe"
        os.mkfifo(fifo)
        feeder = threading.Thread(target=lambda: fifo.write_bytes(plain.read_bytes()))
        feeder.start()
        accord.read(fifo)
        feeder.join()
        fifo.unlink()

    piped = _best(from_pipe, repeat)
    print(f"read {rows:,} rows x 3 raters: UTF-8 {base:.2f} s; UTF-16 {decoded:.2f} s "
          f"({decoded / base:.2f}x); from a pipe {piped:.2f} s ({piped / base:.2f}x)")


def zip_bomb(folder: Path, gib: float) -> None:
    path = folder / "bomb.zip"
    block = b"\x00" * (64 * 1024**2)
    with (zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf,
          zf.open("admin.jsonl", "w", force_zip64=True) as fh):
        for _ in range(int(gib * 16)):
            fh.write(block)
    tracemalloc.start()
    start = time.perf_counter()
    with contextlib.suppress(accord.FormatError):
        accord.read(path, format="doccano")
    took = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    small = folder / "small.zip"
    with zipfile.ZipFile(small, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("admin.jsonl", b"\x00" * (64 * 1024**2))
    tracemalloc.start()
    with zipfile.ZipFile(small) as zf:
        zf.read("admin.jsonl")
    naive = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"zip bomb ({gib:g} GiB of NUL in {path.stat().st_size / 1e6:.1f} MB): refused in "
          f"{took * 1000:.0f} ms, peak {peak / 1e6:.1f} MB; zipfile.read of a 64 MiB member "
          f"peaks at {naive / 1e6:.0f} MB")


def bootstrap_memory(counts: list[int]) -> None:
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3, 10_000)
    b = np.where(rng.random(10_000) < 0.7, a, rng.integers(0, 3, 10_000))
    rs = accord.cohen_kappa(a, b).resampling()
    out = []
    for n in counts:
        tracemalloc.start()
        bootstrap_distribution(rs, n, np.random.default_rng(3))
        peak = tracemalloc.get_traced_memory()[1] - 8 * n
        tracemalloc.stop()
        out.append(f"{n:,}: {peak / 1e6:.1f} MB")
    print("bootstrap draws, peak less the replicates: " + "; ".join(out))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        reading(folder, 100_000 if args.quick else 1_000_000, 1 if args.quick else 3)
        zip_bomb(folder, 0.25 if args.quick else 1.0)
    bootstrap_memory([10_000, 100_000] if args.quick
                     else [10_000, 100_000, 1_000_000, 3_000_000])


if __name__ == "__main__":
    main()
