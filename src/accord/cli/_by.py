"""``--by COLUMN`` / ``--by file`` on ``accord compute``: one analysis per group."""

from __future__ import annotations

import math
from typing import Any

import click

from accord.cli._common import load, paths_of, single_labels
from accord.cli._json import emit
from accord.cli._terminal import one_line

POOLED = "(pooled)"


def by_option(func: Any) -> Any:
    """``--by COLUMN|file``."""
    return click.option(
        "--by", default=None, metavar="COLUMN|file",
        help="One analysis per group: the values of a column of the table (e.g. batch, "
        "guideline version, language), or 'file' for each of several files (or a folder's "
        "files); the pooled figure follows. Without --by several files are pooled, as the "
        "first line says.")(func)


def with_pooled_caveat(ann: Any, by: str | None = None) -> Any:
    """Several files analysed as one: said on the first line (as a caveat), as by
    ``compute``, ``check`` and ``report`` alike (not with ``--by``, which splits them)."""
    if by is not None or len(ann.audit.parts) < 2:  # nothing pooled: no history import
        return ann
    from accord.history.split import pooled_note

    note = None if by is not None else pooled_note(ann)
    if note is not None and note not in ann.audit.caveats:
        ann.audit = ann.audit.with_caveats(note)
    return ann


def read_groups(data: str, by: str, selection: dict[str, Any], *, once: bool = False) -> Any:
    """``(groups, pooled, notes)``: each group's annotations, all of them, what was decided
    (``once``: the table read once, its groups cut out of it; see ``split_files``)."""
    from accord.history.split import split_files

    def loader(path: Any) -> Any:
        return single_labels(load(path, **selection), "compute")

    paths = paths_of(data)
    return split_files([paths] if isinstance(paths, str) else paths, by, loader, once=once)


def compute_by(data: str, by: str, selection: dict[str, Any], run: Any, intervals: Any,
               as_json: bool) -> None:
    """Print one row per group and coefficient, the pooled row, and the homogeneity test.

    ``run(ann, names)`` gives the results of one group (``names=None``: the default
    coefficients, as chosen on the pooled data), ``intervals(results)`` their intervals.
    """
    import accord
    from accord.history.groups import group_result

    groups, pooled, notes = read_groups(data, by, selection, once=True)
    pooled_results = run(pooled.require_pairable(), None)
    names = [r.coefficient for r in pooled_results]
    table: list[tuple[str, Any, list[Any], list[Any]]] = []
    for name, ann in groups:
        res = [group_result(_only(run, c), name, ann, c) for c in names]
        table.append((name, ann, res, intervals(res)))
    table.append((POOLED, pooled, pooled_results, intervals(pooled_results)))
    tests = {c: _homogeneity(accord, [(row[0], row[2][j]) for row in table[:-1]])
             for j, c in enumerate(names)}
    if as_json:
        rows = [{"group": None if g == POOLED else g, "pooled": g == POOLED,
                 **r.to_dict(), "confidence_interval": None if ci is None else ci.to_dict(),
                 "caveats": list(ann.audit.caveats), "notes": notes,
                 **({"homogeneity": _test_json(tests[r.coefficient])} if g == POOLED else {})}
                for g, ann, res, cis in table for r, ci in zip(res, cis)]
        emit("compute", rows)
        return
    _print(data, by, table, names, tests, notes)


def _only(run: Any, coefficient: str) -> Any:
    def one(ann: Any) -> Any:
        return run(ann, [coefficient])[0]

    return one


def _homogeneity(accord: Any, results: list[tuple[str, Any]]) -> tuple[Any, list[str],
                                                                      list[str]]:
    """``(test or None, groups tested, groups left out)``: the chi-square test of
    homogeneity (Fleiss 1981) over the groups whose estimate has a positive analytic SE
    (the test weighs each group by 1/SE^2: a group of SE 0, such as kappa 1 with every
    unit agreeing, is left out and named)."""
    ok = [testable(r) for _, r in results]
    tested = [gr for gr, good in zip(results, ok) if good]
    left = [g for (g, _), good in zip(results, ok) if not good]
    test = accord.homogeneity([r for _, r in tested]) if len(tested) >= 2 else None
    return test, [g for g, _ in tested], left


def testable(result: Any) -> bool:
    """Whether a group's result enters the homogeneity test: defined, with a finite,
    positive SE."""
    return bool(result.defined and math.isfinite(result.se) and result.se > 0)


