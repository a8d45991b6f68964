"""Relation records: which of a rater's spans that rater linked, and how.

A relation lives in one unit (document), belongs to one rater and names two of
that rater's spans by their ids (:attr:`accord.readers.spans.Span.id`): the
``head`` (brat ``Arg1``, Label Studio ``from_id``, doccano ``from_id``, the
INCEpTION governor) and the ``tail``. ``directed=False`` marks a relation whose
two arguments play the same role (a brat ``*`` equivalence, a Label Studio
relation drawn both ways): ``head`` and ``tail`` may then be swapped.

Nothing here checks the ids against the spans: :func:`accord.relation_agreement`
does, and says which relation names a missing span.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord.readers._base import format_error, read_text, text_id

__all__ = ["Relation", "RelationTable", "read_relations"]


@dataclass(frozen=True)
class Relation:
    """One link between two spans of one rater.

    Attributes
    ----------
    unit, rater : str
        The document and who drew the link.
    id : str
        The tool's id of the relation (brat ``R1``), or one made up when the tool has none.
    head, tail : str
        The ids of the two spans, in the relation's direction.
    type : str
        The relation's type (label); ``""`` when the tool stored none.
    directed : bool
        False when the two arguments may be swapped.
    field : str or None
        The span layer whose spans it links, when the export has several
        (an INCEpTION relation layer's base layer); None: any.
    """

    unit: str
    rater: str
    id: str
    head: str
    tail: str
    type: str
    directed: bool = True
    field: str | None = None


@dataclass(frozen=True)
class RelationTable:
    """The relations read beside a :class:`~accord.readers.spans.SpanTable`.

    Examples
    --------
    >>> t = RelationTable((Relation("d1", "ann", "R1", "T1", "T2", "works_for"),))
    >>> len(t), t.types()
    (1, {'works_for': 1})
    """

    relations: tuple[Relation, ...] = ()
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.relations)

    def __iter__(self) -> Iterator[Relation]:
        return iter(self.relations)

    def types(self) -> dict[str, int]:
        """Relation counts per type."""
        out: dict[str, int] = {}
        for r in self.relations:
            out[r.type] = out.get(r.type, 0) + 1
        return dict(sorted(out.items()))


#: the columns of a relations file (``id`` and ``directed`` may be left out)
COLUMNS = ("unit", "rater", "head", "tail", "type")


def read_relations(path: str | Path, *, unit: str = "unit", rater: str = "rater") -> RelationTable:
    """Relations from a CSV, TSV or JSON Lines file with ``unit``, ``rater``, ``head``,
    ``tail`` and ``type`` (and optionally ``id`` and ``directed``) per row.

    ``head`` and ``tail`` are span ids (the ``span_id`` column of a span table);
    ``unit=`` and ``rater=`` name the document and rater columns when they are
    named otherwise (as in the span table).
    """
    p = Path(path)
    text = read_text(p)
    if p.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        rows = [_json_row(line, p, k) for k, line in enumerate(text.splitlines(), 1)
                if line.strip()]  # fmt: skip
    else:
        delim = "\t" if p.suffix.lower() == ".tsv" else ","
        rows = list(csv.DictReader(io.StringIO(text), delimiter=delim))
    out = []
    for k, row in enumerate(rows, 1):
        row = {**row, "unit": row.get(unit), "rater": row.get(rater)}
        missing = [c for c in COLUMNS if row.get(c) in (None, "")]
        if missing:
            raise format_error(p, f"row {k}", f"expected the columns {list(COLUMNS)!r} with a "
                               f"value each; {missing!r} missing")  # fmt: skip
        directed = str(row.get("directed", "true")).strip().lower() not in ("false", "0", "no")
        u, r, h, t, ty = (text_id(row[c]) for c in COLUMNS)
        out.append(Relation(u, r, text_id(row.get("id") or f"row{k}"), h, t, ty, directed))
    return RelationTable(tuple(out))


def _json_row(line: str, path: Path, k: int) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise format_error(path, f"line {k}", f"expected a JSON object ({exc.msg})") from None
    if not isinstance(row, dict):
        raise format_error(path, f"line {k}", "expected a JSON object")
    return row
