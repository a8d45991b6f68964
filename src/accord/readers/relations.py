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

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Relation", "RelationTable"]


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