def _test_json(found: tuple[Any, list[str], list[str]]) -> dict[str, Any]:
    """The pooled row's ``homogeneity``: the test (``null`` when fewer than two groups
    have an estimate with a positive standard error), the groups it compared and those
    left out."""
    test, tested, left = found
    return {"test": None if test is None else test.to_dict(), "groups": tested,
            "left_out": left,
            "reason": None if test is not None else
            f"{len(tested)} group(s) have an estimate with a positive standard error; the "
            "test needs two"}


def _test_line(coefficient: str, found: tuple[Any, list[str], list[str]]) -> str:
    test, tested, left = found
    out = (f"groups equal? not tested: {len(tested)} group(s) have an estimate with a "
           "positive standard error, two needed" if test is None else
           f"groups equal? chi-square test of homogeneity (Fleiss 1981): "
           f"chi2 = {test.statistic:.4f}, df = {test.df}, p = {test.pvalue:.4g}")
    if left:
        out += f" ({len(left)} group(s) left out, without an estimate or a positive SE: " \
               f"{', '.join(map(one_line, left))})"
    return out


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
    heads = ("group", "units", "raters", "estimate", "SE", "CI")
    for j, coefficient in enumerate(names):
        cells: list[tuple[str, ...]] = []
        for group, _ann, res, cis in table:
            r, ci = res[j], cis[j]
            cells.append((group, str(r.n_units), str(r.n_raters),
                          "undefined" if not r.defined else f"{r.estimate:.4f}", _f(r.se),
                          "-" if ci is None or ci.low != ci.low else
                          f"[{ci.low:.4f}, {ci.high:.4f}]"))
            if r.undefined_reason:
                undefined.append(f"{coefficient}, {group}: undefined: {r.undefined_reason}")
        if not _print_plain(console, coefficient, heads, cells):
            grid = Table(title=coefficient, title_justify="left", box=None, pad_edge=False)
            for col in heads:
                grid.add_column(col, justify="left" if col == "group" else "right")
            for row in cells:
                grid.add_row(Text(row[0]), *row[1:])
            console.print(grid)
        console.print(Text(_test_line(coefficient, tests[coefficient])))
    for line in undefined:
        console.print(Text(line))
    method = next((ci.method for _, _, _, cis in table for ci in cis if ci is not None), None)
    if method:
        console.print(Text(f"intervals: {method}"))


def _print_plain(console: Any, title: str, heads: tuple[str, ...],
                 rows: list[tuple[str, ...]]) -> bool:
    """Print the grid of one coefficient as the rich table would lay it out (first column
    left, the others right, two spaces apart), when it has many rows of plain text that
    fit the console: rich measures every cell of every row (about 2 ms a group). Returns
    whether it printed; otherwise the caller draws the rich table."""
    from rich.text import Text

    if len(rows) < PLAIN_ROWS or not all(c.isprintable() and c.isascii()
                                          for c in (title, *(r[0] for r in rows))):
        return False
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    if sum(widths) + 2 * (len(widths) - 1) > console.width:
        return False

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join([cells[0].ljust(widths[0]),
                          *(c.rjust(w) for c, w in zip(cells[1:], widths[1:]))])

    out = Text()
    out.append(title, style="table.title")  # the rich table's styles (seen on a terminal)
    out.append("\n")
    out.append(line(heads), style="table.header")
    out.append("".join("\n" + line(r) for r in rows))
    console.print(out, soft_wrap=True)
    return True


#: From this many groups on, ``compute --by`` prints its grids as plain aligned text.
PLAIN_ROWS = 50


def _f(x: float) -> str:
    return "-" if x != x else f"{x:.4f}"


def evaluate_by(data: str, by: str, loader: Any, run: Any, as_json: bool) -> None:
    """``accord evaluate --by``: each group's evaluation and the pooled one, side by side.

    ``loader(path)`` reads one group, ``run(ann)`` gives its evaluation as
    ``{"reference", "systems": {name: Evaluation.to_dict()}}``. A group that
    cannot be evaluated (one unit, data the evaluation refuses) is said, with why.
    """
    from accord.errors import DataError
    from accord.history.split import split_files

    paths = paths_of(data)
    groups, pooled, notes = split_files([paths] if isinstance(paths, str) else paths, by,
                                        loader)
    rows: list[dict[str, Any]] = []
    for name, ann in [*groups, (POOLED, pooled)]:
        row: dict[str, Any] = {"group": None if name == POOLED else name,
                               "pooled": name == POOLED, "n_units": ann.n_units,
                               "caveats": list(ann.audit.caveats)}
        try:
            if ann.n_units < 2:
                raise DataError(f"group {name!r} has {ann.n_units} unit; an evaluation "
                                "needs at least two units")
            row["evaluation"] = run(ann)
        except DataError as exc:
            row["undefined_reason"] = str(exc)
        rows.append(row)
    if as_json:
        emit("evaluate", {"results": rows, "data": str(data), "by": by, "notes": notes})
        return
    _print_evaluations(data, by, rows, notes)


