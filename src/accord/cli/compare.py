"""``accord compare``: did agreement change between batches?"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import (
    ci_options,
    data_options,
    interval_method,
    load,
    paths_of,
    single_labels,
)
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._terminal import echo


@main.command("compare")
@data_options
@shared("--coefficient", multiple=True, help="The coefficient to compare (default: Cohen's "
        "kappa for two raters, Krippendorff's alpha otherwise).")
@shared("--weights")
@click.option("--by", default=None, metavar="COLUMN",
              help="The batches are the values of this column of one table (e.g. week), in "
              "the order they first appear, instead of one file each.")
@ci_options
@shared("--json", help="Print the comparison as JSON.")
def compare_command(data: Any, coefficients: tuple[str, ...], weights: str | None,
                    by: str | None, confidence_level: float, ci_method: str,
                    n_resamples: int, bootstrap_kind: str, seed: int | None, as_json: bool,
                    **selection: Any) -> None:
    """Compare agreement between batches: the first file against each later one.

    Each file is one batch, read with the same options; with --by COLUMN, each value
    of that column of one table is one batch. Batches that share no unit
    are independent samples: the difference gets an independent bootstrap
    (--ci bootstrap) or the delta method from each SE (--ci asymptotic, the
    default); batches on the same units are paired. With three or more batches the
    chi-square test of homogeneity (Fleiss 1981) says whether all are equal. The
    batches' figures with their intervals and chart come first (with --by, the pooled
    figure too), then each later batch against the first.

    \b
    Examples:
      accord compare examples/batches/pilot.csv examples/batches/batch2.csv --raters annotator_a annotator_b
      accord compare examples/batches/pilot.csv examples/batches/batch2.csv examples/batches/batch3.csv --raters annotator_a annotator_b --ci bootstrap --seed 1 --n-resamples 999
      accord compare examples/batches/pilot.csv examples/batches/batch3.csv --raters annotator_a annotator_b --json
      accord compare examples/batches.csv --by batch --raters annotator_a annotator_b
    """  # noqa: E501
    import accord
    from accord.errors import InvalidParameterError
    from accord.interpret.selection import compute

    paths = list(getattr(data, "paths", (data,)))
    if by is None and (len(paths) < 2 or any(Path(p).is_dir() for p in paths)):
        raise click.UsageError("compare takes two or more files, one batch each, or one "
                               "table with --by COLUMN (its batch column).")
    if len(coefficients) > 1:
        raise click.UsageError("compare takes one --coefficient.")
    try:
        names, paths, batches, pooled = _batches(data, paths, by, selection)
        name = coefficients[0] if coefficients else (
            "cohen_kappa" if all(b.n_raters == 2 for b in batches) else "krippendorff_alpha")
        results = [compute(b, [name], weights=weights)[0] for b in batches]
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
        design = "independent" if _disjoint(batches) else "paired"
        diffs = [accord.compare(r, results[0], method=_method(method, design),
                                confidence_level=confidence_level) for r in results[1:]]
        test = accord.homogeneity(results, method=method) if len(results) > 2 else None
        whole = None if pooled is None else compute(pooled, [name], weights=weights)[0]
        section = _section(by or "file", names, batches, results, whole, test,
                           confidence_level, method)
    except InvalidParameterError as exc:
        raise click.UsageError(cli_text(str(exc))) from None
    if as_json:
        out = {"results": [{"batch": n, "baseline": names[0], "sentence":
                            d.sentence(n, names[0]), **d.to_dict()}
                           for n, d in zip(names[1:], diffs)],
               "batches": [{"batch": n, "source": p, **r.to_dict(confidence_level,
                                                                  interval=ci)}
                           for n, p, r, ci in zip(names, paths, results, _shown(diffs))],
               "homogeneity": None if test is None else test.to_dict(),
               **({} if whole is None else {"pooled": {"source": paths_of(data),
                                                       **whole.to_dict(confidence_level)}})}
        emit("compare", out)
        return
    _print(batches, names, diffs, section)


def _section(by: str, names: list[str], batches: list[Any], results: list[Any], whole: Any,
             test: Any, level: float, method: Any) -> Any:
    """The batches' answer: each batch's figure with its interval, then the pooled one
    (with --by COLUMN), and the homogeneity test."""
    from accord.cli.compute import _intervals
    from accord.coefficients import REGISTRY
    from accord.report.groups_section import GroupRow, GroupsSection

    shown = [*results, *([] if whole is None else [whole])]
    rows = []
    for j, (r, ci) in enumerate(zip(shown, _intervals(shown, level, method))):
        low, high = (math.nan, math.nan) if ci is None else (ci.low, ci.high)
        rows.append(GroupRow(names[j] if j < len(names) else "pooled", r.n_units, r.estimate,
                             low, high, r.undefined_reason, pooled=j == len(names)))
    return GroupsSection(by, results[0].coefficient, REGISTRY[results[0].coefficient].title,
                         level, tuple(rows), test, instead="" if test is not None else
                         "the difference below answers it (two batches)")


def _batches(data: Any, paths: list[str], by: str | None,
             selection: dict[str, Any]) -> tuple[list[str], list[str], list[Any], Any]:
    """The batches' names, sources and annotations: one file each, or, with ``by``, one
    value each of that column of one table (``--by file``: the files); and, with ``by``,
    all of them pooled (``None`` without)."""
    if by is None:
        return ([Path(p).stem for p in paths], paths,
                [single_labels(load(p, **selection).require_pairable(), "compare")
                 for p in paths], None)
    from accord.cli._by import read_groups

    groups, pooled, _ = read_groups(data, by, selection)
    if len(groups) < 2:
        raise click.UsageError(f"--by {by} found {len(groups)} batch(es); compare needs two "
                               "or more.")
    where = f"{paths[0]} ({by} = {{}})" if by != "file" else "{}"
    return ([str(g) for g, _ in groups], [where.format(g) for g, _ in groups],
            [single_labels(ann.require_pairable(), "compare") for _, ann in groups],
            single_labels(pooled.require_pairable(), "compare"))


def _shown(diffs: list[Any]) -> list[Any]:
    """Each batch's interval as the comparisons show it (the baseline's from the first)."""
    return [diffs[0].interval_b, *(d.interval_a for d in diffs)]


def _disjoint(batches: list[Any]) -> bool:
    units = [set(map(str, b.units)) for b in batches]
    return all(not (units[0] & u) for u in units[1:])


def _method(method: Any, design: str) -> Any:
    if design == "paired" and method == "asymptotic":
        return "jackknife"  # no analytic SE of a paired difference
    return method


def _print(batches: list[Any], names: list[str], diffs: list[Any], section: Any) -> None:
    """The batches' figures, their chart and whether they are equal; the pooled figure
    (with --by); then each later batch against the first."""
    from accord.cli._common import console as cli_console
    from accord.report.groups_section import console_parts

    for caveat in dict.fromkeys(c for b in batches for c in b.audit.caveats):
        echo(f"caveat: {caveat}")
    design = diffs[0].design
    echo(f"{len(batches)} batches ({'no shared unit: independent samples' if design == 'independent' else 'shared units: paired'}); "  # noqa: E501
         + "; ".join(f"{n}: {b.n_units} units, {b.n_raters} raters"
                     for n, b in zip(names, batches)))
    console = cli_console()
    for part in console_parts(section)[:-1]:
        console.print(part)
    for n, d in zip(names[1:], diffs):
        echo(d.sentence(n, names[0]))
        echo(f"  difference {d.difference:.4f}, {d.interval.confidence_level:.0%} CI "
             f"[{d.interval.low:.4f}, {d.interval.high:.4f}] ({d.interval.method}), "
             f"p = {d.pvalue:.4g}")
