"""``accord spans``: agreement on spans (pairwise F1) or spans against a reference rater."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import console as cli_console
from accord.cli._common import data_options
from accord.cli._json import emit
from accord.cli._options import MAX_RESAMPLES, OPTIONS, shared
from accord.data.audit import reason_counts
from accord.errors import AccordError

MODES = ("strict", "exact", "partial", "type")
#: the unitizing coefficients --coefficient adds beside the pairwise F1
UNITIZING = ("unitizing_alpha", "gamma")


@main.command()
@data_options
@click.option("--start", default=None, metavar="COL", help="Span tables: the start offset column.")
@click.option("--end", default=None, metavar="COL", help="Span tables: the end offset column.")
@click.option("--label", default=None, metavar="COL", help="Span tables: the label column.")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="strict",
    show_default=True,
    help="When two spans agree: same boundaries and label (strict), same boundaries (exact), "
    "overlap counted half (partial), overlap with the same label (type).",
)
@shared("--gold", metavar="RATER", help="Score every other rater against this one.")
@shared("--confidence-level")
@click.option(
    "--n-resamples",
    default=OPTIONS["--n-resamples"].default,
    show_default=True,
    type=click.IntRange(0, MAX_RESAMPLES),
    help="Bootstrap resamples of units for the intervals (0: no intervals; at most 10^7).",
)
@shared("--seed")
@click.option(
    "--disagreements",
    "n_disagreements",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="N",
    help="Also list the first N spans the raters disagree on (with --gold: against it).",
)
@click.option(
    "--relations",
    "relations_path",
    default=None,
    metavar="FILE",
    help="Relations between the spans (CSV/TSV/JSONL: unit, rater, head, tail, type; head "
    "and tail are span ids). Relations read with the spans (brat, INCEpTION, Label Studio, "
    "doccano) are used without it.",
)
@click.option(
    "--symmetric",
    multiple=True,
    metavar="TYPE",
    help="A relation type whose two arguments may be swapped (repeat for several).",
)
@shared("--coefficient", multiple=True, metavar="NAME", choices=lambda: list(UNITIZING),
        help="Also compute this unitizing coefficient beside the pairwise F1 (repeatable): "
        "unitizing_alpha (Krippendorff's alpha_U) or gamma (Mathet's gamma, with gamma-cat and "
        "a bootstrap interval over units; it aligns every unit and 30 sampled continua, so it "
        "is computed only when asked).")
@shared("--json", help="Print the figures as JSON instead.")
def spans(
    data: str,
    start: str | None,
    end: str | None,
    label: str | None,
    mode: str,
    gold: str | None,
    confidence_level: float,
    n_resamples: int,
    seed: int | None,
    n_disagreements: int,
    relations_path: str | None,
    symmetric: tuple[str, ...],
    coefficients: tuple[str, ...],
    as_json: bool,
    **selection: Any,
) -> None:
    """Agreement on spans in DATA: pairwise F1 for every pair of raters, the mean over
    pairs and per label, with bootstrap intervals over units (documents); with --gold,
    precision, recall and F1 of every other rater against that one, and for raters
    marked as systems (--kind NAME=model) their human ceiling: the other humans' F1
    against the same reference on the system's documents, with paired bootstrap
    differences.

    \b
    Examples:
      accord spans examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end
      accord spans examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end --mode partial --gold ana --json
      accord spans examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end --disagreements 10
      accord spans examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end --gold ana --kind cleo=model
      accord spans examples/ner_spans_ids.csv --unit doc --rater annotator --label label \\
          --start start --end end --relations examples/ner_relations.csv
      accord spans examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end --coefficient gamma --coefficient unitizing_alpha

    With relations (read with the spans, or from --relations), a relations part
    follows: relation F1 and kappa on the relation type, the arguments matched in
    the same --mode, per type, and the most disputed relations.
    """
    from accord.cli._common import paths_of, read_options
    from accord.data import _validation as v
    from accord.readers import read

    try:
        v.confidence_level(confidence_level, func="accord spans")
    except AccordError as exc:
        raise click.BadParameter(str(exc), param_hint="--confidence-level") from None
    if label is not None:
        selection["value"] = label
    raters = list(selection.pop("raters", ()) or ()) or None
    selection.pop("kinds", None)
    opts: dict[str, Any] = {k: x for k, x in (("start", start), ("end", end)) if x is not None}
    ann = read(paths_of(data), **read_options(**selection), **opts)
    _check(ann, data, gold)
    from accord.cli._spans_view import _against, _agreement, _Ci, _disagreements

    ci = _Ci(confidence_level, n_resamples, seed)
    model = (
        _agreement(ann, mode, raters, ci) if gold is None else _against(ann, mode, gold, raters, ci)
    )
    _dropped(model, ann)
    if n_disagreements:
        _disagreements(model, ann, mode, gold, raters, n_disagreements)
    if coefficients:
        from accord.cli._spans_view import _unitizing

        _unitizing(model, ann, coefficients, raters, ci)
    columns = {k: str(selection.get(k) or k) for k in ("unit", "rater")}
    _with_relations(model, ann, relations_path, mode, symmetric, raters, ci, columns)
    if as_json:
        emit("spans", _document(model["json"]))
        return
    _print(model, data)


def _document(js: dict[str, Any]) -> dict[str, Any]:
    """The figures as ``results``: against a reference one row per rater scored, else
    the mean F1, the macro F1 and each label's mean F1 (``figure`` and ``label``)."""
    js = dict(js)
    if "raters" in js:
        return {"results": [{"rater": r, **row} for r, row in js.pop("raters").items()], **js}
    rows = [{"figure": "f1", **js.pop("f1")}, {"figure": "macro_f1", **js.pop("macro_f1")}]
    rows += [{"figure": "label_f1", "label": lab, **row}
             for lab, row in js.pop("per_label").items()]
    return {"results": rows, **js}