#: The figures ``evaluate --by`` shows per group, with their intervals.
EVALUATE_FIGURES = (("accuracy", ("accuracy",)), ("macro F1", ("macro", "f1")),
                    ("kappa", ("kappa",)), ("MCC", ("mcc",)))


def _print_evaluations(data: str, by: str, rows: list[dict[str, Any]], notes: list[str]
                       ) -> None:
    from rich.table import Table
    from rich.text import Text

    from accord.cli._common import console as cli_console

    console = cli_console()
    for caveat in dict.fromkeys(c for r in rows for c in r["caveats"]):
        console.print(Text(f"caveat: {caveat}"), style="bold yellow")
    what = "file" if by == "file" else f"value of {by!r}"
    console.print(Text(f"{data}: {len(rows) - 1} groups (one per {what}) and the pooled data"))
    for note in notes:
        console.print(Text(f"note: {note}"))
    done = [r for r in rows if "evaluation" in r]
    reference = done[0]["evaluation"]["reference"] if done else ""
    systems = list(dict.fromkeys(s for r in done for s in r["evaluation"]["systems"]))
    for system in systems:
        grid = Table(title=f"{system} against {reference}", title_justify="left", box=None,
                     pad_edge=False)
        grid.add_column("group")
        grid.add_column("units", justify="right")
        for head, _ in EVALUATE_FIGURES:
            grid.add_column(head, justify="right")
        for r in rows:
            ev = r.get("evaluation", {}).get("systems", {}).get(system)
            name = POOLED if r["pooled"] else str(r["group"])
            if ev is None:
                grid.add_row(Text(name), str(r["n_units"]), *["undefined"] * len(EVALUATE_FIGURES))
                continue
            grid.add_row(Text(name), str(ev["n_units"]),
                         *(_figure(ev, keys) for _, keys in EVALUATE_FIGURES))
        console.print(grid)
    for r in rows:
        if "undefined_reason" in r:
            console.print(Text(f"{r['group'] or POOLED}: undefined: {r['undefined_reason']}"))
    level = next((r["evaluation"]["systems"][s]["accuracy"]["confidence_interval"]
                  ["confidence_level"] for r in done for s in r["evaluation"]["systems"]), 0.95)
    console.print(Text(f"estimate ({level:.0%} CI): accuracy Wilson, the others as accord "
                       "evaluate computes them (--json has every figure of every group)"))


def _figure(ev: dict[str, Any], keys: tuple[str, ...]) -> str:
    fig: Any = ev
    for k in keys:
        fig = fig[k]
    if fig["estimate"] is None:
        return "undefined"
    ci = fig["confidence_interval"]
    if ci["low"] is None:
        return f"{fig['estimate']:.3f}"
    return f"{fig['estimate']:.3f} ({ci['low']:.3f}-{ci['high']:.3f})"


def split_report(data: str, by: str, loader: Any) -> Any:
    """``(groups, pooled, notes)`` for ``report --by``: with a column, the pooled data are
    read without it (the group column is a role, never a rater nor an ignored column);
    with ``file``, the pooled data are read as without ``--by``."""
    from accord.history.split import split_files

    paths = paths_of(data)
    return split_files([paths] if isinstance(paths, str) else paths, by, loader)


