"""``accord table``: the two-rater worksheet."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import data_options, load, single_labels
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._terminal import echo


@main.command()
@data_options
@shared("--json", help="Print the counts as JSON instead.")
def table(data: str, as_json: bool, **selection: Any) -> None:
    """Print the contingency table of two raters with totals, p_o, p_e and kappa.

    \b
    Example:
      accord table examples/pilot.csv --raters annotator_a annotator_b
    """
    from accord.errors import InvalidParameterError
    from accord.tables.contingency import ContingencyTable

    try:  # a bad option value (--categories, --format, ...) is bad usage: exit 2
        ann = single_labels(load(data, **selection).require_pairable(), "table")
    except InvalidParameterError as exc:
        raise click.UsageError(cli_text(str(exc))) from None
    if ann.n_raters != 2:
        raise click.UsageError(
            f"the data have {ann.n_raters} raters ({', '.join(map(str, ann.raters))}); "
            "name two with --raters A B."
        )
    t = ContingencyTable.from_annotations(ann)
    names = (str(ann.raters[0]), str(ann.raters[1]))
    if as_json:
        emit("table", {"results": [{
                    "raters": names,
                    "categories": [str(c) for c in t.categories],
                    "counts": t.counts.tolist(),
                    "n": t.n,
                    "observed_agreement": t.p_o,
                    "expected_agreement": t.p_e,
                    "kappa": t.kappa,
                }], "caveats": list(ann.audit.caveats)})
        return
    for caveat in ann.audit.caveats:
        echo(f"caveat: {caveat}")
    echo(t.worksheet(rater_names=names))
