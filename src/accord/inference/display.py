"""How a result shows itself: a card in a notebook, Markdown, a console line, a frame.

Every public result mixes in :class:`Displayed` (or :class:`Tabular`, for a result that
is a table). A notebook calls ``_repr_html_`` and shows a compact card: the figure, its
interval, what it reads as (with its caveat), the n used and what was left out, and for a
table result the table. ``_repr_markdown_`` and ``str()`` give the same card as Markdown
and plain text; IPython's ``_repr_pretty_`` is one line (name, estimate, interval).

The card is built from the result's own ``to_dict()`` (its JSON keys), so the card, the
JSON and the frame say the same thing. The HTML escapes every text from the data with
:func:`html.escape` (quotes included) and uses the report's class names (``caveat``,
``note``, ``num``, ``scroll``) under one ``accord-card`` class; it holds no script, and
its colours come from ``currentColor`` and translucent greys, so it reads on light and
dark notebook themes alike.

This module sits in the lowest layer that holds a result; a family above it gives its
result a better card by overriding ``_card``. The reading of a coefficient on a
benchmark scale belongs to :mod:`accord.interpret`, which registers it in
:data:`READINGS` when imported; a result shown before that imports it by name, once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal

from accord.data import _validation as v
from accord.errors import AccordError

if TYPE_CHECKING:
    from accord.inference.results import AgreementResult

__all__ = ["READINGS", "Card", "Displayed", "Tabular", "escape_markdown", "frame",
           "flatten_row"]

Backend = Literal["pandas", "polars"]

#: Readings of a result on a benchmark scale, by result class name: a function returning
#: (the reading, its caveat). :mod:`accord.interpret.interpretation` fills it.
READINGS: dict[str, Callable[[Any], tuple[str, str]]] = {}
_READINGS_FROM = "accord.interpret.interpretation"

_CSS = """
.accord-card { --line: rgba(127,127,127,.35); --band: rgba(127,127,127,.12);
  color: inherit; background: transparent; max-width: 100%; overflow-wrap: anywhere;
  border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; margin: .25rem 0;
  font-size: .92rem; line-height: 1.4; }
