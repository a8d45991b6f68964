"""Agreement on keypoints: OKS against pycocotools' COCOeval.computeOks, figures by hand.

Oracle: pycocotools 2.0.x, ``COCOeval(gt, dt, "keypoints").computeOks(img, cat)``.
COCO's OKS is a detection scored against a ground truth: the ground truth's area is
the scale and its labelled points are the ones counted. accord's pair is symmetric
(the mean of the two areas; the points labelled by either annotator, a point labelled
by one only adding 0, or ``visible="both"``). The cases below are those where the two
conventions are the same computation: equal areas, and the same labelled points
(``"either"``) or a second annotator labelling every point (``"both"``).
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.images.keypoints import oks_matrix
from accord.readers.keypoints import COCO_KEYPOINTS, COCO_SIGMAS, keypoint_table
from tests.test_bad_input import refused

SIGMAS = np.array([COCO_SIGMAS[n] for n in COCO_KEYPOINTS])


def _people(rng: np.random.Generator, n: int, visible: float) -> list[dict[str, Any]]:
    """``n`` people labelling the same points (so every pair, not only the matched ones,
    counts the same points under both conventions)."""
    out = []
    v = np.where(rng.uniform(size=17) < visible, 2.0, 0.0)
    v[0] = 2.0
    for _ in range(n):
        x0, y0 = rng.uniform(0, 400, 2)
        w, h = rng.uniform(20, 120, 2)
        xy = np.column_stack([x0 + rng.uniform(0, w, 17), y0 + rng.uniform(0, h, 17)])
        kp = np.column_stack([np.where(v > 0, xy[:, 0], 0.0), np.where(v > 0, xy[:, 1], 0.0), v])
        out.append({"keypoints": kp.ravel().tolist(), "bbox": [x0, y0, w, h],
                    "area": float(w * h * rng.uniform(0.5, 0.9))})
    return out


def _jitter(rng: np.random.Generator, people: list[dict[str, Any]], scale: float,
            all_visible: bool = False) -> list[dict[str, Any]]:
    out = []
    for p in people:
        kp = np.array(p["keypoints"]).reshape(17, 3)
        kp[:, :2] += rng.normal(0, scale, (17, 2))
        if all_visible:
            kp[:, 2] = 2.0
        else:
            kp[kp[:, 2] == 0, :2] = 0.0
        out.append({**p, "keypoints": kp.ravel().tolist()})
    return out


def _pycocotools_oks(gts: list[dict[str, Any]], dts: list[dict[str, Any]]) -> Any:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    gt = COCO()
    gt.dataset = {
        "images": [{"id": 1}],
        "categories": [{"id": 1, "name": "person", "keypoints": list(COCO_KEYPOINTS)}],
        "annotations": [{**g, "id": k + 1, "image_id": 1, "category_id": 1, "iscrowd": 0,
                         "num_keypoints": int((np.array(g["keypoints"][2::3]) > 0).sum())}
                        for k, g in enumerate(gts)],
    }
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        # falling scores keep the detections' order in computeOks
        dt = gt.loadRes([{"image_id": 1, "category_id": 1, "keypoints": d["keypoints"],
                          "score": 1.0 - 0.01 * k} for k, d in enumerate(dts)])
        ev = COCOeval(gt, dt, "keypoints")
        ev.params.imgIds = [1]
        ev._prepare()
        return np.asarray(ev.computeOks(1, 1)).T  # (gt, dt)


def _ours(a: Any, area: Any, b: Any, **kw: Any) -> Any:
    """accord's OKS of each ground truth ``a[i]`` with every ``b``, both objects given the
    ground truth's area (COCO's scale; accord takes the mean of the two areas)."""
    return np.vstack([oks_matrix(a[i : i + 1], area[i : i + 1], b, np.full(len(b), area[i]),
                                 SIGMAS, **kw) for i in range(len(a))])


def _arrays(objs: list[dict[str, Any]]) -> tuple[Any, Any]:
    p = np.array([o["keypoints"] for o in objs], dtype=np.float64).reshape(len(objs), 17, 3)
    return p, np.array([o["area"] for o in objs])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_oks_equals_pycocotools_when_both_label_the_same_points(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gts = _people(rng, 6, visible=0.7)
    dts = _jitter(rng, gts, 4.0)
    (a, area), (b, _) = _arrays(gts), _arrays(dts)
    ours = _ours(a, area, b)
    # computeOks divides by area + np.spacing(1): a relative 1e-16 on areas of 10^3
    np.testing.assert_allclose(ours, _pycocotools_oks(gts, dts), rtol=0, atol=1e-12)
    assert 0.2 < ours.max() <= 1.0  # not a comparison of zeros


@pytest.mark.parametrize("seed", [3, 4])
def test_visible_both_equals_pycocotools_when_the_second_labels_every_point(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gts = _people(rng, 5, visible=0.5)
    dts = _jitter(rng, gts, 3.0, all_visible=True)
    (a, area), (b, _) = _arrays(gts), _arrays(dts)
    ours = _ours(a, area, b, visible="both")
    np.testing.assert_allclose(ours, _pycocotools_oks(gts, dts), rtol=0, atol=1e-12)
    # "either" counts the points only the second labelled as misses: never higher
    assert (_ours(a, area, b) <= ours + 1e-15).all()


def test_oks_by_hand() -> None:
    """Two points 3 px and 0 px apart, area 50 and 150 (s^2 = 100), sigma 0.05 (k = 0.1):
    exp(-9 / (2 * 100 * 0.01)) = exp(-4.5); OKS = (exp(-4.5) + 1) / 2."""
    a = np.array([[[10.0, 10, 2], [20, 20, 1]]])
    b = np.array([[[13.0, 10, 2], [20, 20, 2]]])
    got = oks_matrix(a, np.array([50.0]), b, np.array([150.0]), np.array([0.05, 0.05]))
    assert got[0, 0] == pytest.approx((math.exp(-4.5) + 1) / 2, abs=1e-15)
    # symmetric by construction
    assert oks_matrix(b, np.array([150.0]), a, np.array([50.0]), np.array([0.05, 0.05]))[
        0, 0] == got[0, 0]


def _rows(objs: list[tuple[str, str, str, list[float], float]]) -> dict[str, list[Any]]:
    return {"image": [o[0] for o in objs], "annotator": [o[1] for o in objs],
            "label": [o[2] for o in objs], "keypoints": [o[3] for o in objs],
            "area": [o[4] for o in objs]}


TWO = {"names": ["a", "b"], "sigmas": {"a": 0.1, "b": 0.1}, "n_resamples": 199}


def _agree(data: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.keypoint_agreement(data, **{**TWO, **kw})


def test_oks_exactly_at_the_threshold_matches() -> None:
    """One point in the same place, one labelled by the first annotator only: OKS 1/2."""
    data = _rows([("i", "r1", "hand", [0, 0, 2, 5, 5, 2], 100.0),
                  ("i", "r2", "hand", [0, 0, 2, 0, 0, 0], 100.0)])
    res = _agree(data, oks_threshold=0.5)
    assert res.f1.estimate == 1.0 and res.mean_oks.estimate == 0.5
    assert _agree(data, oks_threshold=0.51).f1.estimate == 0.0
    assert _agree(data, visible="both").mean_oks.estimate == 1.0


def test_figures_by_hand_with_three_annotators() -> None:
    """r1 and r2 place the same hand and a dog; r3 places the hand only, as a "paw".

    Pairs (F1 = 2 M / N): r1-r2 M=2 N=4 -> 1; r1-r3 M=0 N=3 -> 0; r2-r3 -> 0: mean 1/3.
    Groups (label-blind): {hand, hand, paw} and {dog, dog, no box}: coincidences with
    m_u = 3: o(hand,hand)=2/2, o(hand,paw)=o(paw,hand)=2/2; o(dog,dog)=2/2,
    o(dog,none)=o(none,dog)=2/2 -> n=6, n_c: hand 2, paw 1, dog 2, none 1;
    alpha = 1 - (n-1) * (n - trace) / (n^2 - sum n_c^2) = 1 - 5 * 4 / (36 - 10) = 3/13.
    """
    hand, dog = [0, 0, 2, 10, 0, 2], [100, 100, 2, 120, 100, 2]
    data = _rows([("i", "r1", "hand", hand, 100.0), ("i", "r2", "hand", hand, 100.0),
                  ("i", "r3", "paw", hand, 100.0), ("i", "r1", "dog", dog, 400.0),
                  ("i", "r2", "dog", dog, 400.0)])
    res = _agree(data)
    assert res.f1.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert res.mean_oks.estimate == 1.0
    assert res.alpha.estimate == pytest.approx(3 / 13, abs=1e-15)
    assert res.per_label["hand"].f1.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert res.pairs[("r1", "r2")].f1.estimate == 1.0
    assert [f.threshold for f in res.sweep] == pytest.approx([0.5 + 0.05 * i for i in range(10)])
    d = res.to_dict()
    assert d["mean_oks"]["oks_threshold"] == 0.5 and d["audit"]["objects"] == 5
    assert d["alpha"]["confidence_interval"]["method"] == "bootstrap-percentile"


points = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 1),
                            st.floats(0, 30), st.floats(0, 30)), min_size=2, max_size=12)


@settings(max_examples=25, deadline=None)
@given(points, st.permutations(range(12)))
def test_figures_do_not_depend_on_annotator_names_or_row_order(objs: Any, perm: Any) -> None:
    rows = [(f"i{u}", f"r{r}", "hand" if lab else "paw", [x, y, 2, x + 5, y, 2], 50.0)
            for u, r, lab, x, y in objs]
    rows = list({(r[0], r[1], r[2], tuple(r[3])): r for r in rows}.values())  # no twins
    if len({r[1] for r in rows}) < 2:
        return
    base = _agree(_rows(rows), n_resamples=9)
    order = [p for p in perm if p < len(rows)]
    renamed = {"r0": "r3", "r1": "r2", "r2": "r1", "r3": "r0"}
    moved = [(r[0], renamed[r[1]], *r[2:]) for r in (rows[p] for p in order)]
    other = _agree(_rows(moved), n_resamples=9)
    for name in ("f1", "mean", "alpha"):
        x, y = getattr(base, name).estimate, getattr(other, name).estimate
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(points)
def test_an_annotator_copied_agrees_perfectly(objs: Any) -> None:
    rows = list({(f"i{u}", lab, x, y) for u, _, lab, x, y in objs})
    data = _rows([(u, r, "hand" if lab else "paw", [x, y, 2, x + 5, y, 2], 50.0)
                  for u, lab, x, y in rows for r in ("r1", "r2")])
    res = _agree(data, n_resamples=9)
    assert res.f1.estimate == 1.0 and res.mean_oks.estimate == 1.0


def test_bad_input_is_one_sentence() -> None:
    ok = _rows([("i", "r1", "hand", [0, 0, 2, 5, 5, 2], 100.0),
                ("i", "r2", "hand", [0, 0, 2, 5, 5, 2], 100.0)])
    kw = {"names": ["a", "b"], "sigmas": {"a": 0.1, "b": 0.1}}

    def with_cell(col: str, value: Any) -> dict[str, list[Any]]:
        return {**ok, col: [value, *ok[col][1:]]}

    refused(DataError, "expected a list of 6 numbers", accord.keypoint_agreement,
            with_cell("keypoints", [0, 0, 2]), **kw)
    refused(DataError, "expected 0 .not labelled.", accord.keypoint_agreement,
            with_cell("keypoints", [0, 0, 3, 5, 5, 2]), **kw)
    refused(DataError, "at least one labelled keypoint", accord.keypoint_agreement,
            with_cell("keypoints", [0, 0, 0, 5, 5, 0]), **kw)
    refused(DataError, "finite x and y", accord.keypoint_agreement,
            with_cell("keypoints", [math.nan, 0, 2, 5, 5, 2]), **kw)
    refused(DataError, "finite positive area", accord.keypoint_agreement,
            with_cell("area", 0), **kw)
    refused(DataError, "keypoint 'b' has no sigma", accord.keypoint_agreement, ok,
            names=["a", "b"], sigmas={"a": 0.1})
    refused(DataError, "has no sigma", accord.keypoint_agreement, ok, names=["a", "b"])
    refused(DataError, "placed the same 'hand' keypoints twice", accord.keypoint_agreement,
            {k: [*v, v[0]] for k, v in ok.items()}, **kw)
    refused(InsufficientDataError, "two annotators or more", accord.keypoint_agreement,
            {k: v[:1] for k, v in ok.items()}, **kw)
    refused(InvalidParameterError, "'oks_threshold' parameter of keypoint_agreement",
            accord.keypoint_agreement, ok, oks_threshold=0, **kw)
    refused(InvalidParameterError, "'visible' parameter", accord.keypoint_agreement, ok,
            visible="any", **kw)
    refused(InvalidParameterError, "'sweep_intervals' parameter", accord.keypoint_agreement,
            ok, sweep_intervals=1, **kw)


def test_coco_names_take_coco_sigmas_and_a_no_object_row_counts() -> None:
    person = np.zeros((17, 3))
    person[:, 0], person[:, 1], person[:, 2] = np.arange(17) * 3.0, 50.0, 2.0
    t = keypoint_table(_rows([("i", "r1", "person", person.ravel().tolist(), 900.0),
                              ("i", "r2", "person", person.ravel().tolist(), 900.0),
                              ("j", "r2", None, None, None)]))  # type: ignore[list-item]
    assert t.names == COCO_KEYPOINTS and t.audit["no-object rows"] == 1
    res = _agree(t, names=None, sigmas=None)
    assert res.f1.estimate == 1.0 and res.audit["images"] == 2


def test_an_export_without_keypoints_is_undefined_not_a_crash() -> None:
    """Label Studio rectangles only: every (image, annotator) is "no object"; the figures
    are undefined with their reason (before: a reshape of no rows failed)."""
    from pathlib import Path

    ls = Path(__file__).resolve().parents[2] / "examples" / "boxes_label_studio.json"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = accord.keypoint_agreement(ls, n_resamples=10)
    assert res.audit["objects"] == 0 and math.isnan(res.f1.estimate)
    assert res.f1.undefined_reason == "no annotator pair drew a keypoint"
    assert {type(w.message) for w in caught} == {accord.DegenerateDataWarning}
