"""Where two raters' spans disagree, span by span, for adjudication."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.spans._inputs import Encoded, encode_cached, table_of
from accord.spans.evaluate import _restrict
from accord.spans.matching import KINDS, MODES, Mode, candidates, pairs_of

__all__ = ["SpanDisagreement", "label_confusion", "span_disagreements"]

FUNC = "span_disagreements"


@dataclass(frozen=True)
class SpanDisagreement:
    """One disagreement between two raters in one unit.

    Attributes
    ----------
    unit : object
        The unit (document).
    raters : (str, str)
        The pair, in the order of the raters.
    kind : str
        ``"incorrect"`` or ``"partial"`` (the two spans were matched but do not agree
        in the mode), ``"missed"`` (only the first rater marked it) or ``"spurious"``
        (only the second did).
    first, second : Span or None
        The spans as read (with their stored ``text``); None on the side that has none.
    """

    unit: Any
    raters: tuple[str, str]
    kind: str
    first: Any
    second: Any

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the unit, raters, kind and both spans (start, end, label, text)."""

        def span(s: Any) -> dict[str, Any] | None:
            if s is None:
                return None
            return {"start": s.start, "end": s.end, "label": s.label,
                    "fragments": [list(f) for f in s.fragments], "text": s.text}  # fmt: skip

        return {"unit": str(self.unit), "raters": list(self.raters), "kind": self.kind,
                "first": span(self.first), "second": span(self.second)}  # fmt: skip


def span_disagreements(
    annotations: Any,
    *,
    mode: Mode = "strict",
    raters: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
) -> list[SpanDisagreement]:
    """Every span two raters do not agree on, for each pair of raters.

    The matching is that of :func:`span_agreement` (one-to-one, in ``mode``);
    spans matched as correct are left out. Units are in the order of the data,
    spans by position.

    Examples
    --------
    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("d1", "ann", 0, 5, "PER", text="Alice"),
    ...                Span("d1", "bob", 0, 5, "LOC", text="Alice"),
    ...                Span("d1", "bob", 9, 14, "LOC", text="Paris")))
    >>> [(d.kind, d.first and d.first.label, d.second.label)
    ...  for d in accord.spans.span_disagreements(t)]
    [('incorrect', 'PER', 'LOC'), ('spurious', None, 'LOC')]
    """
    v.choice(mode, MODES, param="mode", func=FUNC)
    enc = encode_cached(table_of(annotations, FUNC, "annotations"), raters, labels, FUNC)
    out: list[SpanDisagreement] = []
    for a, b in combinations(enc.raters, 2):
        out += _pair(enc, a, b, mode)
    return out


def _pair(enc: Encoded, a: str, b: str, mode: Mode) -> list[SpanDisagreement]:
    both = enc.annotated[a] & enc.annotated[b]
    ref, pred = _restrict(enc.sets[a], both), _restrict(enc.sets[b], both)
    p = pairs_of(ref, pred, candidates(ref, pred), mode)
    rows: list[tuple[int, int, SpanDisagreement]] = []

    def span(side: str, s: Any, i: int) -> Any:
        return enc.rows[side][int(s.origin[i])]

    for i, j, k in zip(p.pa.tolist(), p.pb.tolist(), p.kind.tolist()):
        if KINDS[k] != "correct":
            d = SpanDisagreement(enc.units[ref.unit[i]], (a, b), KINDS[k], span(a, ref, i),
                                 span(b, pred, j))  # fmt: skip
            rows.append((int(ref.unit[i]), int(ref.start[i]), d))
    for side, s, kind in ((a, ref, "missed"), (b, pred, "spurious")):
        free = p.free_a if s is ref else p.free_b
        for i in np.flatnonzero(free).tolist():
            first, second = (span(side, s, i), None) if s is ref else (None, span(side, s, i))
            d = SpanDisagreement(enc.units[s.unit[i]], (a, b), kind, first, second)
            rows.append((int(s.unit[i]), int(s.start[i]), d))
    return [d for _, _, d in sorted(rows, key=lambda r: (r[0], r[1]))]


def label_confusion(
    annotations: Any,
    *,
    mode: Mode = "strict",
    raters: Sequence[str] | None = None,
) -> dict[tuple[str, str], Counter[tuple[str, str]]]:
    """For each pair of raters, the (first rater's label, second's label) counts of the
    spans the matching paired (in ``mode``; ``"exact"`` or ``"partial"`` pair spans
    whatever their labels, so their confusion is the informative one).

    Examples
    --------
    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("d1", "ann", 0, 5, "PER"), Span("d1", "bob", 0, 5, "LOC")))
    >>> accord.spans.label_confusion(t, mode="exact")[("ann", "bob")]
    Counter({('PER', 'LOC'): 1})
    """
    v.choice(mode, MODES, param="mode", func="label_confusion")
    enc = encode_cached(table_of(annotations, "label_confusion", "annotations"), raters, None,
                        "label_confusion")  # fmt: skip
    out = {}
    for a, b in combinations(enc.raters, 2):
        both = enc.annotated[a] & enc.annotated[b]
        ref, pred = _restrict(enc.sets[a], both), _restrict(enc.sets[b], both)
        p = pairs_of(ref, pred, candidates(ref, pred), mode)
        out[(a, b)] = Counter(
            (enc.labels[x], enc.labels[y])
            for x, y in zip(ref.label[p.pa].tolist(), pred.label[p.pb].tolist())
        )
    return out