.accord-card .title { font-weight: 600; margin: 0 0 .2rem; }
.accord-card .figure { font-size: 1.5rem; font-variant-numeric: tabular-nums; margin: 0; }
.accord-card .figure span { font-size: .92rem; opacity: .75; }
.accord-card p { margin: .25rem 0; }
.accord-card .note { opacity: .75; font-size: .88rem; }
.accord-card .caveat { border-left: 4px solid #b45309; padding: .1rem .5rem; }
.accord-card .scroll { overflow-x: auto; max-width: 100%; margin: .4rem 0 0; }
.accord-card table { border-collapse: collapse; font-size: .88rem; color: inherit;
  background: transparent; }
.accord-card th, .accord-card td { border-bottom: 1px solid var(--line); padding: .2rem .5rem;
  text-align: left; vertical-align: top; background: transparent; color: inherit; }
.accord-card thead th { background: var(--band); }
.accord-card .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
"""

_SPECIAL = re.compile(r"([\\`*\[\]|~])")
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITY_AMP = re.compile(r"&(?=#?\w+;)")
_MAX_ROWS = 20
_MAX_FACTS = 10
_COUNTS = frozenset({"tp", "fp", "fn", "tn", "support", "n", "count"})


def escape_markdown(text: object) -> str:
    """Text safe in a Markdown paragraph or table cell.

    HTML tags and entities are neutralised, Markdown emphasis, code, links and
    table pipes are backslash-escaped; an underscore inside a word (``rater_1``)
    is left as it is, since it cannot start emphasis there. Control characters
    (BEL, ESC, the OSC 52 clipboard sequence) and bidirectional overrides
    (U+202E) are spelled out (:func:`accord.data._text.visible`): a report shown with
    ``cat`` or in an editor must not run them.

    Examples
    --------
    >>> escape_markdown("<script>alert(1)</script>")
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    >>> print(escape_markdown("a|b *c* [d](e) _f_ g_h &amp;"))
    a\\|b \\*c\\* \\[d\\](e) \\_f\\_ g_h &amp;amp;
    >>> print(escape_markdown("ok\\u202ekO\\x07"))
    ok\\\\u202ekO\\\\x07
    """
    from accord.data._text import visible

    s = visible(" ".join(str(text).split()), keep="")
    s = _ENTITY_AMP.sub("&amp;", s).replace("<", "&lt;").replace(">", "&gt;")
    s = _SPECIAL.sub(r"\\\1", s)
    s = _EDGE_UNDERSCORE.sub(r"\\_", s)
    return "\\" + s if s.startswith("#") else s


def _e(text: object) -> str:
    from html import escape  # only a card's HTML needs it (html loads its entity tables)

    return escape(str(text), quote=True)


def fmt(x: Any, digits: int = 4) -> str:
    """A value as shown on a card: floats to ``digits`` decimals, ``nan``/None as "undefined"."""
    if x is None:
        return "undefined"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}f}" if math.isfinite(x) else "undefined"
    if isinstance(x, (list, tuple)):
        return ", ".join(fmt(i, digits) for i in x)
    return str(x)


@dataclass(frozen=True)
class Card:
    """What a result shows: a title, its figure and interval, a reading, facts, a table."""

    title: str
    figure: str = ""
    figure_name: str = ""
    interval: str = ""
    reading: str = ""
    caveats: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()
    head: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    numeric: tuple[bool, ...] = ()
    n_rows: int = 0

    def line(self) -> str:
        """One line: name, estimate, interval."""
        parts = [self.title]
        if self.figure:
            parts.append(f"{self.figure_name} = {self.figure}" if self.figure_name
                         else self.figure)
        if self.interval:
            parts.append(self.interval)
        if not self.figure and self.n_rows:
            parts.append(f"{self.n_rows} rows")
        return ", ".join(parts)

    def _more(self) -> str:
        hidden = self.n_rows - len(self.rows)
        return f"{hidden} more rows: to_frame() or to_dict() has them all" if hidden > 0 else ""

    def html(self) -> str:
        """The card as an HTML fragment: scoped CSS, no script."""
        out = [f'<div class="accord-card"><style>{_CSS}</style>',
               f'<p class="title">{_e(self.title)}</p>']
        if self.figure:
            name = f"<span>{_e(self.figure_name)}</span> " if self.figure_name else ""
            out.append(f'<p class="figure">{name}<strong>{_e(self.figure)}</strong></p>')
        if self.interval:
            out.append(f"<p>{_e(self.interval)}</p>")
        if self.reading:
            out.append(f"<p>{_e(self.reading)}</p>")
        out += [f'<p class="caveat">caveat: {_e(c)}</p>' for c in self.caveats]
        if self.facts:
            out.append('<p class="note">' + " · ".join(
                f"{_e(k)} {_e(val)}" for k, val in self.facts) + "</p>")
        if self.head:
            out.append(self._html_table())
        if self._more():
            out.append(f'<p class="note">{_e(self._more())}</p>')
        return "".join(out) + "</div>"

    def _html_table(self) -> str:
        def cell(text: str, j: int, tag: str) -> str:
            num = ' class="num"' if j < len(self.numeric) and self.numeric[j] else ""
            return f"<{tag}{num}>{_e(text)}</{tag}>"

        head = "".join(cell(h, j, "th") for j, h in enumerate(self.head))
        body = "".join("<tr>" + "".join(cell(c, j, "td") for j, c in enumerate(r)) + "</tr>"
                       for r in self.rows)
        return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table></div>")

    def markdown(self) -> str:
        """The card as Markdown (every text escaped)."""
        m = escape_markdown
        out = [f"**{m(self.title)}**", ""]
        if self.figure:
            out += [f"{m(self.figure_name)} **{m(self.figure)}**".strip(), ""]
        out += [f"{m(s)}\n" for s in (self.interval, self.reading) if s]
        out += [f"> caveat: {m(c)}\n" for c in self.caveats]
        if self.facts:
            out += [" · ".join(f"{m(k)} {m(val)}" for k, val in self.facts), ""]
        if self.head:
            marks = ["---:" if n else ":---" for n in self.numeric]
            out += ["| " + " | ".join(m(h) for h in self.head) + " |",
                    "| " + " | ".join(marks) + " |"]
            out += ["| " + " | ".join(m(c) for c in r) + " |" for r in self.rows]
            out.append("")
        if self._more():
            out.append(m(self._more()))
        return "\n".join(out).rstrip() + "\n"

    def text(self) -> str:
        """The card as plain text for a console."""
        out = [self.title]
        if self.figure:
            out.append(f"  {self.figure_name} = {self.figure}" if self.figure_name
                       else f"  {self.figure}")
        out += [f"  {s}" for s in (self.interval, self.reading) if s]
        out += [f"  caveat: {c}" for c in self.caveats]
        if self.facts:
            out.append("  " + ", ".join(f"{k} {val}" for k, val in self.facts))
        if self.head:
            widths = [max(len(x) for x in col) for col in zip(self.head, *self.rows)]
            for r in (self.head, *self.rows):
                out.append("  " + "  ".join(
                    c.rjust(w) if j < len(self.numeric) and self.numeric[j] else c.ljust(w)
                    for j, (c, w) in enumerate(zip(r, widths))).rstrip())
        if self._more():
            out.append(f"  {self._more()}")
        return "\n".join(out)


def interval_text(ci: Mapping[str, Any] | None) -> str:
    """An interval dict of ``to_dict()`` as "95% CI 0.31 to 0.86 (asymptotic)"."""
    if not isinstance(ci, Mapping) or ci.get("low") is None or ci.get("high") is None:
        return ""
    level = ci.get("confidence_level")
    name = f"{level:.0%} CI" if isinstance(level, float) else "interval"
    method = f" ({ci['method']})" if ci.get("method") else ""
    return f"{name} {fmt(ci['low'])} to {fmt(ci['high'])}{method}"


def flatten_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """One table row of ``to_dict()`` made flat: an interval becomes ``ci_low``/``ci_high``
    (``<key>_ci_low`` when nested under a figure), a nested figure its estimate."""
    out: dict[str, Any] = {}
    for key, val in row.items():
        if isinstance(val, Mapping):
            if "low" in val and "high" in val:
                pre = "" if key in ("confidence_interval", "ci", "interval") else f"{key}_"
                out[f"{pre}ci_low"], out[f"{pre}ci_high"] = val["low"], val["high"]
            elif "estimate" in val:
                out[key] = val["estimate"]
                ci = val.get("confidence_interval")
                if isinstance(ci, Mapping):
                    out[f"{key}_ci_low"], out[f"{key}_ci_high"] = ci.get("low"), ci.get("high")
            else:
                out.update({f"{key}_{k}": x for k, x in val.items()
                            if not isinstance(x, (Mapping, list))})
        else:
            out[key] = val
    return out


def table_rows(d: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The first table in a ``to_dict()``: (its key, its rows flattened)."""
    for key, val in d.items():
        if isinstance(val, list) and val and all(isinstance(r, Mapping) for r in val):
            return key, [flatten_row(r) for r in val]
        if (isinstance(val, Mapping) and val
                and all(isinstance(r, Mapping) for r in val.values())):
            return key, [flatten_row({"name": k, **r}) for k, r in val.items()]
    return "", []


def _nested(x: Any) -> bool:
    """A cell too deep for a card's table (a list of mappings): the frame keeps it."""
    return isinstance(x, Mapping) or (isinstance(x, (list, tuple))
                                      and any(isinstance(i, (Mapping, list, tuple)) for i in x))


def _scalar(x: Any) -> bool:
    return x is not None and isinstance(x, (str, int, float, bool))


def _lead(d: Mapping[str, Any]) -> tuple[str, str, str]:
    """(name, figure, interval) of a result's leading figure: its estimate, else its first
    figure with an estimate (an evaluation's accuracy), else its test statistic."""
    est = d.get("estimate")
    if isinstance(est, (int, float)) and not isinstance(est, bool):
        name = str(d.get("coefficient") or d.get("metric") or "estimate")
        return name, fmt(est), interval_text(d.get("confidence_interval"))
    for key, val in d.items():
        if isinstance(val, Mapping) and isinstance(val.get("estimate"), (int, float)):
            return key, fmt(val["estimate"]), interval_text(val.get("confidence_interval"))
    for key in ("difference", "statistic"):
        if isinstance(d.get(key), (int, float)):
            return key, fmt(d[key]), interval_text(d.get("confidence_interval"))
    return "", "", ""


def card_from_dict(title: str, d: Mapping[str, Any]) -> Card:
    """A card from a result's ``to_dict()``: its leading figure and interval, its band,
    its notes and caveats, its counts as facts and its first table as the table."""
    name, figure, interval = _lead(d)
    caveats = [str(d[k]) for k in ("undefined_reason", "note", "caveat") if d.get(k)]
    for k in ("caveats", "notes", "warnings"):
        if isinstance(d.get(k), list):
            caveats += [str(c) for c in d[k] if c]
    reading = f"{d['band']} ({d.get('scale_title', '')})" if d.get("band") else ""
    skip = {"estimate", "coefficient", "metric", "undefined_reason", "note", "caveat",
            "band", "title", "citation"}
    keys = sorted((k for k in d if k not in skip and _scalar(d[k])),
                  key=lambda k: not k.startswith("n_"))
    facts = tuple((k, fmt(d[k])) for k in keys[:_MAX_FACTS])
    _, rows = table_rows(d)
    title = str(d.get("title") or title)
    return _with_table(Card(title=title, figure=figure, figure_name=name, interval=interval,
                            reading=reading, caveats=tuple(caveats), facts=facts), rows)


def _with_table(card: Card, rows: Sequence[Mapping[str, Any]]) -> Card:
    if not rows:
        return card
    shown = rows[:_MAX_ROWS]
    head = [k for k in dict.fromkeys(k for r in rows for k in r)
            if not k.startswith("details_") and any(r.get(k) not in (None, "") for r in shown)
            and not any(_nested(r.get(k)) for r in shown)]
    numeric = tuple(all(isinstance(r.get(h), (int, float)) and not isinstance(r.get(h), bool)
                        for r in shown if r.get(h) is not None) for h in head)
    # whole numbers above 1 are counts (an evaluation's tp, fp written as floats); a
    # rate of exactly 0 or 1 keeps its decimals
    counts = [all(isinstance(r.get(h), (int, float)) and float(r[h]).is_integer()
                  for r in shown if r.get(h) is not None)
              and (h in _COUNTS or h.startswith("n_")
                   or any(isinstance(r.get(h), int) or abs(r.get(h) or 0) > 1 for r in shown))
              for h in head]
    cells = tuple(tuple("" if r.get(h) is None else fmt(r[h], 0 if count else 4)
                        for h, count in zip(head, counts)) for r in shown)
    return Card(card.title, card.figure, card.figure_name, card.interval, card.reading,
                card.caveats, card.facts, tuple(head), cells, numeric, len(rows))


def frame(rows: Sequence[Mapping[str, Any]], *, backend: Backend | None = None,
          func: str = "to_frame") -> Any:
    """Rows as a pandas DataFrame when pandas is installed, else polars (``backend`` chooses)."""
    if backend is None:
        try:
            import pandas  # noqa: F401
        except ImportError:
            backend = "polars"
        else:
            backend = "pandas"
    v.choice(backend, ("pandas", "polars"), param="backend", func=func)
    columns = list(dict.fromkeys(k for r in rows for k in r))
    data = {c: [r.get(c) for r in rows] for c in columns}
    if backend == "pandas":
        import pandas as pd

        return pd.DataFrame(data, columns=columns)
    import polars as pl

    return pl.DataFrame(data, strict=False)


class Displayed:
    """A result that displays itself in a notebook, as Markdown and in a console."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # IPython takes a class's own __repr__ (a dataclass has one) over an inherited
        # _repr_pretty_; one of the class's own comes first.
        cls._repr_pretty_ = Displayed._repr_pretty_  # type: ignore[method-assign]

    def _card(self) -> Card:
        return card_from_dict(type(self).__name__, self._display_dict())

    def _display_dict(self) -> dict[str, Any]:
        to_dict: Callable[[], dict[str, Any]] = getattr(self, "to_dict")  # noqa: B009
        return to_dict()

    def _reading(self) -> tuple[str, str]:
        """(The reading on a benchmark scale, its caveat) from :data:`READINGS`."""
        name = type(self).__name__
        if name not in READINGS:
            import_module(_READINGS_FROM)  # registers the readings (a layer above)
        read = READINGS.get(name)
        return read(self) if read is not None else ("", "")

    def _repr_html_(self) -> str:
        return self._card().html()

    def _repr_markdown_(self) -> str:
        return self._card().markdown()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        card = self._card()
        own = str(self) if type(self).__str__ is not Displayed.__str__ else ""
        p.text(own if own and not card.figure and "\n" not in own else card.line())

    def __str__(self) -> str:
        return self._card().text()


class Tabular(Displayed):
    """A result that is a table: it also becomes a pandas or polars frame."""

    def _card(self) -> Card:
        card = card_from_dict(type(self).__name__, self._display_dict())
        return _with_table(card, self._frame_rows())

    def _frame_rows(self) -> list[dict[str, Any]]:
        return table_rows(self._display_dict())[1]

    def to_frame(self, *, backend: Backend | None = None) -> Any:
        """The table as a frame, columns named as the JSON keys of ``to_dict()``.

        Parameters
        ----------
        backend : {"pandas", "polars"}, optional
            The frame library; by default pandas when installed, else polars.
            Intervals are the columns ``ci_low`` and ``ci_high``.
        """
        return frame(self._frame_rows(), backend=backend,
                     func=f"{type(self).__name__}.to_frame")


def agreement_card(result: AgreementResult) -> Card:
    """A coefficient's card: its estimate, 95% interval, reading on its default scale."""
    interval = ""
    if result.defined and (math.isfinite(result.se) or result.analytic_interval is not None):
        try:
            interval = interval_text(result.confidence_interval(0.95).to_dict())
        except AccordError:  # no interval this coefficient can give without resampling
            interval = ""
    reading, caveat = result._reading()
    caveats = tuple(c for c in (result.undefined_reason, caveat) if c)
    d = result.to_dict()
    facts = [("n_units", str(result.n_units)), ("n_raters", str(result.n_raters))]
    facts += [(k, fmt(d[k])) for k in d
              if k.startswith(("observed_", "expected_")) and isinstance(d[k], float)]
    if math.isfinite(result.se):
        facts.append(("se", fmt(result.se)))
    facts += [(k, fmt(x)) for k, x in result.details.items()
              if k.startswith("n_") and _scalar(x)]
    return Card(title=result.coefficient, figure=fmt(result.estimate), figure_name="estimate",
                interval=interval, reading=reading, caveats=caveats, facts=tuple(facts))
