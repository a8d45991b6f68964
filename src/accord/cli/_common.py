"""Options shared by every command that reads DATA, and the loading they drive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click

from accord.data._names import LEVELS, RATER_KINDS

if TYPE_CHECKING:
    from rich.console import Console

    from accord.data.annotations import Annotations

F = TypeVar("F", bound=Callable[..., Any])


def console(*, stderr: bool = False) -> Console:
    """The terminal every command prints to.

    Lines of text are never hard-wrapped (``soft_wrap``): a path, an audit line or a
    note stays on one line whatever the terminal width, so piped output can be read
    with grep; tables still fit the width. Control characters in the text (an
    escape sequence in a label) are spelled out, never sent to the terminal.
    """
    from accord.cli._safe_console import SafeConsole

    return SafeConsole(stderr=stderr, soft_wrap=True)


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
    for selecting data (see ARCHITECTURE.md)."""
    options = [
        click.argument("data", nargs=-1, required=True, callback=_data_paths,
                       type=click.Path(exists=True, dir_okay=True, path_type=str)),
        click.option(
            "--format",
            "fmt",
            default=None,
            metavar="NAME",
            help="File format (default: detected). See `accord inspect --help`.",
        ),
        click.option(
            "--field",
            default=None,
            metavar="NAME",
            help="The question / control tag to analyse, for exports with several.",
        ),
        click.option(
            "--unit", default=None, metavar="COL", help="Long data: the unit (item) id column."
        ),
        click.option("--rater", default=None, metavar="COL", help="Long data: the rater column."),
        click.option("--value", default=None, metavar="COL", help="Long data: the label column."),
        click.option(
            "--raters",
            multiple=True,
            metavar="COL...",
            help="Wide data: the rater columns (other columns are ignored); "
            "with long data or exports: the raters to compare.",
        ),
        click.option(
            "--categories",
            multiple=True,
            metavar="LABEL...",
            help="Declare the categories and their order (unused ones are kept).",
        ),
        click.option(
            "--level",
            type=click.Choice(LEVELS),
            default=None,
            help="Level of measurement of the labels.",
        ),
        click.option(
            "--missing",
            multiple=True,
            metavar="MARKER...",
            help="Extra markers of a missing rating (always: empty, NA, N/A, n/a, NaN, nan, "
            "null, NULL, '.', '-').",
        ),
        click.option(
            "--duplicates",
            type=click.Choice(["error", "last"]),
            default="error",
            show_default=True,
            help="A rater who rated a unit twice with different labels: stop, or keep the last.",
        ),
        click.option(
            "--multilabel",
            is_flag=True,
            default=False,
            help="Long data: raters gave every label that applies, one row per label; the "
            "rows of one unit and rater are one rating, the set of their labels.",
        ),
        click.option(
            "--separator",
            "label_separator",
            default=None,
            metavar="TEXT",
            help="A label cell holds several labels joined by TEXT (e.g. ';'): each cell is "
            "the set of its labels.",
        ),
        click.option(
            "--kinds",
            multiple=True,
            type=click.Choice(RATER_KINDS),
            default=("human",),
            show_default=True,
            metavar="KIND...",
            help="Kinds of rater to compare when --raters is not given: human, model, llm, "
            "gold (reference answers). Model and gold raters are left out by default. "
            "This selects raters; --kind sets a rater's kind.",
        ),
        click.option(
            "--kind",
            "rater_kinds",
            multiple=True,
            metavar="RATER=KIND",
            callback=_rater_kinds,
            help="Set the kind of a rater, e.g. --kind gpt4=llm (repeat for several); "
            "KIND is human, model, llm or gold. Then --kinds chooses which kinds to compare.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _rater_kinds(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    """``RATER=KIND`` pairs; the kind is what follows the last ``=``."""
    out = []
    for item in value:
        rater, eq, kind = item.rpartition("=")
        if not eq or not rater:
            raise click.BadParameter(f"expected RATER=KIND (e.g. gpt4=llm), got {item!r}.")
        if kind not in RATER_KINDS:
            raise click.BadParameter(
                f"the kind of {rater!r} must be one of {', '.join(RATER_KINDS)}; got {kind!r}."
            )
        out.append((rater, kind))
    return tuple(out)


def load(
    data: str,
    *,
    kinds: tuple[str, ...] = ("human",),
    select_raters: bool = True,
    span_columns: dict[str, Any] | None = None,
    level_caveat: bool = False,
    **selection: Any,
) -> Annotations:
    """Read DATA with the shared options (``selection``, see :func:`read_options`).

    With ``select_raters``, keep only ``--raters``, or, when none are named, only
    raters of the ``--kinds`` asked for (human by default), saying in the audit
    which raters were left out. ``span_columns`` (``start``, ``end``) read a span table.
    With ``level_caveat`` (a command whose coefficients depend on the level), integer
    labels that look like a scale, read as nominal because no level was given, are
    said as a caveat (:func:`accord.interpret.levels.ordered_look`).
    """
    from accord.readers import read

    ann = read(paths_of(data), **read_options(**selection), **(span_columns or {}))
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
        return ann if ann.raters == raters else ann.select(list(raters))
    return _only_kinds(ann, kinds)


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

    With long data (``--unit/--rater/--value``) ``--raters`` selects raters after
    reading instead of naming columns. ``kinds`` selects raters after reading and
    is not an option of ``read``; ``rater_kinds`` (``--kind RATER=KIND``) becomes
    ``read(kinds={rater: kind})``. Declared categories are passed as typed; the
    readers match ``"1"`` to a numeric label 1.
    """
    long_form = any(x is not None for x in (unit, rater, value))
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
    """Confidence-interval options: level and method."""
    options = [
        click.option(
            "--confidence-level",
            default=0.95,
            show_default=True,
            type=float,
            help="Nominal coverage of the confidence intervals, in (0, 1).",
        ),
        click.option(
            "--ci",
            "ci_method",
            type=click.Choice(["asymptotic", "jackknife", "bootstrap"]),
            default="asymptotic",
            show_default=True,
            help="Interval method; asymptotic uses the analytic SE (F-based for ICC).",
        ),
        click.option(
            "--n-resamples", default=9999, show_default=True,
            type=click.IntRange(1, 10_000_000), help="Bootstrap resamples (at most 10^7)."
        ),
        click.option(
            "--bootstrap-kind",
            type=click.Choice(["percentile", "bca", "basic"]),
            default="percentile",
            show_default=True,
            help="Bootstrap interval type.",
        ),
        click.option("--seed", default=None, type=int, help="Seed for a reproducible bootstrap."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def interval_method(ci_method: str, n_resamples: int, bootstrap_kind: str, seed: int | None) -> Any:
    """The ``method=`` argument of ``confidence_interval`` for the CI options."""
    if ci_method != "bootstrap":
        return ci_method
    from accord.inference import Bootstrap

    return Bootstrap(n_resamples=n_resamples, kind=bootstrap_kind, rng=seed)  # type: ignore[arg-type]


def check_options(
    level: float, form: str | None, population_size: int | None, *, func: str
) -> None:
    """Check option values before reading DATA, so a typo is not hidden by the data."""
    from accord.coefficients.intraclass import form_of
    from accord.data import _validation as v
    from accord.errors import InvalidParameterError

    checks: list[tuple[str, Any]] = [
        ("--confidence-level", lambda: v.confidence_level(level, func=func)),
        ("--form", lambda: form is None or form_of(form)),
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
    options = [
        click.option("--gold", default=None, metavar="COL",
                     help="The reference labels: a column of wide data, or a rater of long "
                     "data or an export (default there: the rater of kind gold)."),
        click.option("--predicted", multiple=True, metavar="COL...",
                     help="The system labels to set against --gold: columns or raters."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def classifier_options(func: F) -> F:
    """``--average`` and ``--positive`` for precision, recall and F1."""
    options = [
        click.option("--average", default=None,
                     type=click.Choice(["macro", "micro", "weighted", "binary"]),
                     help="Precision/recall/F1: average over classes (default macro, or "
                     "binary with --positive)."),
        click.option("--positive", default=None, metavar="LABEL",
                     help="Precision/recall/F1: the positive class of a binary task."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def with_reference(selection: dict[str, Any], gold: str | None, predicted: tuple[str, ...],
                   humans: tuple[str, ...] = ()) -> dict[str, Any]:
    """The data options with ``--gold``/``--predicted`` (and ``--humans``) as the raters to
    read, gold first."""
    if gold is None:
        if predicted or humans:
            raise click.UsageError("--predicted and --humans need --gold: name the reference "
                                   "column.")
        return selection
    if selection.get("raters"):
        raise click.UsageError("give either --raters or --gold/--predicted, not both.")
    if not predicted:
        raise click.UsageError("--gold needs --predicted: name the system column(s).")
    return {**selection, "raters": (gold, *predicted, *humans)}


def fits_raters(ann: Annotations, coefficients: tuple[str, ...]) -> None:
    """A named two-rater coefficient on data of another number of raters is bad usage
    (exit 2), found before any work: the data are fine, the request does not fit them."""
    from accord.study import REGISTRY

    two = [c for c in coefficients if c in REGISTRY and REGISTRY[c].raters == "two"
           and REGISTRY[c].family != "classification"]
    if two and ann.n_raters > 2:
        example = " ".join(str(r) for r in ann.raters[:2])
        raise click.UsageError(
            f"{two[0]} compares two raters and the data have {ann.n_raters}: name two with "
            f"--raters (e.g. --raters {example}), or choose a many-rater coefficient such as "
            "fleiss_kappa or krippendorff_alpha."
        )

