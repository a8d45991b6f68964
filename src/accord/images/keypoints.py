"""Agreement between annotators on keypoints: objects matched by COCO's OKS.

The Object Keypoint Similarity of two annotators' objects ``a`` and ``b`` (COCO;
Ronchi & Perona 2017) is

    OKS = sum_i exp(-d_i^2 / (2 s^2 k_i^2)) [i counted] / sum_i [i counted]

with ``d_i`` the distance between the two placements of keypoint ``i``,
``k_i = 2 sigma_i`` (COCO's per-keypoint sigmas, or the user's) and ``s^2`` the
object's area. COCO scores a detection against a ground truth, so its OKS is not
symmetric; between two annotators it must be, and accord resolves the two
asymmetries so:

* **scale**: ``s^2`` is the mean of the two objects' areas (COCO takes the ground
  truth's); with equal areas the two agree;
* **visibility**: ``visible="either"`` (the default) counts every keypoint labelled
  (``v > 0``) by either annotator, and a point labelled by one only adds 0 (it is a
  disagreement, not a point to leave out); ``visible="both"`` counts the points both
  labelled (placement only). COCO counts the ground truth's labelled points and uses
  the detection's coordinates whatever its visibility: where the second annotator
  labelled every point the first did, ``visible="both"`` is COCO's OKS, and where both
  labelled the same points, so is ``"either"``.

Matching, grouping, the figures and their bootstrap are the boxes' own
(:mod:`accord.images._counts`, :mod:`accord.images._shapes`) with OKS in place of IoU.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.images._counts import Similarity
from accord.images._figures import few_images
from accord.images._shapes import Kind, ShapeAgreement, agreement
from accord.inference.bootstrap import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.keypoints import KeypointTable, keypoint_table, sigmas_of

__all__ = ["KeypointAgreement", "keypoint_agreement", "oks_matrix"]

FUNC = "keypoint_agreement"
FloatArray = NDArray[np.float64]


class KeypointAgreement(ShapeAgreement):
    """Agreement between annotators on keypoints (see :func:`keypoint_agreement`);
    :class:`~accord.images._shapes.ShapeAgreement` with ``measure="oks"``."""

    @property
    def oks_threshold(self) -> float:
        """The OKS a matched pair reaches at least."""
        return self.threshold

    @property
    def mean_oks(self) -> AgreementResult:
        """The mean OKS of the matched pairs (same label, OKS at least the threshold)."""
        return self.mean


def oks_matrix(
    a: FloatArray, area_a: FloatArray, b: FloatArray, area_b: FloatArray, sigmas: FloatArray,
    *, visible: Literal["either", "both"] = "either",
) -> FloatArray:  # fmt: skip
    """OKS of each object of ``a`` (n x K x 3) with each of ``b`` (m x K x 3), shape (n, m).

    See the module docstring for the formula and the two conventions.

    >>> a = np.array([[[0.0, 0, 2], [10, 0, 2]]])
    >>> b = np.array([[[0.0, 0, 2], [10, 0, 0]]])
    >>> oks_matrix(a, np.array([100.0]), b, np.array([100.0]), np.array([0.1, 0.1]))
    array([[0.5]])
    """
    va, vb = a[:, None, :, 2] > 0, b[None, :, :, 2] > 0
    d2 = ((a[:, None, :, :2] - b[None, :, :, :2]) ** 2).sum(axis=-1)
    s2 = (area_a[:, None] + area_b[None, :]) / 2.0
    e = d2 / (2.0 * s2[:, :, None] * (2.0 * sigmas) ** 2)
    both = va & vb
    hit = np.where(both, np.exp(-np.where(both, e, 0.0)), 0.0).sum(axis=-1)
    n = (va | vb if visible == "either" else both).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(n > 0, hit / n, 0.0), dtype=np.float64)


def keypoint_agreement(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    keypoints: str = "keypoints",
    area: str = "area",
    names: Sequence[str] | None = None,
    sigmas: Mapping[str, float] | None = None,
    visible: Literal["either", "both"] = "either",
    oks_threshold: float = 0.5,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = 0,
    sweep_intervals: bool = False,
) -> KeypointAgreement:
    """Agreement between annotators on keypoints: pairwise F1, mean OKS and alpha.

    Parameters
    ----------
    data : KeypointTable, dataframe, mapping of columns, records, a CSV/Parquet path,
        or exports: COCO keypoint JSON, CVAT XML (skeletons or points), Label Studio JSON
        (keypointlabels), one file per annotator for COCO and CVAT
        (:mod:`accord.readers.shape_formats`)
        One row per object (see :func:`accord.readers.keypoints.keypoint_table`).
    unit, rater, label, keypoints, area : str
        The columns of the image, the annotator, the label, the flat ``[x, y, v, ...]``
        list and the object's area.
    names : sequence of str, optional
        The keypoints' names; by default COCO's 17 person keypoints (a COCO file's
        category gives its own).
    sigmas : mapping of keypoint name to float, optional
        Each keypoint's sigma; COCO's for its 17 person keypoints by default.
    visible : {"either", "both"}
        Which keypoints an OKS counts (see :mod:`accord.images.keypoints`).
    oks_threshold : float in (0, 1]
        Two objects can match when their OKS is at least this (equal counts).
    confidence_level, n_resamples, rng
        The bootstrap over images behind every interval of ``to_dict()``.
    sweep_intervals : bool
        Whether ``to_dict()`` gives the 30 figures of the sweep their intervals too
        (default: the sweep's estimates only, which cost no resampling).

    Returns
    -------
    KeypointAgreement
        ``f1``, ``mean_oks``, ``alpha``, ``per_label``, ``pairs`` and ``sweep`` (OKS
        0.50:0.05:0.95), each figure an :class:`AgreementResult`; as
        :func:`accord.box_agreement` returns for boxes, with OKS in place of IoU.

    Notes
    -----
    Matching, groups and undefined figures are :func:`accord.box_agreement`'s.

    References
    ----------
    Lin et al. (2014), COCO, and its keypoint evaluation (``cocoeval.py``,
    ``computeOks``). Ronchi & Perona (2017), *Benchmarking and error diagnosis in
    multi-instance pose estimation*, ICCV.

    Examples
    --------
    Two annotators place a two-point "hand" on one image, the tip 1 px apart (OKS
    ``(1 + exp(-1 / (2 * 100 * 0.2**2))) / 2``); only ``a`` places a second hand.

    >>> import accord
    >>> res = accord.keypoint_agreement({"image": ["i1", "i1", "i1"],
    ...     "annotator": ["a", "b", "a"], "label": ["hand", "hand", "hand"],
    ...     "keypoints": [[0, 0, 2, 10, 0, 2], [0, 0, 2, 10, 1, 2], [50, 50, 2, 60, 50, 2]],
    ...     "area": [100, 100, 100]}, names=["wrist", "tip"],
    ...     sigmas={"wrist": 0.1, "tip": 0.1}, n_resamples=99)
    >>> round(res.f1.estimate, 4), round(res.mean_oks.estimate, 4)
    (0.6667, 0.9412)
    """
    level = v.confidence_level(confidence_level, func=FUNC)
    ok = isinstance(oks_threshold, (int, float)) and not isinstance(oks_threshold, bool)
    if not ok or not 0.0 < float(oks_threshold) <= 1.0:
        raise v.fail("oks_threshold", FUNC, "a number in (0, 1]", oks_threshold)
    if not isinstance(sweep_intervals, bool):
        raise v.fail("sweep_intervals", FUNC, "True or False", sweep_intervals)
    if visible not in ("either", "both"):
        raise v.fail("visible", FUNC, "one of {'either', 'both'}", visible)
    table = _table(data, unit=unit, rater=rater, label=label, keypoints=keypoints, area=area,
                   names=names)  # fmt: skip
    if len(table.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: agreement needs two annotators or more; found {list(table.raters)!r}."
        )
    similarity = oks_similarity(table, sigmas_of(table.names, sigmas, FUNC), visible)
    audit = few_images({**table.audit, "images": len(table.units),
                        "annotators": list(table.raters), "labels": list(table.labels),
                        "keypoints": list(table.names)})
    boot = Bootstrap(n_resamples=n_resamples, rng=rng)
    fields = agreement(table.as_boxes(), similarity, Kind("keypoint", "oks"),
                       float(oks_threshold), boot, level, audit)  # fmt: skip
    return KeypointAgreement("oks", float(oks_threshold), **fields,
                            sweep_intervals=sweep_intervals)


def oks_similarity(
    table: KeypointTable, sigmas: FloatArray, visible: Literal["either", "both"],
) -> Similarity:  # fmt: skip
    """The OKS of two sets of the table's objects (rows ``i`` with rows ``j``)."""

    def similarity(i: NDArray[np.int64], j: NDArray[np.int64]) -> FloatArray:
        p, s = table.points, table.area
        return oks_matrix(p[i], s[i], p[j], s[j], sigmas, visible=visible)

    return similarity


def _table(data: Any, *, names: Sequence[str] | None, **columns: str) -> KeypointTable:
    meta = getattr(data, "meta", None)
    if isinstance(meta, dict) and isinstance(meta.get("keypoints"), KeypointTable):
        return meta["keypoints"]  # accord.read of a keypoint export
    paths = [data] if isinstance(data, (str, Path)) else data
    is_paths = isinstance(paths, (list, tuple)) and bool(paths) and all(
        isinstance(p, (str, Path)) for p in paths)  # fmt: skip
    tables = {".csv", ".tsv", ".parquet", ".pq"}
    if is_paths and not any(Path(p).suffix.lower() in tables for p in paths):
        from accord.readers.shape_formats import read_keypoints

        return read_keypoints(paths, rater_key=columns["rater"], names=names, func=FUNC)
    return keypoint_table(data, names=names, func=FUNC, **columns)
