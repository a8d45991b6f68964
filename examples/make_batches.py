"""Regenerate the three-batch example (synthetic data) and its history store.

- ``batches/pilot.csv``, ``batches/batch2.csv``, ``batches/batch3.csv``: two
  annotators label customer messages ``billing``, ``bug``, ``feature`` or
  ``other`` (wide: ``item``, ``annotator_a``, ``annotator_b``). The pilot (60
  messages) was labelled under the first guidelines, where ``bug`` and
  ``feature`` were often confused; batches 2 and 3 (90 messages each) after the
  revision. Item ids differ between batches: the batches share no unit.
- ``batches.csv``: the same 240 messages in one table with a ``batch`` column.
- ``history.db``: a history store holding eight weekly production batches of
  the study ``support-triage`` (Cohen's kappa at least 0.6), of which the last
  one's agreement dropped (a new annotator joined without training).

Run from the repository root: ``python examples/make_batches.py``.
"""

from __future__ import annotations

import csv
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

SEED = 20261203
LABELS = ("billing", "bug", "feature", "other")
BATCHES = {"pilot": (60, 0.78), "batch2": (90, 0.90), "batch3": (90, 0.89)}
HERE = Path(__file__).parent
START = datetime(2026, 9, 28, 9, tzinfo=timezone.utc)


def _pairs(rng: np.random.Generator, n: int, accuracy: float) -> tuple[list[str], list[str]]:
    """Two annotators who each give the true label with probability ``accuracy``."""
    truth = rng.choice(len(LABELS), n, p=(0.3, 0.3, 0.25, 0.15))
    out = []
    for _ in range(2):
        wrong = (truth + rng.integers(1, len(LABELS), n)) % len(LABELS)
        out.append([LABELS[t if ok else w]
                    for t, w, ok in zip(truth, wrong, rng.random(n) < accuracy)])
    return out[0], out[1]


def main() -> None:
    rng = np.random.default_rng(SEED)
    (HERE / "batches").mkdir(exist_ok=True)
    rows = []
    for name, (n, accuracy) in BATCHES.items():
        a, b = _pairs(rng, n, accuracy)
        items = [f"{name}-{i:03d}" for i in range(n)]
        with (HERE / "batches" / f"{name}.csv").open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["item", "annotator_a", "annotator_b"])
            out.writerows(zip(items, a, b))
        rows += [(name, *r) for r in zip(items, a, b)]
    with (HERE / "batches.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["batch", "item", "annotator_a", "annotator_b"])
        out.writerows(rows)
    _history(rng)


def _history(rng: np.random.Generator) -> None:
    """Eight weekly batches in a history store; the last one's agreement dropped."""
    import accord
    from accord.history.store import Store

    path = HERE / "history.db"
    path.unlink(missing_ok=True)
    store = Store(path)
    for week in range(1, 9):
        accuracy = 0.90 if week < 8 else 0.80
        a, b = _pairs(rng, 120, accuracy)
        result = accord.cohen_kappa(a, b)
        store.record_result(result, study="support-triage", revision="2",
                            source=f"week{week}.csv", checksum=f"synthetic-week-{week}",
                            threshold=0.6, time=(START + timedelta(weeks=week)).isoformat())


if __name__ == "__main__":
    main()
