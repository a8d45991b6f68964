"""Span records: who marked which stretch of which document, and who looked at it.

Offsets are Python code points into the unit's text, end exclusive.
Label Studio, doccano and INCEpTION count offsets in UTF-16 code units (the
browser's or Java's string index): a character outside the Basic Multilingual
Plane (most emoji) counts twice, so every later offset is one too high for
Python. :class:`Utf16Index` converts, and :func:`locate` checks the result
against the span text the tool stored, when it stored one.

Coverage keeps "annotated, no spans" apart from "never seen": a rater whose
coverage of a unit is ``"annotated"`` and who has no span there marked
nothing; a unit absent from that rater's coverage was not annotated by them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from dataclasses import field as _field
from itertools import accumulate

from accord.readers.relations import RelationTable

__all__ = ["Span", "SpanTable", "Utf16Index", "locate"]

COVERAGE_STATUS = ("annotated", "skipped")


@dataclass(frozen=True)
class Span:
    """One marked stretch of text.

    Attributes
    ----------
    unit, rater : str
        The document and who marked it.
    start, end : int
        Code-point offsets, end exclusive (for a discontinuous span: the first
        fragment's start and the last fragment's end).
    label : str
        The span's label (entity type).
    fragments : tuple of (int, int)
        The pieces of the span; one piece for an ordinary span.
    field : str
        The question or layer the span belongs to.
    text : str or None
        The covered text as the tool stored it.
    id : str or None
        The tool's id of the span (brat ``T1``, a Label Studio region id, a doccano
        entity id), which relations name; not compared.
    """

    unit: str
    rater: str
    start: int
    end: int
    label: str
    fragments: tuple[tuple[int, int], ...] = ()
    field: str = "spans"
    text: str | None = None
    id: str | None = _field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.fragments:
            object.__setattr__(self, "fragments", ((self.start, self.end),))


@dataclass(frozen=True)
class SpanTable:
    """The spans of one field and the coverage of each (unit, rater).

    Examples
    --------
    >>> t = SpanTable((Span("d1", "ann", 0, 4, "PER"),),
    ...               {("d1", "ann"): "annotated", ("d1", "bob"): "annotated"}, "entities")
    >>> len(t), t.raters, t.of("d1", "bob")
    (1, ('ann', 'bob'), ())
    """

    spans: tuple[Span, ...]
    coverage: Mapping[tuple[str, str], str] = field(default_factory=dict)
    field: str = "spans"
    #: the relations between these spans read from the same export, if any
    relations: RelationTable | None = _field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.spans)

    def __iter__(self) -> Iterator[Span]:
        return iter(self.spans)

    @property
    def units(self) -> tuple[str, ...]:
        """Units in the coverage or with a span, in order of first sight."""
        seen = dict.fromkeys(u for u, _ in self.coverage)
        seen.update(dict.fromkeys(s.unit for s in self.spans))
        return tuple(seen)

    @property
    def raters(self) -> tuple[str, ...]:
        """Raters in the coverage or with a span, in order of first sight."""
        seen = dict.fromkeys(r for _, r in self.coverage)
        seen.update(dict.fromkeys(s.rater for s in self.spans))
        return tuple(seen)

    def of(self, unit: str, rater: str) -> tuple[Span, ...]:
        """The spans ``rater`` marked in ``unit``, by start offset."""
        return tuple(
            sorted(
                (s for s in self.spans if s.unit == unit and s.rater == rater),
                key=lambda s: (s.start, s.end, s.label),
            )
        )

    def status(self, unit: str, rater: str) -> str | None:
        """``"annotated"``, ``"skipped"`` or None (not seen by that rater)."""
        return self.coverage.get((unit, rater))

    def labels(self) -> dict[str, int]:
        """Span counts per label."""
        out: dict[str, int] = {}
        for s in self.spans:
            out[s.label] = out.get(s.label, 0) + 1
        return dict(sorted(out.items()))


class Utf16Index:
    """Convert UTF-16 code-unit offsets of ``text`` to Python code-point offsets.

    Examples
    --------
    >>> idx = Utf16Index("I \\U0001F600 Bergen")   # the emoji is 2 UTF-16 units
    >>> idx.to_code_point(5), "I \\U0001F600 Bergen"[idx.to_code_point(5):]
    (4, 'Bergen')
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.trivial = all(ord(ch) <= 0xFFFF for ch in text)
        self._starts: list[int] = []
        if not self.trivial:
            widths = (2 if ord(ch) > 0xFFFF else 1 for ch in text)
            self._starts = [0, *accumulate(widths)]

    def to_code_point(self, offset: int) -> int:
        """The code-point offset of UTF-16 ``offset``; raises ValueError mid-character."""
        if self.trivial:
            return offset
        i = bisect_left(self._starts, offset)
        if i >= len(self._starts) or self._starts[i] != offset:
            raise ValueError(f"UTF-16 offset {offset} falls inside a character or past the text")
        return i

    @property
    def utf16_length(self) -> int:
        """Length of the text in UTF-16 code units."""
        return len(self.text) if self.trivial else self._starts[-1]


def locate(
    text: str | None,
    start: int,
    end: int,
    span_text: str | None,
    *,
    utf16: bool,
    index: Utf16Index | None = None,
) -> tuple[int, int, str]:
    """Code-point offsets of a span and how they were established.

    Returns ``(start, end, status)`` with status ``"converted"`` (UTF-16
    offsets moved to code points), ``"as given"`` (offsets already code
    points, or no text to convert against), or ``"mismatch"`` (neither
    reading matches the stored span text; the converted offsets are kept).

    Examples
    --------
    >>> locate("\\U0001F600 Oslo", 3, 7, "Oslo", utf16=True)
    (2, 6, 'converted')
    """
    if text is None or not utf16:
        ok = text is None or span_text is None or text[start:end] == span_text
        return start, end, "as given" if ok else "mismatch"
    idx = index or Utf16Index(text)
    if idx.trivial:
        ok = span_text is None or text[start:end] == span_text
        return start, end, "as given" if ok else "mismatch"
    try:
        s, e = idx.to_code_point(start), idx.to_code_point(end)
    except ValueError:
        s, e = start, end
        if span_text is not None and text[s:e] == span_text:
            return s, e, "as given"
        return s, e, "mismatch"
    if span_text is None or text[s:e] == span_text:
        return s, e, "converted"
    if text[start:end] == span_text:
        return start, end, "as given"
    return s, e, "mismatch"
