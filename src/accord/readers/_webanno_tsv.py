"""Parse one WebAnno TSV 3.x file into span annotations per ``layer.feature``.

Format: ``inception-project/inception: inception/inception-io-webanno-tsv/
src/main/resources/META-INF/asciidoc/user-guide/webannotsv.adoc`` (TSV 3.3)
and the test files under ``src/test/resources/tsv3-suite/``.

Header lines ``#T_SP=`` (span layers), ``#T_CH=`` (chains), ``#T_RL=``
(relations) declare the columns after ``sent-tok``, ``begin-end`` and the
token. In a span feature column ``_`` is no annotation, ``*`` an annotation
without a value, ``VALUE[n]`` an annotation whose id ``n`` ties the rows of a
multi-token (or stacked) annotation together; stacked annotations are joined
by ``|``. Reserved characters are backslash-escaped. Offsets are UTF-16 units
of the document; the document is rebuilt from the ``#Text=`` lines to convert
them. Chains and slot features are not read.

Relation layers (``#T_RL=Layer|feature...|BT_<base span layer>``) are read from
the row of the dependent's (tail's) first token: the feature cells give the type
(the first feature; ``*`` or none: ``""``) and the ``BT_`` cell the governor's
(head's) token, ``1-1``, with ``[governorId_dependentId]`` when either span has an
id (``0``: none, the span is the one single-token span of its layer at that
token). Each span gets an id naming its layer and its ``[n]`` id (or its token
when it has none), the same in every feature column of the layer.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from accord.errors import FormatError
from accord.readers.spans import Utf16Index

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}
_ID = re.compile(r"^(.*?)\[(\d+)\]$", re.DOTALL)


@dataclass
class Column:
    """One body column: which layer and feature it holds, and whether spans are read from it."""

    layer: str
    feature: str | None
    kind: str  # "span", "slot", "chain", "relation"

    @property
    def field(self) -> str:
        short = self.layer.rsplit(".", 1)[-1]
        return f"{short}.{self.feature}" if self.feature else short


@dataclass
class Parsed:
    """Spans per field: ``(begin, end, label)`` in code points, and what was skipped."""

    spans: dict[str, list[tuple[int, int, str, str]]] = field(default_factory=dict)
    stats: Counter[str] = field(default_factory=Counter)
    #: (relation layer, base span layer, head span id, tail span id, type)
    relations: list[tuple[str, str, str, str, str]] = field(default_factory=list)


def unescape(value: str) -> str:
    """Undo TSV backslash escapes (``\\t``, ``\\n`` and ``\\r`` become the characters)."""
    if "\\" not in value:
        return value
    out, i = [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            if value.startswith("->", i + 1):
                out.append("->")
                i += 3
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def split_unescaped(value: str, sep: str) -> list[str]:
    """Split on ``sep`` where it is not backslash-escaped."""
    parts, cur, i = [], [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            cur.append(value[i : i + 2])
            i += 2
            continue
        if ch == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def header_columns(line: str) -> list[Column]:
    """The body columns declared by one ``#T_SP=`` / ``#T_CH=`` / ``#T_RL=`` line."""
    tag, _, decl = line[1:].partition("=")
    layer, *features = decl.split("|")
    if tag == "T_CH":
        return [Column(layer, f, "chain") for f in features] or [Column(layer, None, "chain")]
    if tag == "T_RL":
        return [Column(layer, f, "relation") for f in features] or [Column(layer, None, "relation")]
    cols: list[Column] = []
    i = 0
    while i < len(features):
        f = features[i]
        if f.startswith("ROLE_"):
            cols += [Column(layer, f, "slot"), Column(layer, f, "slot")]
            i += 2  # the role column, then the target type's column
            continue
        cols.append(Column(layer, f, "span"))
        i += 1
    return cols or [Column(layer, None, "span")]


def parse(text: str, where: Any) -> Parsed:
    """Span annotations of a TSV 3.x document (``where`` names the file in errors)."""
    lines = text.split("\n")
    cols, body_at = _header(lines, where)
    sentences: list[tuple[int, str]] = []
    pending: list[str] = []
    found: dict[tuple[int, str], dict[str, Any]] = {}
    out = Parsed()
    for n in range(body_at, len(lines)):
        line = lines[n].rstrip("\r")
        if line.startswith("#Text="):
            pending.append(unescape(line[6:]))
            continue
        if not line.strip() or line.startswith("#"):
            continue
        begin, end, cells = _row(line, cols, where, n + 1)
        address = line.split("\t", 1)[0]
        token, _, sub = address.partition(".")
        if pending:
            sentences.append((begin, "\n".join(pending)))
            pending = []
        for j, col in enumerate(cols):
            if col.kind == "span":
                _cell(cells[j], col, j, (token, bool(sub), begin, end), n + 1, found, address)
            elif col.kind == "relation" and col.feature and col.feature.startswith("BT_"):
                _relations(cells, cols, j, address, out, where, n + 1)
            elif cells[j] not in ("_", "") and col.kind != "relation":
                out.stats[f"{col.kind} cells (not read)"] += 1
    _spans(out, found, sentences)
    return out


