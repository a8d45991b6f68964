"""The span branch of :func:`accord.evaluate`: systems' spans against a reference rater.

Span data (a ``SpanTable``, or ``Annotations`` read from a span export that hold
spans only) go to :func:`accord.evaluate_spans`, once per system, in the
matching mode asked for; the label options of ``evaluate`` do not apply to them
and are refused, never ignored.
"""

from __future__ import annotations

from typing import Any

from accord import _validation as v
from accord.annotations import Annotations
from accord.errors import DataError
from accord.readers.spans import SpanTable
from accord.spans.evaluate import SpanEvaluation, evaluate_spans
from accord.spans.matching import MODES

__all__ = ["evaluate_span_data", "is_span_data"]

FUNC = "evaluate"


def is_span_data(data: Any) -> bool:
    """A SpanTable, or Annotations whose only content is spans."""
    if isinstance(data, SpanTable):
        return True
    return (isinstance(data, Annotations) and data.n_ratings == 0 and data.spans is not None
            and len(data.spans) > 0)


def evaluate_span_data(data: Any, predicted: Any, mode: str | None,
                       label_options: tuple[str, ...], *, reference: Any, systems: Any
                       ) -> SpanEvaluation | dict[str, SpanEvaluation]:
    """Each system against the reference: one SpanEvaluation per system (a dict of them
    unless ``systems`` is one name)."""
    if predicted is not None:
        raise v.fail("predicted", FUNC, "nothing with span data (name the raters with "
                     "reference= and systems=)", predicted)
    if label_options:
        raise DataError(f"{FUNC}: {', '.join(label_options)} apply to labels, and these data "
                        "hold spans; drop them (spans take mode=).")
    mode = v.choice(mode or "strict", MODES, param="mode", func=FUNC)
    ref, chosen = _roles(data, reference, systems)
    out = {str(s): evaluate_spans(data, data, mode=mode, reference_rater=str(ref),  # type: ignore[arg-type]
                                  predicted_rater=str(s)) for s in chosen}
    if isinstance(systems, str):
        return out[systems]
    return out


def _roles(data: Any, reference: Any, systems: Any) -> tuple[Any, tuple[Any, ...]]:
    if isinstance(data, Annotations):
        from accord.evaluation._annotations import roles

        r = roles(data, reference, systems)
        return r.reference, r.systems
    raters = data.raters
    if reference is None or systems is None:
        raise DataError(f"{FUNC}: a SpanTable has no rater kinds; name the reference and the "
                        f"systems with reference= and systems= (the raters are {list(raters)!r}).")
    chosen = (systems,) if isinstance(systems, str) else tuple(systems)
    missing = [r for r in (reference, *chosen) if r not in raters]
    if missing:
        raise DataError(f"{FUNC}: rater(s) {missing!r} not found; the raters are "
                        f"{list(raters)!r}.")
    if reference in chosen:
        raise DataError(f"{reference!r} is the reference; it cannot also be one of the systems.")
    return reference, chosen