def report_groups(rep: Any, by: str, groups: Any, notes: list[str],
                  options: dict[str, Any]) -> Any:
    """``accord report --by``: the report of the pooled data, opened by the groups'
    answer (:class:`~accord.report.groups_section.GroupsSection`: each group's main
    figure with its interval, their chart, the homogeneity test, then the pooled figure),
    with each group's row of every coefficient (titled ``... (BY = GROUP)``) after the
    pooled rows and the tests of the other coefficients in the notes. The headline (and
    so the job's verdict) answers the groups' question first; the group column is named
    as such in the data notes, not as an ignored column.

    ``groups`` are ``(name, annotations)`` as read; ``options`` are those of
    :func:`accord.report`."""
    from dataclasses import replace

    import accord
    from accord.errors import DataError

    names = [r.coefficient for r in rep.coefficients]
    rows, results, lines = [], {c: [] for c in names}, []  # type: ignore[var-annotated]
    what = "file" if by == "file" else by
    for name, ann in groups:
        try:
            if ann.n_units < 2:
                raise DataError(f"group {name!r} has {ann.n_units} unit; agreement needs at "
                                "least two units")
            part = accord.report(ann, coefficients=names, **options)
        except DataError as exc:
            lines.append(f"{what} = {name}: not analysed: {exc}")
            continue
        for row in part.coefficients:
            tag = f"{what} = {name}"
            rows.append(replace(row, variant=f"{row.variant}, {tag}" if row.variant else tag))
        for r in part.results:
            if r.coefficient in results:
                results[r.coefficient].append((name, r))
    per = "file" if by == "file" else f"value of {by!r}"
    lines.insert(0, f"groups: {len(groups)} (one per {per}), each analysed on its own, after "
                    "the pooled rows")
    tests = {c: _homogeneity(accord, found) for c, found in results.items()}
    lines += [_test_line(c, found).replace("groups equal? ", f"groups equal? {c}: ", 1)
              for c, found in tests.items()]
    pooled = tuple(replace(r, variant=f"{r.variant}, pooled" if r.variant else "pooled")
                   for r in rep.coefficients)
    test = tests.get(rep.primary or "", (None, [], []))[0]
    out = replace(rep, coefficients=(*pooled, *rows), notes=(*rep.notes, *notes, *lines),
                  headline=_groups_headline(rep, what, rows, test),
                  data=_group_column(rep.data, by),
                  groups=_section(rep, by, rows, tests.get(rep.primary or "")))
    from accord.report.job import with_job

    return with_job(out, rep.title, None)


def _section(rep: Any, by: str, rows: list[Any], found: Any) -> Any:
    """The groups' answer on the main coefficient: each group's row, then the pooled."""
    from accord.report.groups_section import GroupRow, GroupsSection

    what = "file" if by == "file" else by
    main = next((r for r in rep.coefficients if r.coefficient == rep.primary), None)
    if main is None or found is None:
        return None
    tag = f"{what} = "
    mine = [GroupRow(r.variant.split(tag, 1)[-1], r.n_units, r.estimate, r.ci_low,
                     r.ci_high, r.undefined_reason) for r in rows
            if r.coefficient == rep.primary]
    mine.append(GroupRow("pooled", main.n_units, main.estimate, main.ci_low, main.ci_high,
                         main.undefined_reason, pooled=True))
    test, _, left = found
    return GroupsSection(by, main.coefficient, main.title,
                         main.confidence_level, tuple(mine), test, tuple(left))


#: Groups named in the headline; the others are in the coefficient table.
HEADLINE_GROUPS = 6


def _groups_headline(rep: Any, what: str, rows: list[Any], test: Any) -> str:
    """Each group's figure of the main coefficient, whether the groups are equal, then the
    pooled headline: the question a report by groups asks comes first."""
    mine = [r for r in rows if r.coefficient == rep.primary]
    if not mine:
        return str(rep.headline)
    tag = f"{what} = "
    shown = [f"{r.variant.split(tag, 1)[-1]} {r.estimate:.4f}"
             + (f" ({r.confidence_level:.0%} CI {r.ci_low:.4f} to {r.ci_high:.4f})"
                if math.isfinite(r.ci_low) else "") if r.defined else
             f"{r.variant.split(tag, 1)[-1]} undefined" for r in mine[:HEADLINE_GROUPS]]
    more = (f" and {len(mine) - HEADLINE_GROUPS} more (in the table)"
            if len(mine) > HEADLINE_GROUPS else "")
    equal = ("" if test is None or test.undefined_reason is not None else
             f"; equal across groups? chi-square test of homogeneity (Fleiss 1981): chi2 = "
             f"{test.statistic:.2f}, df = {test.df}, p = {test.pvalue:.4g}")
    return (f"{mine[0].label.split(' (')[0]} by {what}: {'; '.join(shown)}{more}{equal}. "
            f"Pooled: {rep.headline}")


def _group_column(data: Any, by: str) -> Any:
    """The data summary with the --by column named as the group column (it was read
    beside the raters and would be listed among the ignored columns)."""
    from dataclasses import replace

    if by == "file":
        return data
    ignored = f"ignored columns: [{by!r}]"
    notes = tuple(n.replace(f"; {ignored}", "").replace(f"{by!r}, ", "")
                  .replace(f", {by!r}]", "]") + f"; group column: {by!r} (--by)"
                  if n.startswith("wide layout") else n for n in data.notes)
    return replace(data, notes=notes)