def _header(lines: list[str], where: Any) -> tuple[list[Column], int]:
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None or not lines[first].startswith("#FORMAT=WebAnno TSV 3"):
        raise FormatError(f"{where}, line {(first or 0) + 1}: expected '#FORMAT=WebAnno TSV 3.3'")
    cols: list[Column] = []
    i = first + 1
    while i < len(lines) and lines[i].startswith("#T_"):
        cols += header_columns(lines[i].rstrip("\r"))
        i += 1
    return cols, i


def _row(line: str, cols: list[Column], where: Any, lineno: int) -> tuple[int, int, list[str]]:
    cells = line.split("\t")
    if len(cells) == len(cols) + 4 and cells[-1] == "":
        cells = cells[:-1]  # the trailing tab
    if len(cells) != len(cols) + 3:
        raise FormatError(
            f"{where}, line {lineno}: expected {len(cols) + 3} tab-separated cells "
            f"(sent-tok, begin-end, token and {len(cols)} annotation columns), "
            f"got {len(cells)}"
        )
    b, _, e = cells[1].partition("-")
    if not (b.isdigit() and e.isdigit()) or int(b) > int(e):
        raise FormatError(f"{where}, line {lineno}: expected 'begin-end' offsets, got {cells[1]!r}")
    return int(b), int(e), cells[3:]


def _cell(
    cell: str,
    col: Column,
    j: int,
    row: tuple[str, bool, int, int],
    lineno: int,
    found: dict[tuple[int, str], dict[str, Any]],
    address: str = "",
) -> None:
    if cell in ("_", ""):
        return
    for k, item in enumerate(split_unescaped(cell, "|")):
        m = _ID.match(item)
        value, ident = (
            (m.group(1), m.group(2)) if m and not m.group(1).endswith("\\") else (item, None)
        )
        key = (j, ident) if ident is not None else (j, f"row{lineno}.{k}")
        label = "*" if value == "*" else unescape(value)
        sid = f"{col.layer}#{ident}" if ident is not None else f"{col.layer}@{address}"
        hit = found.setdefault(key, {"field": col.field, "label": label, "rows": [], "id": sid})
        hit["rows"].append(row)


_GOVERNOR = re.compile(r"^(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?$")


def _relations(
    cells: list[str], cols: list[Column], j: int, address: str, out: Parsed, where: Any,
    lineno: int,
) -> None:  # fmt: skip
    """The relations of one row: its ``BT_`` cell ``j`` and the layer's feature cells before it."""
    if cells[j] in ("_", ""):
        return
    col = cols[j]
    base = col.feature[3:] if col.feature else ""
    first = j
    while first > 0 and cols[first - 1].kind == "relation" and cols[first - 1].layer == col.layer:
        first -= 1
    govs = split_unescaped(cells[j], "|")
    types = split_unescaped(cells[first], "|") if first < j else ["*"] * len(govs)
    if len(types) != len(govs):
        raise FormatError(f"{where}, line {lineno}: {len(govs)} relation governors but "
                          f"{len(types)} relation values in layer {col.layer!r}")  # fmt: skip
    for gov, typ in zip(govs, types):
        m = _GOVERNOR.match(gov)
        if m is None:
            raise FormatError(f"{where}, line {lineno}: expected a governor token address such "
                              f"as '1-1' or '1-1[1_2]', got {gov!r}")  # fmt: skip
        g_tok, g_id, d_id = m.group(1), m.group(2) or "0", m.group(3) or "0"
        head = f"{base}#{g_id}" if g_id != "0" else f"{base}@{g_tok}"
        tail = f"{base}#{d_id}" if d_id != "0" else f"{base}@{address}"
        label = "" if typ in ("*", "_") else unescape(typ)
        out.relations.append((col.layer, base, head, tail, label))


def _extent(rows: list[tuple[str, bool, int, int]]) -> tuple[int, int]:
    """Begin and end of an annotation's rows; where it is on a sub-token of a token,
    that token's full row does not count (WebAnnoTsv3WriterTestBase, token prefix case)."""
    split = {tok for tok, sub, _, _ in rows if sub}
    kept = [(b, e) for tok, sub, b, e in rows if sub or tok not in split]
    return min(b for b, _ in kept), max(e for _, e in kept)


def _spans(
    out: Parsed, found: dict[tuple[int, str], dict[str, Any]], sentences: list[tuple[int, str]]
) -> None:
    index = _document_index(sentences, out.stats)
    for hit in found.values():
        b, e = _extent(hit["rows"])
        if index is not None and not index.trivial:
            try:
                b2, e2 = index.to_code_point(b), index.to_code_point(e)
                if (b2, e2) != (b, e):
                    out.stats["span offsets converted from UTF-16 units to code points"] += 1
                b, e = b2, e2
            except ValueError:
                out.stats["span offsets that fall inside a character (kept as given)"] += 1
        out.spans.setdefault(hit["field"], []).append((b, e, hit["label"], hit["id"]))


def _document_index(sentences: list[tuple[int, str]], stats: Counter[str]) -> Utf16Index | None:
    """The document rebuilt from ``#Text=`` lines, placed at their UTF-16 start offsets."""
    doc: list[str] = []
    units = 0
    for start, text in sentences:
        if start < units:
            stats["sentences out of order (offsets kept as given)"] += 1
            return None
        doc.append(" " * (start - units))
        doc.append(text)
        units = start + len(text.encode("utf-16-le")) // 2
    return Utf16Index("".join(doc))
