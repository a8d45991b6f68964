"""Label Studio result values: which are labels, which are text spans, which are neither.

Field paths by control tag follow Label Studio's result format
(HumanSignal/label-studio: docs/source/includes/result_format.md): ``choices``
-> ``value.choices``; ``labels``/``hypertextlabels``/``paragraphlabels`` ->
the region's labels plus its span; ``rating`` -> ``value.rating``;
``number`` -> ``value.number``; ``textarea`` -> ``value.text``;
``taxonomy`` -> ``value.taxonomy`` (paths); ``pairwise`` -> ``value.selected``;
``datetime`` -> ``value.datetime``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from accord.readers._base import as_label
from accord.readers.spans import Span, Utf16Index, locate

SPAN_TYPES = frozenset({"labels", "hypertextlabels", "paragraphlabels"})
LABEL_KEYS = {
    "choices": "choices",
    "rating": "rating",
    "number": "number",
    "taxonomy": "taxonomy",
    "pairwise": "selected",
    "datetime": "datetime",
    "textarea": "text",
}
_KEY_ORDER = ("choices", "rating", "number", "taxonomy", "selected", "datetime")


def classify(value: Mapping[str, Any], rtype: str | None) -> tuple[str, Any]:
    """``("span", value)``, ``("label", label)`` or ``("ignored", why)``.

    ``rtype`` is the result's ``type`` (JSON export); JSON_MIN and CSV rows
    drop it, so the value's keys decide.
    """
    if rtype in SPAN_TYPES or (rtype is None and _span_like(value)):
        return "span", value
    key = LABEL_KEYS.get(rtype) if rtype is not None else _label_key(value)
    if key is None or key not in value:
        return "ignored", rtype or "region"
    return "label", _label(key, value[key])


def _span_like(value: Mapping[str, Any]) -> bool:
    has_labels = any(k.endswith("labels") for k in value)
    return has_labels and ("start" in value or "startOffset" in value)


def _label_key(value: Mapping[str, Any]) -> str | None:
    if any(k.endswith("labels") for k in value):
        return None
    found = next((k for k in _KEY_ORDER if k in value), None)
    if found is None and set(value) == {"text"}:
        return "text"
    return found


def _label(key: str, raw: Any) -> Any:
    if key == "taxonomy" and isinstance(raw, list):
        paths = ["/".join(map(str, p)) if isinstance(p, list) else str(p) for p in raw]
        return paths[0] if len(paths) == 1 else as_label(paths)
    if isinstance(raw, list):
        return as_label(raw[0]) if len(raw) == 1 else as_label(raw)
    return as_label(raw)


def span_labels(value: Mapping[str, Any], rtype: str | None) -> list[str]:
    """The labels of a span region (``labels``, or ``<type>`` for HyperText and Paragraphs)."""
    for key in (rtype, "labels", *(k for k in value if k.endswith("labels"))):
        if key and isinstance(value.get(key), list):
            return [str(x) for x in value[key]]
    return []


class SpanMaker:
    """Builds code-point spans from Label Studio regions and counts how offsets were fixed."""

    def __init__(self) -> None:
        self.stats: Counter[str] = Counter()
        self._index: dict[str, Utf16Index] = {}

    def make(
        self,
        value: Mapping[str, Any],
        rtype: str | None,
        *,
        unit: str,
        rater: str,
        field: str,
        texts: list[str],
    ) -> list[Span]:
        """One span per label of the region; an unplaceable region is counted and skipped."""
        labels = span_labels(value, rtype)
        start, end = _offsets(value, "start", "end")
        if start is None or end is None:
            start, end = _offsets(value, "startOffset", "endOffset")
            if start is None or end is None:
                self.stats["regions without valid integer offsets (not read)"] += 1
                return []
            self.stats["offsets inside an XPath element (kept as given)"] += 1
            return [
                Span(unit, rater, start, end, lab, field=field, text=_text(value)) for lab in labels
            ]
        s, e, status = self._place(start, end, _text(value), texts)
        self.stats[status] += 1
        return [Span(unit, rater, s, e, lab, field=field, text=_text(value)) for lab in labels]

    def _place(
        self, start: int, end: int, span_text: str | None, texts: list[str]
    ) -> tuple[int, int, str]:
        best: tuple[int, int, str] | None = None
        for text in texts:
            idx = self._index.get(text)
            if idx is None:
                idx = self._index[text] = Utf16Index(text)
            s, e, status = locate(text, start, end, span_text, utf16=True, index=idx)
            if status != "mismatch":
                return s, e, status
            best = best or (s, e, status)
        return best or (start, end, "no text to check against")

    def notes(self) -> list[str]:
        """Audit lines for the offsets."""
        labels = {
            "converted": "span offsets converted from UTF-16 units to code points",
            "as given": "span offsets used as given (no UTF-16 conversion needed)",
            "mismatch": "span offsets that match neither reading of the stored span text",
        }
        return [f"{n} {labels.get(k, k)}" for k, n in sorted(self.stats.items()) if n]


def _offsets(value: Mapping[str, Any], a: str, b: str) -> tuple[int | None, int | None]:
    start, end = value.get(a), value.get(b)
    if isinstance(start, int) and isinstance(end, int) and _is_int(start) and _is_int(end):
        return (start, end) if start <= end else (None, None)
    return None, None


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _text(value: Mapping[str, Any]) -> str | None:
    t = value.get("text")
    return t if isinstance(t, str) else None


def doc_texts(data: Any, to_name: str | None = None) -> list[str]:
    """Candidate document texts of a task, the likeliest first."""
    if not isinstance(data, Mapping):
        return []
    out: list[str] = []
    for key in (to_name if isinstance(to_name, str) else None, "text"):
        if key and isinstance(data.get(key), str):
            out.append(data[key])
    out += [v for v in data.values() if isinstance(v, str) and v not in out]
    return out
