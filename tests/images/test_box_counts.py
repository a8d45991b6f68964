"""The per image counts of box agreement, counted for all images at once, are those of the
per image matching (``linear_sum_assignment`` on each image and pair, union-find groups),
to the last bit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.images._counts import Counts, count
from accord.images.agreement import COCO_THRESHOLDS
from accord.readers.boxes import BoxTable, box_table

FIELDS = ("matched", "boxes", "iou_sum", "matched_by_label", "boxes_by_label",
          "iou_by_label", "coincidences")
THRESHOLDS = tuple(dict.fromkeys((0.5, *COCO_THRESHOLDS)))


def per_image(table: BoxTable, thresholds: tuple[float, ...]) -> Counts:
    """The reference: every image matched on its own (a ``visit`` keeps that path)."""
    return count(table, thresholds, visit=lambda rows, group: None)


def assert_same(table: BoxTable, thresholds: tuple[float, ...] = THRESHOLDS) -> None:
    fast, ref = count(table, thresholds), per_image(table, thresholds)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(fast, name), getattr(ref, name), err_msg=name)


def _table(rows: list[tuple[Any, ...]]) -> BoxTable:
    cols = ("image", "annotator", "label", "x", "y", "w", "h")
    return box_table({k: [r[n] for r in rows] for n, k in enumerate(cols)})


def test_benchmark_data_same_counts() -> None:
    """The generator of ``benchmarks/bench_boxes.py`` (jittered copies, misses, relabels,
    extra boxes): about one image in ten has a box with two candidates or a chain."""
    import importlib.util

    path = Path(__file__).parents[2] / "benchmarks" / "bench_boxes.py"
    spec = importlib.util.spec_from_file_location("bench_boxes", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert_same(bench._table(400))


def test_crowded_images_with_ties_and_chains(monkeypatch: Any) -> None:
    """Integer boxes on a small canvas: equal IoUs, boxes with several candidates, chains
    that would put two boxes of an annotator in one group, four annotators."""
    from accord.images import _batch

    calls = {"match_pair": 0, "groups": 0}

    def spy(name: str) -> Any:
        real = getattr(_batch, name)

        def wrapped(*args: Any, **kw: Any) -> Any:
            calls[name] += 1
            return real(*args, **kw)

        return wrapped

    for name in calls:
        monkeypatch.setattr(_batch, name, spy(name))
    rng = np.random.default_rng(7)
    rows = []
    for u in range(60):
        for r in "abcd":
            for _ in range(int(rng.integers(0, 7))):
                x, y = rng.integers(0, 12, 2)
                w, h = rng.integers(2, 9, 2)
                rows.append((f"u{u}", r, str(rng.choice(["cat", "dog"])), x, y, w, h))
    rows = list({r[:2] + r[3:]: r for r in rows}.values())  # a box once per annotator
    assert_same(_table(rows), (0.3, *THRESHOLDS))
    assert calls["match_pair"] > 0 and calls["groups"] > 0  # both searches were needed


BOX = st.tuples(st.sampled_from(["cat", "dog", "eel"]), st.integers(0, 10), st.integers(0, 10),
                st.integers(1, 8), st.integers(1, 8))
ROWS = st.lists(st.tuples(st.sampled_from(["u1", "u2", "u3", "u4"]),
                          st.sampled_from(["a", "b", "c"]), BOX),
                min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1], r[2][1:]))


@settings(max_examples=150, deadline=None)
@given(ROWS, st.sampled_from([0.1, 0.5, 0.7]))
def test_same_counts_as_the_per_image_matching(rows: Any, threshold: float) -> None:
    assert_same(_table([(u, r, *b) for u, r, b in rows]), (threshold, *THRESHOLDS))


def test_one_annotator_without_boxes_and_an_empty_image() -> None:
    rows = [("u1", "a", "cat", 0, 0, 4, 4), ("u1", "a", "cat", 1, 0, 4, 4),
            ("u2", "b", "dog", 0, 0, 4, 4), ("u3", "a", "cat", 0, 0, 4, 4),
            ("u3", "b", "cat", 0, 0, 4, 4), ("u3", "c", "cat", 0, 0, 4, 4)]
    assert_same(_table(rows))
    counts = count(_table(rows), (0.5,))
    assert counts.matched[0].tolist() == [[0, 0, 0], [0, 0, 0], [1, 1, 1]]
