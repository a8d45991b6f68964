"""Options shared by every command that reads DATA, and the loading they drive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from rich.console import Console

    from accord.data.annotations import Annotations

F = TypeVar("F", bound=Callable[..., Any])


def console(*, stderr: bool = False) -> Console:
    """The terminal every command prints to.

    Lines of text are never hard-wrapped (``soft_wrap``): a path, an audit line or a
    note stays on one line whatever the terminal width, so piped output can be read
    with grep; tables still fit the width. Control characters in the text (an
    escape sequence in a label) are spelled out, never sent to the terminal, and a
    ``:name:`` in a text stays as written (rich would draw it as an emoji, and loads
    its emoji table to look).
    """
    from accord.cli._safe_console import SafeConsole

    return SafeConsole(stderr=stderr, soft_wrap=True, emoji=False)


class DataPaths(str):
    """DATA as given: the text of its path(s), for messages, and ``paths``, for reading."""

    paths: tuple[str, ...]

    def __new__(cls, paths: tuple[str, ...]) -> DataPaths:
        out = super().__new__(cls, paths[0] if len(paths) == 1 else ", ".join(paths))
        out.paths = paths
        return out


def _data_paths(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> DataPaths:
    return DataPaths(tuple(value))


def data_options(func: F) -> F:
    """DATA (one or more files, or a folder of one tool's batches) plus the one vocabulary
    for selecting data (the "data" group of :data:`accord.cli._options.OPTIONS`)."""
    from accord.cli._options import OPTIONS

    options = [
        click.argument("data", nargs=-1, required=True, callback=_data_paths,
                       type=click.Path(exists=True, dir_okay=True, path_type=str)),
        *(o.option() for o in OPTIONS.values() if o.group == "data"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def load(
    data: str,
    *,
    kinds: tuple[str, ...] = ("human",),
    select_raters: bool = True,
    span_columns: dict[str, Any] | None = None,
    level_caveat: bool = False,
    empty_label: str | None = None,
    **selection: Any,
) -> Annotations:
    """Read DATA with the shared options (``selection``, see :func:`read_options`).

    With ``select_raters``, keep only ``--raters``, or, when none are named, only
    raters of the ``--kinds`` asked for (human by default), saying in the audit
    which raters were left out. ``span_columns`` (``start``, ``end``) read a span table.
    With ``level_caveat`` (a command whose coefficients depend on the level), integer
    labels that look like a scale, read as nominal because no level was given, are
    said as a caveat (:func:`accord.interpret.levels.ordered_look`). ``empty_label``
    (``--empty-label``) is the label, or ``""`` the empty cell, read as the empty set.
    """
    from accord.readers import read

    extra = {**(span_columns or {}), **({} if empty_label is None else
                                        {"empty_label": empty_label})}
    ann = read(paths_of(data), **read_options(**selection), **extra)
    hint = None if ann.set_valued else separator_hint(ann.categories)
    if hint is not None:
        ann.audit = ann.audit.with_caveats(hint)
    if level_caveat and not ann.set_valued:
        from accord.interpret.levels import ordered_look

        note = ordered_look(ann.categories, ann.level)
        if note is not None:
            ann.audit = ann.audit.with_caveats(note)
    if ann.audit.caveats:  # stated on the first lines of every output: in the CLI's words
        from accord.cli._errors import cli_text

        ann.audit = replace(ann.audit, caveats=tuple(cli_text(c) for c in ann.audit.caveats))
    if not select_raters:
        return ann
    raters = tuple(selection.get("raters") or ())
    if raters:
        return ann if ann.raters == raters else _only_raters(ann, raters)
    return _only_kinds(ann, kinds)


def _only_raters(ann: Annotations, raters: tuple[str, ...]) -> Annotations:
    """``--raters`` on long data; units rated only by the others are said, not dropped
    silently."""
    kept = ann.select(list(raters))
    lost = ann.n_units - kept.n_units
    if lost:
        others = [r for r in ann.raters if r not in raters]
        note = (f"{lost} unit(s) were rated only by raters not selected "
                f"({', '.join(map(repr, others[:5]))}{' and more' if len(others) > 5 else ''});"
                " left out")
        kept.audit = replace(kept.audit, notes=(*kept.audit.notes, note)).with_caveats(note)
    return kept


#: Characters that join several labels in one cell, in the order they are hinted at.
SEPARATORS = (";", "|", ",")


def separator_hint(categories: tuple[Any, ...]) -> str | None:
    """When every label (two or more distinct ones) holds the same separator, a hint that
    the cells may be label sets: ``pass --separator ';'``; else None."""
    texts = [c for c in categories if isinstance(c, str)]
    if len(texts) < 2 or len(texts) != len(categories):
        return None
    for sep in SEPARATORS:
        if all(sep in t for t in texts):
            example = next(t for t in texts if t.strip(sep))
            return (f"every label holds {sep!r} (e.g. {example!r}), read as one label: if a "
                    f"cell is a set of labels, pass --separator '{sep}' (accord multilabel)")
    return None


def single_labels(ann: Annotations, command: str) -> Annotations:
    """Refuse set-valued ratings in a command that needs one label per rating."""
    if ann.set_valued:
        from accord.errors import DataError

        source = f"{ann.audit.source}: " if ann.audit.source else ""
        raise DataError(
            f"{source}these ratings are sets of labels, and `accord {command}` needs one label "
            "per rating: run `accord multilabel` on the same data and options instead."
        )
    return ann


def paths_of(data: str) -> str | list[str]:
    """What :func:`accord.read` takes for DATA: one path, or the list of them."""
    paths = getattr(data, "paths", (data,))
    return paths[0] if len(paths) == 1 else list(paths)


def _only_kinds(ann: Annotations, kinds: tuple[str, ...]) -> Annotations:
    left_out = [r for r in ann.raters if ann.kinds.get(r, "human") not in kinds]
    if not left_out:
        return ann
    kept = ann.select([r for r in ann.raters if r not in left_out])
    named = ", ".join(f"{r!r} ({ann.kinds[r]})" for r in left_out)
    note = f"left out raters {named}: pass --kinds or --raters to include them"
    kept.audit = replace(kept.audit, notes=(*kept.audit.notes, note)).with_caveats(note)
    return kept


def read_options(
    *,
    fmt: str | None = None,
    field: str | None = None,
    unit: str | None = None,
    rater: str | None = None,
    value: str | None = None,
    raters: tuple[str, ...] = (),
    categories: tuple[str, ...] = (),
    level: str | None = None,
    missing: tuple[str, ...] = (),
    duplicates: str = "error",
    kinds: tuple[str, ...] = (),
    rater_kinds: tuple[tuple[str, str], ...] = (),
    multilabel: bool = False,
    label_separator: str | None = None,
) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.read` for the shared data options.

    With long data (``--rater``/``--value``, or ``--unit`` alone) ``--raters`` selects
    raters after reading instead of naming columns; ``--unit COL --raters A B`` is a wide
    table, its unit ids in COL and its raters A and B, as ``accord.read(unit=, raters=)``
    reads it. ``kinds`` selects raters after reading and is not an option of ``read``;
    ``rater_kinds`` (``--kind RATER=KIND``) becomes ``read(kinds={rater: kind})``.
    Declared categories are passed as typed; the readers match ``"1"`` to a numeric
    label 1.
    """
    long_form = rater is not None or value is not None or (unit is not None and not raters)
    extra: dict[str, Any] = {"kinds": dict(rater_kinds)} if rater_kinds else {}
    return {
        **extra,
        "format": fmt,
        "field": field,
        "unit": unit,
        "rater": rater,
        "value": value,
        "raters": list(raters) if raters and not long_form else None,
        "categories": list(categories) if categories else None,
        "level": level,
        "missing": tuple(missing),
        "duplicates": duplicates,
        "multilabel": multilabel,
        "label_separator": label_separator,
    }


def ci_options(func: F) -> F:
    """Confidence-interval options: level, method, resamples, bootstrap kind, seed."""
    from accord.cli._options import OPTIONS

    for option in reversed([o for o in OPTIONS.values() if o.group == "interval"]):
        func = option.option()(func)
    return func


def interval_method(ci_method: str, n_resamples: int, bootstrap_kind: str, seed: int | None) -> Any:
    """The ``method=`` argument of ``confidence_interval`` for the CI options."""
    if ci_method != "bootstrap":
        return ci_method
    from accord.inference import Bootstrap

    return Bootstrap(n_resamples=n_resamples, kind=bootstrap_kind, rng=seed)  # type: ignore[arg-type]


def _icc_form(form: str) -> Any:
    from accord.coefficients.intraclass import form_of  # ICC's module, only for --form

    return form_of(form)


def check_options(
    level: float, form: str | None, population_size: int | None, *, func: str
) -> None:
    """Check option values before reading DATA, so a typo is not hidden by the data."""
    from accord.data import _validation as v
    from accord.errors import InvalidParameterError

    checks: list[tuple[str, Any]] = [
        ("--confidence-level", lambda: v.confidence_level(level, func=func)),
        ("--form", lambda: form is None or _icc_form(form)),
        (
            "--population-size",
            lambda: (
                population_size is None
                or v.positive_int(population_size, param="population_size", func=func)
            ),
        ),
    ]
    for hint, check in checks:
        try:
            check()
        except InvalidParameterError as exc:
            from accord.cli._errors import cli_text

            raise click.BadParameter(cli_text(str(exc)), param_hint=hint) from None


def reference_options(func: F) -> F:
    """``--gold COL`` and ``--predicted COL...``: a system's labels against a reference."""
    from accord.cli._options import shared

    return shared("--gold", help="The reference labels: a column of wide data, or a rater "
                  "of long data or an export (default there: the rater of kind gold).")(
        shared("--predicted")(func))


def classifier_options(func: F) -> F:
    """``--average`` and ``--positive`` for precision, recall and F1."""
    from accord.cli._options import shared

    return shared("--average")(shared("--positive")(func))


def with_reference(selection: dict[str, Any], gold: str | None, predicted: tuple[str, ...],
                   humans: tuple[str, ...] = ()) -> dict[str, Any]:
    """The data options with ``--gold``/``--predicted`` (and ``--humans``) as the raters to
    read, gold first, their kinds declared (:func:`accord.cli._roles.declared`)."""
    from accord.cli._roles import declared, roles_of

    if gold is None:
        if predicted or humans:
            raise click.UsageError("--predicted and --humans need --gold: name the reference "
                                   "column.")
        return selection
    if selection.get("raters"):
        raise click.UsageError("give either --raters or --gold/--predicted, not both.")
    if not predicted:
        raise click.UsageError("--gold needs --predicted: name the system column(s).")
    roles = roles_of(selection, gold=gold, predicted=predicted, humans=humans)
    return declared(selection, roles, only_named=True)


def fits_raters(ann: Annotations, coefficients: tuple[str, ...]) -> None:
    """A named two-rater coefficient on data of another number of raters is bad usage
    (exit 2), found before any work: the data are fine, the request does not fit them.
    The span family (registered by :mod:`accord.study`) has no two-rater figure, so the
    core registry answers without importing it."""
    from accord.coefficients import REGISTRY

    two = [c for c in coefficients if c in REGISTRY and REGISTRY[c].raters == "two"
           and REGISTRY[c].family != "classification"]
    if two and ann.n_raters > 2:
        example = " ".join(str(r) for r in ann.raters[:2])
        raise click.UsageError(
            f"{two[0]} compares two raters and the data have {ann.n_raters}: name two with "
            f"--raters (e.g. --raters {example}), or choose a many-rater coefficient such as "
            "fleiss_kappa or krippendorff_alpha."
        )


def model_frame(path: str, unit: str) -> Any:
    """The model's CSV (``--model`` of consensus, annotators and report) as a frame whose
    unit column is named ``unit``: the column so named, else the one named as ``--unit``,
    else the first. Its other columns are one per label (probabilities), or exactly
    ``label`` and ``confidence`` (a top label and its confidence per unit; see
    :mod:`accord.annotators._model`)."""
    import polars as pl

    from accord.cli._terminal import one_line
    from accord.errors import DataError

    try:
        frame = pl.read_csv(path, infer_schema_length=None)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise DataError(f"--model {path}: cannot read it as a CSV ({one_line(str(exc))}).") \
            from None
    if frame.width < 2:
        raise DataError(f"--model {path}: needs a unit column and one column per label (or "
                        "the columns label and confidence).")
    if "unit" in frame.columns:
        return frame
    source = unit if unit in frame.columns else frame.columns[0]
    return frame.rename({source: "unit"})


#: What ``--model`` reads, said on the first line of the output.
_TOP_LABEL_SAID = ("a top label and its confidence c per unit, read as c on the label and "
                   "(1 - c) / (k - 1) on each of the k - 1 other categories (an assumption)")


def read_model(value: str, data: str, unit: str | None) -> tuple[Any, str]:
    """``--model FILE_OR_COLUMNS``: a CSV of probabilities or of unit, label and confidence
    (:func:`model_frame`), or two columns of DATA, ``LABEL,CONFIDENCE``, holding each
    unit's top label and confidence on its rows; and the sentence saying which was read."""
    from pathlib import Path

    from accord.annotators._model import is_top_label_frame
    from accord.errors import DataError

    if Path(value).is_file():
        frame = model_frame(value, unit or "unit")
        form = (_TOP_LABEL_SAID if is_top_label_frame(frame.columns) else
                f"class probabilities, one column per label ({frame.width - 1} columns)")
        return frame, f"model: {value} holds {form}."
    names = [x.strip() for x in value.split(",")]
    if len(names) != 2 or not all(names):
        raise DataError(f"--model {value}: no such file; to take the model from DATA's own "
                        "columns give two, its label column and its confidence column, as "
                        "--model LABEL,CONFIDENCE.")
    return _model_columns(data, unit, names[0], names[1]), (
        f"model: DATA's columns {names[0]!r} and {names[1]!r} hold {_TOP_LABEL_SAID}.")


def _model_columns(data: str, unit: str | None, label: str, confidence: str) -> Any:
    """Each unit's top label and confidence from columns of DATA (one CSV, TSV or Parquet
    file): rows whose two cells are both empty carry no model output; every other row
    of a unit must give the same label and confidence."""
    import polars as pl

    from accord.cli._terminal import one_line
    from accord.errors import DataError

    path = paths_of(data)
    if not isinstance(path, str) or not path.lower().endswith((".csv", ".tsv", ".parquet")):
        raise DataError(f"--model {label},{confidence} names columns of DATA, which must then "
                        "be one CSV, TSV or Parquet file; give the model as a file instead "
                        "(--model FILE with unit,label,confidence).")
    if unit is None:
        raise DataError(f"--model {label},{confidence} names columns of DATA: name its unit "
                        "column as --unit too.")
    try:
        frame = (pl.read_parquet(path) if path.lower().endswith(".parquet") else
                 pl.read_csv(path, infer_schema_length=None,
                             separator="\t" if path.lower().endswith(".tsv") else ","))
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise DataError(f"--model {label},{confidence}: cannot read DATA ({one_line(str(exc))})."
                        ) from None
    missing = [c for c in (unit, label, confidence) if c not in frame.columns]
    if missing:
        raise DataError(f"--model {label},{confidence}: DATA has no column "
                        f"{', '.join(repr(c) for c in missing)} (its columns: "
                        f"{', '.join(frame.columns[:8])}{', ...' if frame.width > 8 else ''}).")
    rows = frame.select(pl.col(unit).alias("unit"), pl.col(label).alias("label"),
                        pl.col(confidence).alias("confidence"))
    rows = rows.filter(pl.col("label").is_not_null() | pl.col("confidence").is_not_null())
    if rows.height == 0:
        raise DataError(f"--model {label},{confidence}: every row of DATA has both columns "
                        "empty, so the model scores no unit.")
    per_unit = rows.unique(maintain_order=True)
    twice = per_unit.filter(pl.col("unit").is_duplicated())
    if twice.height:
        u = twice["unit"][0]
        raise DataError(f"--model {label},{confidence}: the rows of unit {u!r} give different "
                        "model outputs; give each unit one label and one confidence (the same "
                        "on every row of the unit).")
    return per_unit
