"""``accord inspect``: what accord read from a file, before any number is trusted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from accord.cli._app import main
from accord.cli._common import console as cli_console
from accord.cli._common import data_options, paths_of, read_options
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._options import shared

if TYPE_CHECKING:
    from rich.console import Console


@main.command()
@data_options
@shared("--json", help="Print the summary as JSON instead.")
def inspect(data: str, as_json: bool, **selection: Any) -> None:
    """Show what accord reads from DATA: format, fields, raters and their kinds,
    units, categories with counts, missing and skipped answers, and the audit.

    \b
    Formats (--format; detected when omitted):
      label_studio, label_studio_csv, prodigy, doccano, brat, inception, mturk,
      sagemaker, argilla, conll, csv (also TSV), parquet, jsonl

    \b
    Examples:
      accord inspect examples/export.json
      accord inspect examples/export.json --field sentiment
      accord inspect examples/long.csv --unit item --rater coder --value label --json
    """
    from accord.readers import describe

    summary = describe(paths_of(data), **read_options(**selection))
    summary["caveats"] = [cli_text(c) for c in summary.get("caveats", [])]
    summary["audit_lines"] = [cli_text(x) for x in summary.get("audit_lines", [])]
    if as_json:
        caveats = summary.pop("caveats")
        emit("inspect", {"results": [summary], "caveats": caveats})
        return
    _print(summary, data)


def _print(s: dict[str, Any], source: str) -> None:
    from rich.table import Table
    from rich.text import Text

    console = cli_console()
    console.print(Text(f"{source}: format {s['format']}"), style="bold")
    for caveat in s["caveats"]:
        console.print(Text(f"caveat: {caveat}"), style="bold yellow")
    if s.get("choose_field"):
        _print_fields(console, s)
    else:
        field = f"field {s['field']!r}; " if s.get("field") else ""
        fields = s.get("fields") or []
        others = f" (fields in the file: {', '.join(map(str, fields))})" if len(fields) > 1 else ""
        console.print(
            Text(
                f"{field}{s['units']} units, {len(s['raters'])} raters, "
                f"{s['ratings']} ratings{others}"
            )
        )
    _print_raters(console, s["raters"])
    from accord.data._sets import label_text

    if s.get("categories"):
        table = Table(title="categories", title_justify="left")
        table.add_column("category")
        table.add_column("count", justify="right")
        for c in s["categories"]:
            table.add_row(Text(label_text(c["label"])), str(c["count"]))
        console.print(table)
    spans = s.get("spans")
    if spans:
        labels = ", ".join(f"{k} {n}" for k, n in spans["labels"].items()) or "none"
        console.print(
            Text(
                f"spans: {spans['spans']} in {spans['units']} units ({labels}); "
                f"(unit, rater) annotated {spans['annotated']}, skipped {spans['skipped']}"
            )
        )
    for row in s.get("dropped") or []:
        console.print(Text(f"not used: {row['count']} {row['reason']}"))
    console.print(Text("audit:"), style="dim")
    for line in s.get("audit_lines", []):
        console.print(Text("  " + line), style="dim")


def _print_fields(console: Console, s: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="fields (choose one with --field)", title_justify="left")
    for head in ("field", "kind", "answers"):
        table.add_column(head, justify="right" if head == "answers" else "left")
    for f in s["field_details"]:
        table.add_row(Text(str(f["name"])), f["kind"], str(f["answers"]))
    console.print(table)
    console.print(Text(f"{s['units']} units"))


def _print_raters(console: Console, raters: list[dict[str, Any]]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="raters", title_justify="left")
    table.add_column("rater")
    table.add_column("kind")
    table.add_column("ratings", justify="right")
    with_spans = any("spans" in r for r in raters)
    if with_spans:
        table.add_column("spans", justify="right")
    for r in raters:
        name = str(r["name"]) + (f" ({r['alias']})" if r.get("alias") else "")
        cells = [Text(name), r["kind"], "-" if r["ratings"] is None else str(r["ratings"])]
        table.add_row(*cells, *([str(r.get("spans", 0))] if with_spans else []))
    console.print(table)
