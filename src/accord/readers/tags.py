"""Entities from tag sequences (BIO and its relatives), as seqeval finds them.

A sentence (one list of tags) is a unit; an entity is ``(start, end, type)`` in
token positions, end exclusive.

* ``scheme=None``: the lenient reading of the CoNLL ``conlleval`` script, which
  is seqeval's default mode: an ``I-`` after ``O`` or after another type starts
  an entity, a type change ends one.
* ``scheme="IOB1" | "IOB2" | "IOE1" | "IOE2" | "IOBES" | "BILOU"``: seqeval's
  strict mode (``mode="strict"``): a chunk is an entity only when it starts,
  continues and ends as the scheme allows; a malformed chunk (e.g. an ``I-``
  without its ``B-`` in IOB2) is no entity. A prefix the scheme does not use is
  refused with a sentence.

The pattern tables are those of ``seqeval.scheme`` (Nakayama 2018, seqeval 1.2),
triples (previous prefix, current prefix, type condition).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from accord.errors import DataError, InvalidParameterError

Scheme = Literal["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"]
SCHEMES: tuple[str, ...] = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")

_ANY, _SAME, _DIFF = "any", "same", "diff"
_P = "IOBESUL"  # every prefix seqeval knows

Pattern = tuple[str, str, str]  # previous prefixes, current prefixes, type condition

# allowed prefixes, start, inside and end patterns (seqeval.scheme)
_TABLES: dict[str, tuple[str, set[Pattern], set[Pattern], set[Pattern]]] = {
    "IOB1": (
        "IOB",
        {("O", "I", _ANY), ("I", "I", _DIFF), ("B", "I", _ANY), ("I", "B", _SAME),
         ("B", "B", _SAME)},
        {("B", "I", _SAME), ("I", "I", _SAME)},
        {("I", "I", _DIFF), ("I", "O", _ANY), ("I", "B", _ANY), ("B", "O", _ANY),
         ("B", "I", _DIFF), ("B", "B", _SAME)},
    ),
    "IOE1": (
        "IOE",
        {("O", "I", _ANY), ("I", "I", _DIFF), ("E", "I", _ANY), ("E", "E", _SAME)},
        {("I", "I", _SAME), ("I", "E", _SAME)},
        {("I", "I", _DIFF), ("I", "O", _ANY), ("I", "E", _DIFF), ("E", "I", _SAME),
         ("E", "E", _SAME)},
    ),
    "IOB2": (
        "IOB",
        {(_P, "B", _ANY)},
        {("B", "I", _SAME), ("I", "I", _SAME)},
        {("I", "O", _ANY), ("I", "I", _DIFF), ("I", "B", _ANY), ("B", "O", _ANY),
         ("B", "I", _DIFF), ("B", "B", _ANY)},
    ),
    "IOE2": (
        "IOE",
        {("O", "I", _ANY), ("O", "E", _ANY), ("E", "I", _ANY), ("E", "E", _ANY),
         ("I", "I", _DIFF), ("I", "E", _DIFF)},
        {("I", "E", _SAME), ("I", "I", _SAME)},
        {("E", _P, _ANY)},
    ),
    "IOBES": (
        "IOBES",
        {(_P, "B", _ANY), (_P, "S", _ANY)},
        {("B", "I", _SAME), ("B", "E", _SAME), ("I", "I", _SAME), ("I", "E", _SAME)},
        {("S", _P, _ANY), ("E", _P, _ANY)},
    ),
    "BILOU": (
        "BILOU",
        {(_P, "B", _ANY), (_P, "U", _ANY)},
        {("B", "I", _SAME), ("B", "L", _SAME), ("I", "I", _SAME), ("I", "L", _SAME)},
        {("U", _P, _ANY), ("L", _P, _ANY)},
    ),
}  # fmt: skip

Token = tuple[str, str]  # prefix, type
Entity = tuple[int, int, str]


def entities(sentence: Sequence[str], scheme: str | None) -> list[Entity]:
    """The entities of one sentence, ``(start, end, type)`` with end exclusive.

    Examples
    --------
    >>> entities(["B-PER", "I-PER", "O", "I-LOC"], None)
    [(0, 2, 'PER'), (3, 4, 'LOC')]
    >>> entities(["B-PER", "I-PER", "O", "I-LOC"], "IOB2")
    [(0, 2, 'PER')]
    """
    if scheme is None:
        return _lenient(sentence)
    if scheme not in _TABLES:
        shown = ", ".join(repr(s) for s in (None, *SCHEMES))
        raise InvalidParameterError(
            f"The 'scheme' parameter of evaluate_spans must be one of {{{shown}}}. "
            f"Got {scheme!r} instead."
        )
    return _strict(sentence, scheme)


def _token(tag: str, allowed: str, scheme: str) -> Token:
    if not isinstance(tag, str) or not tag or tag[0] not in allowed:
        raise DataError(
            f"tag {tag!r} does not fit the {scheme} scheme: its prefix must be one of "
            f"{', '.join(allowed)} (as in B-PER, I-PER, O)."
        )
    return tag[0], tag[1:].strip("-") or "_"


def _fits(prev: Token, cur: Token, patterns: set[Pattern]) -> bool:
    for p_prev, p_cur, cond in patterns:
        prefixes_fit = prev[0] in p_prev and cur[0] in p_cur
        if prefixes_fit and (cond == _ANY or (cond == _SAME) == (prev[1] == cur[1])):
            return True
    return False


def _strict(sentence: Sequence[str], scheme: str) -> list[Entity]:
    allowed, start, inside, end = _TABLES[scheme]
    outside: Token = ("O", "_")
    toks = [_token(t, allowed, scheme) for t in sentence] + [outside]
    out: list[Entity] = []
    i, prev = 0, outside
    while i < len(toks):
        tok = toks[i]
        if _fits(prev, tok, start):
            j, last = i + 1, tok
            while j < len(toks) and _fits(last, toks[j], inside):
                last, j = toks[j], j + 1
            if j == len(toks):  # seqeval's _forward when no token stops the chunk
                j = len(toks) - 2
            if _fits(toks[j - 1], toks[j], end):
                out.append((i, j, tok[1]))
            i = j
        else:
            i += 1
        prev = toks[i - 1]
    return out


def _lenient(sentence: Sequence[str]) -> list[Entity]:
    out: list[Entity] = []
    prev_tag, prev_type, begin = "O", "", 0
    for i, chunk in enumerate([*sentence, "O"]):
        tag, type_ = _lenient_token(chunk)
        if _chunk_end(prev_tag, tag, prev_type, type_):
            out.append((begin, i, prev_type))
        if _chunk_start(prev_tag, tag, prev_type, type_):
            begin = i
        prev_tag, prev_type = tag, type_
    return out


def _lenient_token(chunk: str) -> Token:
    if not isinstance(chunk, str) or not (
        chunk in ("O", "B", "I", "E", "S") or chunk[:2] in ("B-", "I-", "E-", "S-")
    ):
        raise DataError(
            f"tag {chunk!r} is not an entity tag: expected O or a prefix B-, I-, E- or S- "
            "followed by the type (as in B-PER)."
        )
    return chunk[0], chunk[1:].split("-", maxsplit=1)[-1] or "_"


def _chunk_end(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    if prev_tag in ("E", "S"):
        return True
    if prev_tag in ("B", "I") and tag in ("B", "S", "O"):
        return True
    return prev_tag not in ("O", ".") and prev_type != type_


def _chunk_start(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    if tag in ("B", "S"):
        return True
    if tag in ("E", "I") and prev_tag in ("E", "S", "O"):
        return True
    return tag not in ("O", ".") and prev_type != type_
