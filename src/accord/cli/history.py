"""``accord history``: the runs recorded in a history store, with control limits."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from accord.cli._app import main
from accord.cli._json import emit
from accord.cli._options import shared


@main.command("history")
@click.argument("store", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--study", default=None, metavar="NAME", help="Only the runs of this study.")
@click.option("--false-alarm", default=0.05, show_default=True, type=click.FloatRange(
    0.0, 0.5, min_open=True, max_open=True), help="One-sided false-alarm rate of the control "
    "limits per batch.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the history page (self-contained HTML) to this file.")
@shared("--json", help="Print the runs and charts as JSON.")
def history(store: Path, study: str | None, false_alarm: float, output: Path | None,
            as_json: bool) -> None:
    """The runs recorded in STORE (by accord check --record), and whether agreement dropped.

    Each coefficient of each study is charted over its batches with a lower
    control limit from the study's first five batches (per guideline revision): a
    Shewhart chart (Montgomery 2009) whose false-alarm rate per batch is
    --false-alarm. A batch below the limit is flagged, with the reason. Each
    annotator's kappa against the others (recorded by check and report) is
    charted the same way from the annotator's own first batches: a drifting
    annotator is flagged by name.

    \b
    Examples:
      accord history examples/history.db
      accord history examples/history.db --study support-triage -o history.html
      accord history examples/history.db --json
    """
    from accord import __version__
    from accord.cli._outputs import writable_output
    from accord.data._files import write_atomic
    from accord.history.drift import charts
    from accord.history.store import Store

    writable_output(output, store)
    st = Store(store, create=False)
    runs = st.runs(study, registers=as_json)  # the table and the page need only the figures
    if study is not None and not runs:
        raise click.UsageError(f"no run of study {study!r} in {store}; its studies are "
                               f"{st.studies()!r}.")
    drawn = charts(runs, false_alarm=false_alarm, annotators=True)
    if output is not None:
        from accord.report.history_html import render_history_html

        write_atomic(output, render_history_html(runs, drawn, title=f"History: {store.name}",
                                                 accord_version=__version__))
    if as_json:
        emit("history", {"results": [r.to_dict() for r in runs], "store": str(store),
                         "charts": [c.to_dict() for c in drawn]})
        return
    _print(store, runs, drawn, output)


def _print(store: Path, runs: list[Any], drawn: list[Any], output: Path | None) -> None:
    from rich.table import Table
    from rich.text import Text

    from accord.cli._common import console as cli_console

    console = cli_console()
    console.print(Text(f"{store}: {len(runs)} runs, {len({r.study for r in runs})} "
                       "study(ies)"))
    by_id = {r.id: r for r in runs}
    for c in drawn:
        console.print(Text(f"\n{c.study or '(no study)'}: {c.coefficient}"
                           + (f", annotator {c.rater}" if c.rater else "")
                           + (f", threshold {c.threshold:g}" if c.threshold is not None else "")),
                      style="bold")
        table = Table(box=None, pad_edge=False, collapse_padding=True)
        for col in ("run", "time", "source", "units", "estimate", "interval", "limit",
                    "decision", "flag"):
            table.add_column(col, justify="right" if col in ("units", "estimate", "limit")
                             else "left", no_wrap=True)
        shown, left = c.listed()
        if left:
            console.print(Text(f"{left} earlier batch(es) not listed, the last {len(shown)} "
                               "and every flagged one are (all of them: --json; the -o page "
                               "charts them)"))
        for p in shown:
            run = by_id[p.run_id]
            source = Path(p.source).name if p.source else "-"
            table.add_row(str(p.run_id), p.time[:10], Text(source),
                          str(run.n_units or "-"), _f(p.estimate, 3),
                          "-" if not math.isfinite(p.low) else f"{p.low:.3f}-{p.high:.3f}",
                          _f(p.lower_limit, 3), run.decision or "-",
                          "FLAGGED" if p.flagged else "")
        console.print(table)
        for p in c.flagged:
            console.print(Text(f"flagged: run {p.run_id}: {p.reason}"))
    console.print(Text(f"limit: lower control limit from the first 5 batches of each revision "
                       f"(one-sided {drawn[0].false_alarm:.0%} false-alarm rate per batch; "
                       "judged from the 4th batch on)" if drawn else "no figures recorded yet"),
                  style="dim")
    if output is not None:
        console.print(Text(f"history page written to {output}"))


def _f(x: float, digits: int = 4) -> str:
    return "-" if not math.isfinite(x) else f"{x:.{digits}f}"
