"""Options shared by every command that reads DATA, and the loading they drive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import click
from rich.console import Console

from accord.annotations import LEVELS, RATER_KINDS, Annotations

F = TypeVar("F", bound=Callable[..., Any])


def console(*, stderr: bool = False) -> Console:
    """The terminal every command prints to.

    Lines of text are never hard-wrapped (``soft_wrap``): a path, an audit line or a
    note stays on one line whatever the terminal width, so piped output can be read
    with grep; tables still fit the width.
    """
    return Console(stderr=stderr, soft_wrap=True)


def data_options(func: F) -> F:
    """DATA plus the one vocabulary for selecting data (see ARCHITECTURE.md)."""
    options = [
        click.argument("data", type=click.Path(exists=True, dir_okay=True, path_type=str)),
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
            help="Extra markers of a missing rating (always: empty, NA, NaN, null, '.', '-').",
        ),
        click.option(
            "--duplicates",
            type=click.Choice(["error", "last"]),
            default="error",
            show_default=True,
            help="A rater who rated a unit twice with different labels: stop, or keep the last.",
        ),
        click.option(
            "--kinds",
            multiple=True,
            type=click.Choice(RATER_KINDS),
            default=("human",),
            show_default=True,
            metavar="KIND...",
            help="Kinds of rater to compare when --raters is not given: human, model, llm, "
            "gold (reference answers). Model and gold raters are left out by default.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def load(
    data: str,
    *,
    kinds: tuple[str, ...] = ("human",),
    select_raters: bool = True,
    **selection: Any,
) -> Annotations:
    """Read DATA with the shared options (``selection``, see :func:`read_options`).

    With ``select_raters``, keep only ``--raters``, or, when none are named, only
    raters of the ``--kinds`` asked for (human by default), saying in the audit
    which raters were left out.
    """
    from accord.readers import read

    ann = read(data, **read_options(**selection))
    if not select_raters:
        return ann
    raters = tuple(selection.get("raters") or ())
    if raters:
        return ann if ann.raters == raters else ann.select(list(raters))
    return _only_kinds(ann, kinds)


def _only_kinds(ann: Annotations, kinds: tuple[str, ...]) -> Annotations:
    left_out = [r for r in ann.raters if ann.kinds.get(r, "human") not in kinds]
    if not left_out:
        return ann
    kept = ann.select([r for r in ann.raters if r not in left_out])
    named = ", ".join(f"{r!r} ({ann.kinds[r]})" for r in left_out)
    note = f"left out raters {named}: pass --kinds or --raters to include them"
    kept.audit = replace(kept.audit, notes=(*kept.audit.notes, note))
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
) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.read` for the shared data options.

    With long data (``--unit/--rater/--value``) ``--raters`` selects raters after
    reading instead of naming columns. ``kinds`` selects raters after reading and
    is not an option of ``read``. Declared categories are passed as typed; the
    readers match ``"1"`` to a numeric label 1.
    """
    long_form = any(x is not None for x in (unit, rater, value))
    return {
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
            "--n-resamples", default=9999, show_default=True, type=int, help="Bootstrap resamples."
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
    from accord import _validation as v
    from accord.coefficients.intraclass import form_of
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
            raise click.BadParameter(str(exc), param_hint=hint) from None
