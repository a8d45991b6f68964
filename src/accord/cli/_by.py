"""``--by COLUMN`` / ``--by file`` on ``accord compute``: one analysis per group."""

from __future__ import annotations

import math
from typing import Any

import click

from accord.cli._common import load, paths_of, single_labels
from accord.cli._json import emit

POOLED = "(pooled)"


def by_option(func: Any) -> Any:
    """``--by COLUMN|file``."""
    return click.option(
        "--by", default=None, metavar="COLUMN|file",
        help="One analysis per group: the values of a column of the table (e.g. batch, "
        "guideline version, language), or 'file' for each of several files (or a folder's "
        "files); the pooled figure follows. Without --by several files are pooled, as the "
        "first line says.")(func)


def read_groups(data: str, by: str, selection: dict[str, Any]) -> Any:
    """``(groups, pooled, notes)``: each group's annotations, all of them, what was decided."""
    from accord.history.split import split_files

    def loader(path: Any) -> Any:
        return single_labels(load(path, **selection), "compute")

    paths = paths_of(data)
    return split_files([paths] if isinstance(paths, str) else paths, by, loader)


def compute_by(data: str, by: str, selection: dict[str, Any], run: Any, intervals: Any,
               as_json: bool) -> None:
    """Print one row per group and coefficient, the pooled row, and the homogeneity test.

    ``run(ann, names)`` gives the results of one group (``names=None``: the default
    coefficients, as chosen on the pooled data), ``intervals(results)`` their intervals.
    """
    import accord
    from accord.history.groups import group_result

    groups, pooled, notes = read_groups(data, by, selection)
    pooled_results = run(pooled.require_pairable(), None)
    names = [r.coefficient for r in pooled_results]
    table: list[tuple[str, Any, list[Any], list[Any]]] = []
    for name, ann in groups:
        res = [group_result(_only(run, c), name, ann, c) for c in names]
        table.append((name, ann, res, intervals(res)))
    table.append((POOLED, pooled, pooled_results, intervals(pooled_results)))
    tests = {c: _homogeneity(accord, [row[2][j] for row in table[:-1]])
             for j, c in enumerate(names)}
    if as_json:
        rows = [{"group": None if g == POOLED else g, "pooled": g == POOLED,
                 **r.to_dict(), "confidence_interval": None if ci is None else ci.to_dict(),
                 "caveats": list(ann.audit.caveats), "notes": notes}
                for g, ann, res, cis in table for r, ci in zip(res, cis)]
        emit("compute", rows)
        return
    _print(data, by, table, names, tests, notes)


def _only(run: Any, coefficient: str) -> Any:
    def one(ann: Any) -> Any:
        return run(ann, [coefficient])[0]

    return one


def _homogeneity(accord: Any, results: list[Any]) -> Any:
    defined = [r for r in results if r.defined and math.isfinite(r.se)]
    return accord.homogeneity(defined) if len(defined) >= 2 else None


def _print(data: str, by: str, table: list[Any], names: list[str], tests: dict[str, Any],
           notes: list[str]) -> None:
    from rich.table import Table
    from rich.text import Text

    from accord.cli._common import console as cli_console

    console = cli_console()
    caveats = dict.fromkeys(c for _, ann, _, _ in table for c in ann.audit.caveats)
    for caveat in caveats:
        console.print(Text(f"caveat: {caveat}"), style="bold yellow")
    what = "file" if by == "file" else f"value of {by!r}"
    console.print(Text(f"{data}: {len(table) - 1} groups (one per {what}) and the pooled data"))
    for note in notes:
        console.print(Text(f"note: {note}"))
    undefined = []
    for j, coefficient in enumerate(names):
        grid = Table(title=coefficient, title_justify="left", box=None, pad_edge=False)
        for col in ("group", "units", "raters", "estimate", "SE", "CI"):
            grid.add_column(col, justify="left" if col == "group" else "right")
        for group, _ann, res, cis in table:
            r, ci = res[j], cis[j]
            grid.add_row(Text(group), str(r.n_units), str(r.n_raters),
                         "undefined" if not r.defined else f"{r.estimate:.4f}", _f(r.se),
                         "-" if ci is None or ci.low != ci.low else
                         f"[{ci.low:.4f}, {ci.high:.4f}]")
            if r.undefined_reason:
                undefined.append(f"{coefficient}, {group}: undefined: {r.undefined_reason}")
        console.print(grid)
        test = tests.get(coefficient)
        if test is not None:
            console.print(Text(f"groups equal? chi-square test of homogeneity (Fleiss 1981): "
                               f"chi2 = {test.statistic:.4f}, df = {test.df}, "
                               f"p = {test.pvalue:.4g}"))
    for line in undefined:
        console.print(Text(line))
    method = next((ci.method for _, _, _, cis in table for ci in cis if ci is not None), None)
    if method:
        console.print(Text(f"intervals: {method}"))


def _f(x: float) -> str:
    return "-" if x != x else f"{x:.4f}"
