"""The reading machinery behind :func:`accord.read`: detection, options, audits."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from accord.data import _validation as v
from accord.data._lookalike import look_alike_caveat
from accord.data._validation import check_kinds
from accord.data.annotations import LEVELS, RATER_KINDS, Annotations
from accord.errors import AccordError, FormatError, InvalidParameterError
from accord.readers._base import Collected, Reader, format_error, iter_jsonl, load_json
from accord.readers._empty import check_empty_label, with_empty_set
from accord.readers._inputs import first_invalid_utf8, on_copies, prepared
from accord.readers._sniff import SNIFF

#: (name, module, attribute), in the order detection prefers them on a tie.
_REGISTRY: tuple[tuple[str, str, str], ...] = (
    ("label_studio_boxes", "_shape_read", "LABEL_STUDIO_BOXES"),
    ("label_studio", "label_studio", "LABEL_STUDIO"),
    ("label_studio_csv", "label_studio", "LABEL_STUDIO_CSV"),
    ("prodigy", "prodigy", "PRODIGY"),
    ("doccano", "doccano", "DOCCANO"),
    ("brat", "brat", "BRAT"),
    ("inception", "inception", "INCEPTION"),
    ("mturk", "mturk", "MTURK"),
    ("sagemaker", "sagemaker", "SAGEMAKER"),
    ("argilla", "argilla", "ARGILLA"),
    ("coco", "_shape_read", "COCO"),
    ("cvat", "_shape_read", "CVAT"),
    ("yolo", "yolo", "YOLO"),
    ("conll", "conll", "CONLL"),
    ("csv", "csv", "CSV"),
    ("parquet", "parquet", "PARQUET"),
    ("jsonl", "jsonl", "JSONL"),
)
_TABLES = ("csv", "parquet", "jsonl")
#: Errors of a structure no reader rule foresaw; ``read`` turns them into a FormatError.
UNEXPECTED = (
    TypeError,
    KeyError,
    AttributeError,
    IndexError,
    ValueError,
    RecursionError,
    OverflowError,
    UnicodeError,
    ZeroDivisionError,
)
UNEXPECTED_NOTE = "unexpected structure"
_COMMON = (
    "field",
    "unit",
    "rater",
    "value",
    "raters",
    "categories",
    "level",
    "missing",
    "duplicates",
    "include_kinds",
    "kinds",
)
_HEAD_BYTES = 65536


def _reader(name: str) -> Reader:
    for reg_name, module, attr in _REGISTRY:
        if reg_name == name:
            reader: Reader = getattr(import_module(f"accord.readers.{module}"), attr)
            return reader
    raise v.fail("format", "accord.read", f"one of {sorted(formats())!r}", name)


def formats() -> dict[str, str]:
    """The readers, name to a one-line description.

    Examples
    --------
    >>> "csv" in formats() and "parquet" in formats()
    True
    """
    return {name: _reader(name).description for name, _, _ in _REGISTRY}


def detect(path: str | os.PathLike[str]) -> str:
    """The name of the reader that fits ``path`` best (content first, then name).

    Raises FormatError when no reader recognises the file.
    """
    p = Path(path)
    with prepared([p]) as prep:
        if prep.names:
            found: str = on_copies(prep, lambda ps: detect(ps[0]))
            return found
    head = _head(p)
    # The checks alone, so that only the reader that fits is imported (by ``read``).
    scores = [(SNIFF[name](p, head), -i, name) for i, (name, _, _) in enumerate(_REGISTRY)]
    best, _, name = max(scores)
    if best <= 0:
        from accord.readers._many import refuse_cvat

        refuse_cvat(p, head)
        _raise_if_bad_json(p, head)
        raise format_error(
            p,
            None,
            "not a layout accord knows; expected one of "
            f"{', '.join(n for n, _, _ in _REGISTRY)} (choose one with format=...).",
        )
    return name


def _raise_if_bad_json(p: Path, head: bytes) -> None:
    """A file that looks like JSON but no reader knows: name its syntax error, if any."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if p.suffix.lower() not in {".json", ".jsonl", ".ndjson"} and start not in (b"{", b"["):
        return
    if p.suffix.lower() == ".json" or start == b"[":
        load_json(p)
    else:
        for _ in iter_jsonl(p):
            pass


def _head(p: Path) -> bytes:
    if not p.exists():
        raise format_error(p, None, "no such file or directory")
    if p.is_dir():
        return b""
    try:
        with open(p, "rb") as fh:
            return fh.read(_HEAD_BYTES)
    except OSError as exc:
        raise format_error(p, None, f"cannot be read ({exc.strerror or exc})") from None


def read(
    path_or_paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    format: str | None = None,
    field: str | None = None,
    unit: str | None = None,
    rater: str | None = None,
    value: str | None = None,
    raters: Sequence[str] | None = None,
    categories: Sequence[Any] | None = None,
    level: str | None = None,
    missing: Sequence[Any] = (),
    duplicates: str = "error",
    include_kinds: Sequence[str] | None = None,
    multilabel: bool = False,
    label_separator: str | None = None,
    empty_label: str | None = None,
    **options: Any,
) -> Annotations:
    """Read an annotation export or a table into :class:`~accord.data.annotations.Annotations`.

    Parameters
    ----------
    path_or_paths : path or sequence of paths
        A file, a directory (brat: one folder per annotator; INCEpTION project
        export), or several files read together (e.g. the per-user JSONL files
        of a doccano export, or MTurk batch results files). A folder that no
        reader takes as a whole is read as its files, which, like several files
        given together, must be of one format (names starting with ``.`` or ``_``,
        such as Spark's ``_SUCCESS``, are not read). Each file gets its own entry in
        ``audit.parts``.
    format : str, optional
        A reader name from :func:`formats`; default: detected from content and name.
    field : str, optional
        The question / control tag / layer to read when an export has several
        (Label Studio ``from_name``, Argilla question, Prodigy label, ...). When
        there are several and none is chosen, a FormatError lists them.
    unit, rater, value : str, optional
        Tables in long form: the unit id, rater and label columns. When none is
        given, common names are tried (``item``/``item_id``/``unit``/``doc_id``/``id``;
        ``annotator``/``rater``/``coder``/``worker``/``user``;
        ``label``/``value``/``rating``/``answer``) and the audit says which were taken.
    raters : sequence of str, optional
        Tables in wide form: the rater columns. Default: every column except a
        detected id column, columns named like text or metadata (``text``,
        ``comment``, ``rationale``, ``*_text``, ...) and columns of free text
        (long, nearly all distinct values, e.g. a question or a model's
        response); the audit lists them, and ``audit.caveats`` states that the
        layout was guessed. A table read this way that looks long (a column
        named like rater ids, or unit ids repeating over rows) is refused.
    categories, level
        Declare the category order and level of measurement.
    missing : sequence, optional
        Extra missing-value markers; ``""``, ``NA``, ``N/A``, ``NaN``, ``null``,
        ``.``, ``-`` and blank cells are always missing, never categories.
    duplicates : {"error", "last"}
        Tables: a rater who rated a unit twice with different labels raises, or
        the last row (by ``timestamp=`` column if given) is kept. Tool exports
        always keep the latest answer by the tool's own timestamp and name the
        pairs in ``audit.notes``.
    include_kinds : sequence of {"human", "model", "llm", "gold"}, optional
        Rater kinds to keep. Default: all (Label Studio ``ground_truth`` and
        INCEpTION curation are ``"gold"``, predictions and suggestions
        ``"model"``); ``Annotations.humans()`` selects the humans afterwards.
    multilabel : bool
        Long tables: the raters gave every label that applies, one row per label;
        the rows of one (unit, rater) are one rating, the set of their labels
        (see :meth:`Annotations.from_long`). For a tool export it marks every answer
        a set of labels (multi-choice answers already are; a single choice becomes a
        one-label set).
    label_separator : str, optional
        A label cell holds several labels joined by this string (``"toxic;spam"``):
        each becomes the set of its labels. (For CSV tables ``separator=`` is the
        field delimiter, not this.)
    empty_label : str, optional
        The label that means "no label applies": the ratings are read as label sets
        and this one is the empty set. ``""`` makes an empty cell of a table the empty
        set (by default it is a missing rating; other missing markers, ``NA``,
        ``null``, ..., stay missing). ``audit.caveats`` says how many were so read.
    **options
        Reader options: ``kinds={rater: kind}`` for any reader; for tables
        ``separator=``, ``timestamp=`` (a column ordering repeated answers) and
        ``start=``/``end=`` (span tables, where a row with both empty means
        "annotated, no span"); ``fields=`` (Label Studio JSON_MIN/CSV),
        ``empty=``/``offsets=`` (doccano), ``annotators=`` (brat), ``sizes=`` (YOLO: each
        image's width and height, for boxes in pixels), ``shapes=`` (COCO, CVAT,
        Label Studio: ``"boxes"``, ``"polygons"`` or ``"keypoints"``, the shape to read
        from an export that holds several), ``names=`` (keypoints of a table, CVAT or
        Label Studio: their names in order); see each reader's module.

    Returns
    -------
    Annotations
        Possibly with a single rater (so it can be inspected); call
        ``require_pairable()`` before computing agreement. Span exports also
        fill ``Annotations.spans`` (a :class:`~accord.readers.spans.SpanTable`); image
        exports (COCO, CVAT, Label Studio, YOLO) and tables of shapes hold no labels and
        put their shapes in ``Annotations.meta["boxes"]`` (a
        :class:`~accord.readers.boxes.BoxTable`, what ``accord.box_agreement`` takes),
        ``meta["polygons"]`` (what ``accord.polygon_agreement`` takes) or
        ``meta["keypoints"]`` (what ``accord.keypoint_agreement`` takes), what they
        skipped in ``audit.dropped``, shapes clipped to the image in ``audit.notes``. An
        export holding several shapes is read as the one ``shapes=`` names; without it a
        COCO file is read as its keypoints, else its polygons, else its boxes (its
        ``bbox`` is the box of the same object), and a caveat names the others; a CVAT
        or Label Studio export whose regions are of several shapes is refused with a
        sentence naming them (see :mod:`accord.readers._shape_read`).

    Raises
    ------
    FormatError
        The file is malformed or of an unknown layout (one sentence naming the
        file, the line or field, and what was expected), or a field must be chosen.
    DataError
        The table lacks a named column, looks long while no long columns were
        found, takes free text as its labels, holds conflicting duplicates (the
        message counts them and names the route for span tables, label sets and
        pairwise comparisons), or writes one id as an integer and as a decimal
        (``7`` and ``7.0``). Integer ids mixed with other text ids are kept and
        stated in ``audit.caveats``.

    Notes
    -----
    What had to be guessed (the layout, the columns, a level for many numeric
    values, label sets read as categories) or was dropped by ``duplicates="last"``
    is in ``audit.caveats``, which every output of accord states first.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pilot.csv"
    >>> _ = path.write_text("item,ann,bob\\n007,pos,pos\\n008,neg,NA\\n")
    >>> ann = read(path)
    >>> ann.units, ann.raters, ann.categories
    (('007', '008'), ('ann', 'bob'), ('neg', 'pos'))
    >>> ann.audit.dropped
    {'missing value': 1}
    """
    func = "accord.read"
    for param, given in (("raters", raters), ("categories", categories),
                         ("missing", missing), ("include_kinds", include_kinds)):
        if given is not None:
            v.names(given, param=param, func=func)
    paths = _paths(path_or_paths)
    with prepared(paths) as prep:
        if prep.names:  # read the decoded copies; name the originals
            args: dict[str, Any] = dict(
                format=format, field=field, unit=unit, rater=rater, value=value,
                raters=raters, categories=categories, level=level, missing=missing,
                duplicates=duplicates, include_kinds=include_kinds,
                multilabel=multilabel, label_separator=label_separator,
                empty_label=empty_label, **options)
            out: Annotations = on_copies(prep, lambda ps: read(ps, **args))
            return out
    if level is not None:
        v.choice(level, LEVELS, param="level", func=func)
    v.choice(duplicates, ("error", "last"), param="duplicates", func=func)
    paths, name = resolve(path_or_paths, format)
    reader = _reader(name)
    _check_options(reader, name, options, field)
    opts: dict[str, Any] = dict(
        options,
        field=field,
        unit=unit,
        rater=rater,
        value=value,
        raters=list(raters) if raters is not None else None,
        categories=categories,
        level=level,
        missing=tuple(missing),
        duplicates=duplicates,
        include_kinds=include_kinds,
        multilabel=bool(multilabel),
    )
    check_kinds(options.get("kinds"), None, func=func)
    check_empty_label(empty_label, func)
    if empty_label is not None and not empty_label.strip():
        opts["keep_blank"] = True  # a blank cell is a rating: the empty set
    if label_separator is not None and (not isinstance(label_separator, str)
                                        or not label_separator):
        raise v.fail("label_separator", func, "a non-empty string such as ';'", label_separator)
    ann = _read_with(reader, name, paths, opts)
    look_alike = look_alike_caveat(ann.categories)  # every reader's labels, said once
    if look_alike:
        ann.audit = ann.audit.with_caveats(*look_alike)
    if raters is not None and ann.raters != tuple(raters) and set(raters) <= set(ann.raters):
        ann = ann.select(list(raters))  # a long table whose raters were named
    if include_kinds is None:
        check_kinds(options.get("kinds"), ann.raters, func=func)
    if label_separator is not None or multilabel:  # also an export whose answers were
        ann = ann.as_sets(label_separator)          # all single choices
    if empty_label is not None:
        ann = with_empty_set(ann, empty_label)
    return ann


def _check_options(reader: Any, name: str, options: dict[str, Any], field: str | None) -> None:
    for key in options:
        if key not in reader.options and key != "kinds":
            allowed = ", ".join(repr(o) for o in (*reader.options, "kinds"))
            raise InvalidParameterError(
                f"accord.read got an unknown option {key!r} for the {name!r} reader; "
                f"its options are {allowed}."
            )
    if name in _TABLES and field is not None:
        raise FormatError(
            f"field= selects a question in a tool export; for a {name} table "
            "name the label column with value=... instead."
        )


def _read_with(reader: Any, name: str, paths: list[Path], opts: dict[str, Any]) -> Annotations:
    """The reader's annotations; any failure is one sentence naming the file."""
    try:
        return _complete(reader.read(paths, opts), opts, paths)
    except FormatError as exc:
        utf8 = "utf-8" in str(exc).lower() or "utf8" in str(exc).lower()
        bad_text = next((m for p in paths if utf8 and (m := first_invalid_utf8(p))), None)
        if bad_text is None:
            raise
        raise FormatError(bad_text) from None
    except AccordError:
        raise
    except UNEXPECTED as exc:  # a layout no reader rule foresaw: still one sentence
        raise format_error(
            paths[0], None, f"could not be read as a {name!r} export ({_problem(exc)})"
        ) from None


def _problem(exc: Exception) -> str:
    """What in the data raised ``exc``, in the data's words rather than Python's."""
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    if isinstance(exc, RecursionError):
        return ("a value is nested too deeply: lists or objects hundreds of levels deep "
                "cannot be a label")
    if isinstance(exc, UnicodeError) and "surrogate" in first:
        return ("a text holds a lone surrogate escape (such as \\ud800), which is not a "
                "character; expected text that UTF-8 can hold")
    if isinstance(exc, OverflowError) or "Int128" in first or "out of range" in first:
        return ("a number is too large for a 64-bit integer; write long ids as text, in "
                "quotes")
    kind = {KeyError: "a key is missing", IndexError: "a list is shorter than the layout needs",
            ZeroDivisionError: "a count is 0 where the layout divides by it"}.get(type(exc))
    return f"{UNEXPECTED_NOTE}: {kind or 'a value the layout does not allow'}: {first}"


def scan(
    path_or_paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    format: str | None = None,
    **options: Any,
) -> Collected | Annotations:
    """What a reader found before a field is chosen (used by ``accord inspect``).

    Tool exports give a :class:`~accord.readers._base.Collected` with every
    field; tables give their Annotations.
    """
    paths = _paths(path_or_paths)
    with prepared(paths) as prep:
        if prep.names:
            out: Collected | Annotations = on_copies(
                prep, lambda ps: scan(ps, format=format, **options))
            return out
    paths, name = resolve(path_or_paths, format)
    opts = dict(options)
    opts.setdefault("missing", ())
    opts.setdefault("duplicates", "error")
    result: Collected | Annotations = _reader(name).read(paths, opts)
    return result


def resolve(path_or_paths: Any, format: str | None = None) -> tuple[list[Path], str]:
    """The files to read and the reader: a folder no reader takes as a whole is read as
    its files, which (like several files given together) must be of one format."""
    from accord.readers._many import resolve as resolve_many

    known = [n for n, _, _ in _REGISTRY]
    return resolve_many(_paths(path_or_paths), format, detect, known)


def _paths(path_or_paths: Any) -> list[Path]:
    if isinstance(path_or_paths, (str, os.PathLike)):
        items = [path_or_paths]
    elif isinstance(path_or_paths, Sequence) and path_or_paths:
        items = list(path_or_paths)
    else:
        raise v.fail(
            "path_or_paths", "accord.read", "a path or a non-empty list of paths", path_or_paths
        )
    out = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise v.fail("path_or_paths", "accord.read", "a path or a list of paths", item)
        p = Path(item)
        if not p.exists():
            raise format_error(p, None, "no such file or directory")
        out.append(p)
    return out


def _complete(
    result: Collected | Annotations, opts: dict[str, Any], paths: list[Path]
) -> Annotations:
    source = str(paths[0]) if len(paths) == 1 else f"{len(paths)} files"
    if len(paths) > 1 and len({p.parent for p in paths}) == 1:
        source += f" in {paths[0].parent}"
    if isinstance(result, Collected):  # a tool export's judgments (tables are read whole)
        from accord.readers._finish import finish

        return finish(result, opts, source)
    kinds = opts.get("kinds") or {}
    result.kinds.update({str(k): str(x) for k, x in kinds.items() if str(k) in result.kinds})
    include = opts.get("include_kinds")
    if include is not None:
        chosen = {include} if isinstance(include, str) else set(include)
        unknown = chosen - set(RATER_KINDS)
        if unknown:
            raise FormatError(
                f"include_kinds must name kinds among {list(RATER_KINDS)!r}; "
                f"got {sorted(unknown)!r}."
            )
        result = result.select([r for r in result.raters if result.kinds[r] in chosen])
    return result
