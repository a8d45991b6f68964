"""CoNLL-style column files: a token per line, then one tag column per annotator or system.

Sources: the CoNLL-2002/2003 shared task data layout (Tjong Kim Sang & De
Meulder 2003: "each line contains four fields: the word, its part-of-speech
tag, its chunk tag and its named entity tag"; blank lines between sentences;
``-DOCSTART-`` lines between documents) and the ``conlleval`` convention of
system output as extra columns.

* columns are separated by tabs or runs of spaces; the first is the token;
  ``columns=[...]`` names the others in order (default ``tags1``, ``tags2``,
  ...); every named column is a rater, or only those in ``raters=[...]``;
* unit = one sentence, ``"<document>/<sentence>"`` numbered from 1 (document 1
  before any ``-DOCSTART-``); offsets are token positions in the sentence (end
  exclusive), so every unit is annotated by every column, possibly with no span;
* the entities of each column are found as seqeval finds them:
  ``scheme=None`` (default) is conlleval's lenient reading, ``scheme="IOB2"``
  (or IOB1, IOE1, IOE2, IOBES, BILOU) seqeval's strict mode;
* ``Annotations.meta["tokens"]`` holds each sentence's token count, the declared
  tokenisation :func:`accord.token_agreement` uses when no ``tokens=`` is given;
* several files (e.g. ``gold.conll`` and ``system.conll``) are read side by side:
  their raters are named ``<file stem>`` (one tag column) or
  ``<file stem>:<column>``, and their sentences must hold the same tokens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.data import _validation as v
from accord.readers import _sniff
from accord.readers._base import Collected, Reader, format_error, read_text
from accord.readers.spans import Span
from accord.readers.tags import SCHEMES, entities

FIELD = "entities"

Sentence = tuple[int, list[str], list[list[str]]]  # first line number, tokens, tag columns


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Entity spans per tag column of CoNLL files."""
    scheme = opts.get("scheme")
    if scheme is not None:
        v.choice(scheme, SCHEMES, param="scheme", func="accord.read")
    col = Collected("conll")
    col.fields_seen[FIELD] = None
    col.span_fields.add(FIELD)
    tokens: dict[str, list[str]] = {}
    for path in paths:
        _file(col, path, opts, scheme, tokens, several=len(paths) > 1)
    col.notes.append(
        "offsets are token positions in each sentence; entities read "
        + ("leniently (conlleval)" if scheme is None else f"with the {scheme} scheme (strict)")
    )
    return col


def _file(
    col: Collected,
    path: Path,
    opts: dict[str, Any],
    scheme: str | None,
    tokens: dict[str, list[str]],
    *,
    several: bool,
) -> None:
    part = col.part(str(path))
    sentences = _sentences(path)
    width = _width(path, sentences)
    names = _names(path, opts.get("columns"), width)
    keep = _chosen(names, opts.get("raters"), path)
    raters = {i: _rater(path, n, width, several) for i, n in enumerate(names) if n in keep}
    for doc, sent, (lineno, toks, tags) in sentences:
        unit = f"{doc}/{sent}"
        _same_tokens(path, lineno, unit, toks, tokens)
        col.meta.setdefault("tokens", {})[unit] = len(toks)
        col.parts[part].rows_read += len(toks)
        for i, rater in raters.items():
            col.cover(unit, rater, FIELD, "annotated")
            found = _entities(path, lineno, tags[i], scheme)
            col.add_spans(
                [Span(unit, rater, s, e, lab, field=FIELD, text=" ".join(toks[s:e]))
                 for s, e, lab in found],
                origin=(part << 32) + lineno,
            )  # fmt: skip
    left = [n for n in names if n not in keep]
    if left:
        col.notes.append(f"{path.name}: columns not read as raters: {left!r}")


def _sentences(path: Path) -> list[tuple[int, int, Sentence]]:
    out: list[tuple[int, int, Sentence]] = []
    rows: list[list[str]] = []
    doc, sent, first = 1, 0, 0
    started, width = False, 0

    def flush() -> None:
        nonlocal sent, rows
        if rows:
            sent += 1
            out.append((doc, sent, (first, [r[0] for r in rows], _transpose(rows))))
        rows = []

    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        cells = line.split()
        if not cells:
            flush()
        elif cells[0] == "-DOCSTART-":
            flush()
            if started or out:
                doc += 1
            sent, started = 0, True
        else:
            if not rows:
                first = lineno
            width = width or len(cells)
            if len(cells) != width:
                raise format_error(
                    path, f"line {lineno}",
                    f"expected the token and {width - 1} tag column(s), as on the first line; "
                    f"got {len(cells)} column(s)",
                )  # fmt: skip
            rows.append(cells)
    flush()
    return out


def _transpose(rows: list[list[str]]) -> list[list[str]]:
    return [list(c) for c in zip(*(r[1:] for r in rows))]


def _width(path: Path, sentences: list[tuple[int, int, Sentence]]) -> int:
    if not sentences:
        raise format_error(path, None, "expected token lines (a token, then tag columns)")
    width = len(sentences[0][2][2])
    if width == 0:
        raise format_error(path, None, "expected a tag column after the token")
    return width


def _names(path: Path, columns: Any, width: int) -> list[str]:
    if columns is None:
        return [f"tags{i + 1}" for i in range(width)]
    names = [str(c) for c in v.names(columns, param="columns", func="accord.read")]
    if len(names) != width:
        raise format_error(
            path,
            None,
            f"columns= names {len(names)} column(s), the file has {width} after the token",
        )
    return names


def _chosen(names: list[str], raters: Any, path: Path) -> list[str]:
    if raters is None:
        return names
    unknown = [r for r in raters if r not in names]
    if unknown:
        raise format_error(path, None, f"raters= names {unknown!r}; the columns are {names!r}")
    return [n for n in names if n in raters]


def _rater(path: Path, name: str, width: int, several: bool) -> str:
    if not several:
        return name
    return path.stem if width == 1 else f"{path.stem}:{name}"


def _same_tokens(
    path: Path, lineno: int, unit: str, toks: list[str], seen: dict[str, list[str]]
) -> None:
    if seen.setdefault(unit, toks) != toks:
        raise format_error(
            path,
            f"line {lineno}",
            f"sentence {unit} holds other tokens than in the first file; "
            "files read together must hold the same sentences",
        )


def _entities(path: Path, lineno: int, tags: list[str], scheme: str | None) -> list[Any]:
    from accord.errors import DataError

    try:
        return entities(tags, scheme)
    except DataError as exc:
        raise format_error(path, f"sentence at line {lineno}", str(exc).rstrip(".")) from None


CONLL = Reader(
    "conll",
    "CoNLL column files: a token per line, one tag column per annotator or system (spans)",
    _sniff.conll,
    read,
    ("columns", "scheme"),
)
