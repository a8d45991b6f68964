"""The box branch of :func:`accord.evaluate`: systems' boxes against a reference annotator.

A :class:`~accord.readers.boxes.BoxTable` goes to :func:`accord.evaluate_boxes`, once
per system; the other annotators whose boxes carry no score give each system its
human ceiling (:mod:`accord.images.detection_ceiling`). The label options of
``evaluate`` do not apply to boxes and are refused, never ignored.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from accord.data import _validation as v
from accord.errors import DataError
from accord.images.detection import BoxDetection, evaluate_boxes
from accord.images.detection_ceiling import default_humans, scored
from accord.inference.bootstrap import Bootstrap
from accord.readers.boxes import BoxTable

__all__ = ["evaluate_box_data"]

FUNC = "evaluate"


def evaluate_box_data(data: BoxTable, predicted: Any, label_options: tuple[str, ...], *,
                      reference: Any, systems: Any, method: Bootstrap,
                      ceiling_figure: str | None = None,
                      ) -> BoxDetection | dict[str, BoxDetection]:
    """Each system against the reference: one BoxDetection per system (a dict of them
    unless ``systems`` is one name), each with its human ceiling when the table holds
    annotators besides the reference and the systems with no scored box."""
    if predicted is not None:
        raise v.fail("predicted", FUNC, "nothing with a box table (name the annotators with "
                     "reference= and systems=)", predicted)
    label_options = tuple(x for x in label_options if x != "method")  # the bootstrap
    if label_options:
        raise DataError(f"{FUNC}: {', '.join(label_options)} apply to labels, and these data "
                        "hold boxes; drop them.")
    if method.kind != "percentile":
        raise v.fail("method", FUNC, "a percentile Bootstrap for boxes (their intervals are "
                     "percentile intervals over images)", method)
    if reference is None or systems is None:
        raise DataError(f"{FUNC}: a box table has no annotator kinds; name the reference and "
                        f"the systems with reference= and systems= (the annotators are "
                        f"{list(data.raters)!r}).")
    chosen = (systems,) if isinstance(systems, str) else tuple(systems)
    missing = [r for r in (reference, *chosen) if r not in data.raters]
    if missing:
        raise DataError(f"{FUNC}: annotator(s) {missing!r} not found; the annotators are "
                        f"{list(data.raters)!r}.")
    if reference in chosen:
        raise DataError(f"{reference!r} is the reference; it cannot also be one of the systems.")
    humans, _ = default_humans(data, (reference, *chosen))
    # a system with no scored box (an annotator evaluated as a system) has no AP
    unscored = replace(data, score=None)
    out = {s: evaluate_boxes(data if scored(data, data.raters.index(s)) else unscored,
                             reference=reference, system=s, humans=humans,
                             ceiling_figure=ceiling_figure,
                             n_resamples=method.n_resamples, rng=method.rng)
           for s in chosen}
    if isinstance(systems, str):
        return out[systems]
    return out