def _with_relations(
    model: dict[str, Any], ann: Any, path: str | None, mode: str, symmetric: tuple[str, ...],
    raters: list[str] | None, ci: Any, columns: dict[str, str],
) -> None:  # fmt: skip
    """Add the relations part when relations were given or read with the spans."""
    if path is None and getattr(ann.spans, "relations", None) is None:
        if symmetric:
            raise click.UsageError("--symmetric needs relations (--relations FILE, or an "
                                   "export that holds relations).")  # fmt: skip
        return
    from accord.cli._relations_view import relations_model
    from accord.readers.relations import read_relations

    relations = read_relations(path, **columns) if path is not None else None
    part = relations_model(ann, relations, mode, symmetric, raters, ci, 10)
    model["relations"] = part
    model["notes"] += part["notes"]
    model["json"]["relations"] = part["json"]


def _dropped(model: dict[str, Any], ann: Any) -> None:
    """The rows the reader dropped, and why: the first notes, and ``dropped`` in --json."""
    dropped = {str(why): int(n) for why, n in ann.audit.dropped.items()}
    model["notes"] = [*(f"dropped {n} row(s): {why}" for why, n in dropped.items()),
                      *model["notes"]]
    if isinstance(model.get("json"), dict):
        model["json"]["dropped"] = reason_counts(dropped)


def _check(ann: Any, data: str, gold: str | None) -> None:
    from accord.errors import DataError

    if ann.spans is None:
        raise DataError(
            f"{data}: no spans were read; accord spans needs a span export (brat, INCEpTION, "
            "Label Studio, doccano, Prodigy, CoNLL, ...) or a span table read with --start "
            "and --end (with --unit, --rater and --label)."
        )
    if gold is not None and gold not in ann.spans.raters:
        raise DataError(
            f"{data}: --gold {gold!r} is not a rater here; the raters are "
            f"{list(ann.spans.raters)!r}."
        )


def _print(model: dict[str, Any], source: str) -> None:
    from rich.table import Table
    from rich.text import Text

    console = cli_console()
    console.print(Text(f"{source}: {model['headline']}"), style="bold")
    for note in model["notes"]:
        console.print(Text("note: " + note), style="dim")
    tables = dict(model["tables"])
    if "relations" in model:
        console.print(Text(model["relations"]["verdict"]), style="bold")
        tables.update(model["relations"]["tables"])
    for title, rows in tables.items():
        if not rows:
            continue
        table = Table(title=title, title_justify="left")
        for i, head in enumerate(rows[0]):
            table.add_column(head, justify="left" if i == 0 else "right")
        for row in rows[1:]:
            table.add_row(*(Text(str(x)) for x in row))
        console.print(table)
