"""The guard on the crowd report's growth (slow lane): a complexity check, not a timing.

``benchmarks/bench_crowd_scale.py`` runs the whole ``accord report`` on the generated
crowd (9,000 workers, about 24 ratings per comment) in fresh processes at fractions
of the full 1.9 M comments and fits the growth exponent of time and of the memory the
report adds to its process's baseline. Here its two smallest sizes (1/16 and 1/8:
about 2.8 M and 5.7 M ratings; the consensus by majority vote, whose work does not
depend on how many EM iterations the data need) must grow with an exponent of at most
``MAX_EXPONENT`` (1.3): a step that grows with the square of the ratings (a pair join
re-sorting every distinct pair per chunk, an array of every rating per annotator)
shows as 2, and a child that would pass the benchmark's address-space limit fails
with an error instead of a figure. The fixed costs (imports, the report's plots) make
the small sizes' exponent lower than the full size's, never higher.

The Dawid-Skene fit, the report's time under its default, needs as many iterations as
the data ask (94 at 1/16, 552 at 1/8), so its guard is on the CPU time per iteration:
20 iterations less one, at the same two sizes, with the same bound.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_crowd_scale.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_crowd_scale", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_crowd_report_grows_no_faster_than_its_ratings(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    src = str(Path(__file__).resolve().parents[1] / "src")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    bench = _bench()
    assert bench.ARGS[-2:] == ["--level", "ordinal"] and sys.executable
    fits = bench.scale(1_900_000, [16, 8], "majority")
    rows = fits["rows"]
    assert [r["units"] for r in rows] == [118_750, 237_500]
    assert rows[1]["ratings"] > 1.9 * rows[0]["ratings"]
    assert fits["cpu_seconds_exponent"] <= bench.MAX_EXPONENT, fits
    assert fits["added_mb_exponent"] <= bench.MAX_EXPONENT, fits
    # the memory measured is the report's own (not clipped at the baseline's floor)
    assert all(r["added_mb"] > 20 for r in rows), fits


@pytest.mark.slow
def test_a_dawid_skene_iteration_grows_no_faster_than_its_ratings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    src = str(Path(__file__).resolve().parents[1] / "src")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    bench = _bench()
    fits = bench.fit_scale(1_900_000, [16, 8], iterations=21)
    rows = fits["rows"]
    assert [r["units"] for r in rows] == [118_750, 237_500]
    # neither fit converged within 21 iterations (94 and 552 to converge): 20 timed each
    assert [r["n_iter"] for r in rows] == [20, 20], fits
    assert fits["cpu_per_iteration_exponent"] <= bench.MAX_EXPONENT, fits


def test_the_growth_exponent_is_the_log_log_slope() -> None:
    """By hand: y = 3 x^2 on x = 1, 2, 4 has slope 2; y = x has slope 1."""
    bench = _bench()
    assert bench.slope([1.0, 2.0, 4.0], [3.0, 12.0, 48.0]) == pytest.approx(2.0)
    assert bench.slope([10.0, 20.0], [5.0, 10.0]) == pytest.approx(1.0)
