"""``--engine``, ``--scheduler``, ``--master``: DATA read and counted by DuckDB, Dask or Spark.

The engine reads the file where it runs (on a cluster, on its workers) and
:mod:`accord.engines` counts there; only the small statistic (the rater-count
patterns, or the consensus's per-iteration tables and final posteriors) comes back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from accord.cli._options import shared

F = TypeVar("F", bound=Callable[..., Any])

_TIMEOUT = "accord.engine_timeout"
#: The data options an engine takes (the others need accord's own readers).
_TAKEN = ("unit", "rater", "value", "raters", "categories", "missing")
#: The coefficients counted from the rater-count patterns an engine returns.
ENGINE_COEFFICIENTS = ("fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
                       "krippendorff_alpha")


def engine_options(func: F) -> F:
    """``--engine``, ``--scheduler``, ``--master`` and ``--timeout``; ``--timeout`` reaches
    :func:`engine_frame` through the click context, not the command's parameters."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        click.get_current_context().meta[_TIMEOUT] = kwargs.pop("engine_timeout", None)
        return func(*args, **kwargs)

    command: Any = wrapper
    for flag in ("--timeout", "--master", "--scheduler", "--engine"):
        command = shared(flag)(command)
    return command


def engine_frame(data: Any, engine: str | None, scheduler: str | None, master: str | None,
                 selection: dict[str, Any]) -> Any:
    """DATA as the engine's frame, or None without ``--engine``."""
    if engine is None:
        if click.get_current_context().meta.get(_TIMEOUT) is not None:
            raise click.UsageError("--timeout bounds the wait on a Dask or Spark cluster: "
                                   "give it with --engine dask or --engine spark.")
        if scheduler is not None or master is not None:
            flag = "--scheduler" if scheduler is not None else "--master"
            raise click.UsageError(f"{flag} is the address of a running cluster: give it "
                                   "with --engine dask (--scheduler) or --engine spark "
                                   "(--master).")
        return None
    for flag, value, wanted in (("--scheduler", scheduler, "dask"),
                                ("--master", master, "spark")):
        if value is not None and engine != wanted:
            raise click.UsageError(f"{flag} goes with --engine {wanted}, not --engine "
                                   f"{engine}.")
    paths = getattr(data, "paths", (data,))
    if len(paths) != 1:
        raise click.UsageError(f"--engine reads one file or one folder of Parquet parts; "
                               f"got {len(paths)} paths.")
    from accord.cli._options import OPTIONS

    given = [o.flag for o in OPTIONS.values() if o.group == "data" and o.dest not in _TAKEN
             and selection.get(o.dest) not in (o.default, None, (), False)]
    if given:
        raise click.UsageError(f"--engine takes the data options {', '.join(_flags())} only; "
                               f"not {', '.join(given)}.")
    timeout = click.get_current_context().meta.get(_TIMEOUT)
    if timeout is not None and engine == "duckdb":
        raise click.UsageError("--timeout bounds the wait on a Dask or Spark cluster: give "
                               "it with --engine dask or --engine spark, not duckdb.")
    from accord.engines import read
    from accord.errors import InvalidParameterError

    try:
        return read(paths[0], engine=engine,  # type: ignore[arg-type]
                    scheduler=scheduler, master=master,
                    **({} if timeout is None else {"timeout": timeout}))
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None


def _flags() -> list[str]:
    return [f"--{name}" for name in _TAKEN]


def _columns(selection: dict[str, Any]) -> dict[str, Any]:
    """The engine functions' keyword arguments from the shared data options."""
    return {"categories": list(selection.get("categories") or ()) or None,
            "missing": list(selection.get("missing") or ())}


def require_long(selection: dict[str, Any], command: str = "consensus") -> None:
    """Consensus (and annotators) on an engine take long data: refused before any engine
    is imported."""
    if not all(selection.get(c) for c in ("unit", "rater", "value")):
        raise click.UsageError(f"--engine takes long data for {command}: name the --unit, "
                               "--rater and --value columns.")


def engine_consensus(frame: Any, method: str, selection: dict[str, Any],
                     **fit: Any) -> tuple[Any, Any]:
    """The consensus and the audit, counted by the engine (long data only)."""
    require_long(selection)
    import accord.engines

    c, audit = accord.engines.consensus(
        frame, unit=selection["unit"], rater=selection["rater"], value=selection["value"],
        method=method, **_columns(selection), **fit)
    return c, audit


def engine_annotators(frame: Any, method: str, selection: dict[str, Any], data: str,
                      engine: str | None, **options: Any) -> tuple[Any, Any]:
    """The per-annotator figures counted by the engine, and an object whose ``audit``
    names the engine on its first line (long data only)."""
    from dataclasses import replace
    from types import SimpleNamespace

    import accord.engines

    q, audit = accord.engines.annotators(
        frame, unit=selection["unit"], rater=selection["rater"], value=selection["value"],
        method=method, **_columns(selection), **options)
    return q, SimpleNamespace(audit=replace(audit, source=f"{data} (counted by {engine})"))


def engine_counts(frame: Any, selection: dict[str, Any]) -> tuple[Any, Any]:
    """The rater-count patterns and the audit, counted by the engine."""
    long = [selection.get(c) for c in ("unit", "rater", "value")]
    raters = list(selection.get("raters") or ())
    if not (all(long) or (raters and not any(long))):
        raise click.UsageError("--engine needs long data (--unit, --rater and --value) or "
                               "wide data (--raters A B ...).")
    from accord.engines import rater_counts

    names = ({"unit": long[0], "rater": long[1], "value": long[2]} if all(long)
             else {"raters": raters})
    rc, audit = rater_counts(frame, **names, **_columns(selection), by_unit=False)
    return rc, audit


def engine_coefficients(rc: Any, names: tuple[str, ...]) -> list[Any]:
    """The named coefficients (default: every one counted from rater counts) on ``rc``."""
    import accord

    unknown = [n for n in names if n not in ENGINE_COEFFICIENTS]
    if unknown:
        raise click.UsageError(f"with --engine, --coefficient must be among "
                               f"{', '.join(ENGINE_COEFFICIENTS)} (computed from the rater "
                               f"counts the engine returns); got {', '.join(unknown)}.")
    return [getattr(accord, n)(rc) for n in names or ENGINE_COEFFICIENTS]


def print_engine_compute(source: str, rc: Any, audit: Any,
                         rows: list[tuple[str, str, str, str, str]], level: float) -> None:
    """The compute table of an engine's counts: what was counted, the figures, the audit."""
    from rich.table import Table
    from rich.text import Text

    from accord.cli._common import console

    out = console()
    out.print(Text(f"{source}: {rc.n_units} units, {len(rc.categories)} categories "
                   f"(nominal), counted by the engine"), soft_wrap=True)
    table = Table(show_header=True)
    for head in ("coefficient", "estimate", "SE", f"{level:.0%} CI", "interpretation"):
        text = head in ("coefficient", "interpretation")
        table.add_column(head, justify="left" if text else "right", no_wrap=not text)
    for row in rows:
        table.add_row(*row)
    out.print(table)
    for line in audit.lines():
        out.print(Text(line), style="dim", soft_wrap=True)
