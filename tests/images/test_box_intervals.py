"""The bootstrap intervals of box agreement: one draw of the images for every figure, checked
against a plain bootstrap written here (draw images with replacement, rebuild the data,
run box_agreement again)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import accord
from accord.errors import DegenerateDataWarning, InvalidParameterError
from tests.images._examples import FRUITS, LANDSCAPE

RENAME = {"Ann1": "a", "Ann2": "b", "ann3": "c", "Ann3": "c"}
IMAGES = {k: [(RENAME[b[0]], *b[1:]) for b in v]
          for k, v in {"1": FRUITS, "2": LANDSCAPE, "3": FRUITS[:6], "4": LANDSCAPE[5:],
                       "5": FRUITS[2:], "6": LANDSCAPE[:12]}.items()}  # fmt: skip


def columns(images: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[Any]]:
    keys = ("image", "annotator", "label", "x", "y", "w", "h")
    rows = [(u, r, lab, *xywh) for u, boxes in images.items() for r, lab, *xywh in boxes]
    return {k: [row[n] for row in rows] for n, k in enumerate(keys)}


def plain_bootstrap(seed: int, n_resamples: int, figures: list[str]) -> dict[str, np.ndarray]:
    """Each resample draws the images one by one (``floor(u * n)`` from the generator's
    doubles, as :func:`accord.inference.bootstrap.draw_weights` consumes them), renames
    each drawn copy, and runs box_agreement on the rebuilt boxes."""
    names = list(IMAGES)
    n = len(names)
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {f: [] for f in figures}
    for _ in range(n_resamples):
        drawn = np.minimum((rng.random(n) * n).astype(np.int64), n - 1)
        data = {f"{k}-{names[d]}": IMAGES[names[d]] for k, d in enumerate(drawn)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            res = accord.box_agreement(columns(data), n_resamples=1)
        for f in figures:  # a label no drawn image has: its figures are undefined
            label = f.split(".")[1] if f.startswith("per_label.") else None
            missing = label is not None and label not in res.per_label
            out[f].append(math.nan if missing else _get(res, f).estimate)
    return {f: np.array(v) for f, v in out.items()}


def _get(res: Any, path: str) -> Any:
    obj = res
    for part in path.split("."):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


FIGURES = ["f1", "mean_iou", "alpha", "per_label.Apple.f1", "per_label.Grass.mean_iou"]


def test_intervals_are_those_of_a_plain_bootstrap_of_the_images() -> None:
    b, seed = 150, 11
    res = accord.box_agreement(columns(IMAGES), n_resamples=b, rng=seed)
    cis = res.intervals()
    ref = plain_bootstrap(seed, b, FIGURES)
    keys = {"f1": ("f1",), "mean_iou": ("mean_iou",), "alpha": ("alpha",),
            "per_label.Apple.f1": ("per_label", "Apple", "f1"),
            "per_label.Grass.mean_iou": ("per_label", "Grass", "mean_iou")}
    for f in FIGURES:
        ci, values = cis[keys[f]], ref[f]
        finite = values[np.isfinite(values)]
        assert ci.replicates is not None
        np.testing.assert_allclose(ci.replicates, finite, rtol=0, atol=1e-12, err_msg=f)
        low, high = np.quantile(finite, [0.025, 0.975])
        assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
        assert ci.n_excluded == values.size - finite.size


def test_to_dict_intervals_equal_each_figures_own_interval() -> None:
    res = accord.box_agreement(columns(IMAGES), n_resamples=300, rng=5, sweep_intervals=True)
    doc = res.to_dict()
    for name in ("f1", "mean_iou", "alpha"):
        own = getattr(res, name).confidence_interval(0.95, method=res.bootstrap)
        ci = doc[name]["confidence_interval"]
        assert (ci["low"], ci["high"]) == pytest.approx((own.low, own.high), abs=1e-12)
    for row, (label, figs) in zip(doc["per_label"], res.per_label.items(), strict=True):
        own = figs.f1.confidence_interval(0.95, method=res.bootstrap)
        got = row["f1"]["confidence_interval"]
        assert row["f1"]["label"] == label
        if math.isnan(own.low):
            assert got["low"] is None
        else:
            assert got["low"] == pytest.approx(own.low, abs=1e-12)
    sweep = res.sweep[5].alpha
    assert sweep is not None
    own = sweep.confidence_interval(0.95, method=res.bootstrap)
    assert doc["sweep"][5]["alpha"]["confidence_interval"]["high"] == pytest.approx(own.high,
                                                                                    abs=1e-12)


def test_the_sweep_has_intervals_only_on_request() -> None:
    res = accord.box_agreement(columns(IMAGES), n_resamples=99)
    doc = res.to_dict()
    assert all("confidence_interval" not in row[k] for row in doc["sweep"]
               for k in ("f1", "mean_iou", "alpha"))  # fmt: skip
    assert doc["sweep"][0]["f1"]["estimate"] == res.sweep[0].f1.estimate
    assert "confidence_interval" in doc["f1"] and len(res.intervals()) == 3 + 2 * 8 + 2 * 3
    assert len(res.intervals(sweep=True)) == 3 + 2 * 8 + 2 * 3 + 3 * 10
    with pytest.raises(InvalidParameterError, match="'sweep_intervals' parameter"):
        accord.box_agreement(columns(IMAGES), sweep_intervals="yes")  # type: ignore[arg-type]


def test_a_generator_is_drawn_once_for_all_figures() -> None:
    rng = np.random.default_rng(2)
    res = accord.box_agreement(columns(IMAGES), n_resamples=50, rng=rng)
    res.intervals()
    res.intervals()
    # one draw of 50 x 6 doubles per call of intervals(): the stream moved by exactly that
    probe = np.random.default_rng(2)
    probe.random((50, 6))
    probe.random((50, 6))
    assert rng.random() == probe.random()


def test_undefined_figure_has_an_undefined_interval() -> None:
    one = {"i": [("a", "cat", 0, 0, 4, 4), ("b", "cat", 0, 0, 4, 4)],
           "j": [("a", "cat", 9, 9, 4, 4), ("b", "cat", 9, 9, 4, 4)]}
    with pytest.warns(DegenerateDataWarning):
        res = accord.box_agreement(columns(one), n_resamples=20)
    ci = res.intervals()[("alpha",)]
    assert math.isnan(ci.low) and math.isnan(ci.high) and ci.method == "bootstrap-percentile"
