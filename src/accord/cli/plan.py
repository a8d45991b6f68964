"""``accord plan``: how many units to rate (interval width, lower limit, or power)."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._json import emit
from accord.cli._options import shared


@main.command()
@click.option("--expected", type=float, required=True,
              help="The anticipated value of the coefficient (kappa).")
@click.option("--prevalence", type=float, multiple=True,
              help="Category proportions (one number p means two categories p, 1 - p).")
@click.option("--width", type=float, default=None,
              help="Goal: a confidence interval of this full width.")
@click.option("--lower-limit", "lower_limit", type=float, default=None,
              help="Goal: the interval's lower limit must clear this value.")
@click.option("--null", "null", type=float, default=None,
              help="Goal: a test rejecting kappa = NULL (power calculation).")
@shared("--confidence-level", help="Level of the planned interval (--width, --lower-limit).")
@click.option("--power", type=float, default=0.8, show_default=True,
              help="Probability of reaching the goal (--null, --lower-limit).")
@click.option("--significance-level", type=float, default=0.05, show_default=True,
              help="Level of the test (--null).")
@click.option("--two-sided", is_flag=True, help="A two-sided test (--null).")
@click.option("--rater-rates", "rater_rates", type=float, multiple=True,
              help="Two raters' rates of the first of two categories (--null; Cantor 1996).")
@click.option("--coefficient", default="cohen_kappa", show_default=True,
              help="Coefficient planned for (--width; others than cohen_kappa by simulation).")
@click.option("--n-raters", type=int, default=2, show_default=True,
              help="Raters per unit (--width).")
@shared("--json", help="Print the plan as JSON.")
def plan(expected: float, prevalence: tuple[float, ...], width: float | None,
         lower_limit: float | None, null: float | None, as_json: bool,
         **options: Any) -> None:
    """How many units to rate, for one of three goals (two raters, Cohen's kappa).

    \b
    --width W        the confidence interval has full width W (Flack et al. 1988)
    --lower-limit T  its lower limit clears T with probability --power, as the rule
                     "the lower 95% limit must be at least 0.6" asks
    --null K0        a one-sided test of kappa = K0 has power --power (Cantor 1996;
                     three or more categories: Flack et al. 1988, as R irr's N2.cohen.kappa)

    \b
    Examples:
      accord plan --expected 0.8 --prevalence 0.3 --lower-limit 0.6
      accord plan --expected 0.6 --prevalence 0.3 --width 0.2
      accord plan --expected 0.6 --null 0.4 --prevalence 0.2 0.25 0.55
    """
    from accord.errors import InvalidParameterError

    goals = [g for g in (width, lower_limit, null) if g is not None]
    if len(goals) != 1:
        raise click.UsageError("give exactly one goal: --width, --lower-limit or --null.")
    try:
        result = _plan(expected, prevalence, width, lower_limit, null, options)
    except InvalidParameterError as exc:
        raise click.UsageError(_option_words(str(exc))) from None
    assumed = _assumed(prevalence, null, options)
    if as_json:
        emit("plan", {"results": [result.to_dict()], "assumed": assumed})
        return
    for line in assumed:
        click.echo(f"assumed: {line}")
    click.echo(str(result))
    note = result.details.get("note")
    if note:
        click.echo(f"note: {note}")


#: The library's parameters as this command names them.
_OPTIONS = {"ci_width": "--width", "n_raters": "--n-raters", "prevalence": "--prevalence",
            "expected": "--expected", "threshold": "--lower-limit", "assurance": "--power",
            "power": "--power", "null": "--null", "rater_rates": "--rater-rates",
            "significance_level": "--significance-level", "coefficient": "--coefficient",
            "confidence_level": "--confidence-level"}


def _option_words(message: str) -> str:
    """"The 'ci_width' parameter of plan_sample_size must ..." -> "--width must ..."."""
    import re

    from accord.cli._errors import cli_text

    return cli_text(re.sub(r"\bThe '(\w+)' parameter of plan_\w+",
                           lambda m: _OPTIONS.get(m.group(1), m.group(0)), message))


def _assumed(prevalence: tuple[float, ...], null: float | None, o: dict[str, Any]) -> list[str]:
    """The guesses the plan rests on that the command line did not give."""
    if prevalence or null is not None:  # --null requires its proportions or rates
        return []
    return ["prevalence 0.5 (two categories, equally common); the units needed grow as a "
            "category gets rarer: give --prevalence"]


def _plan(expected: float, prevalence: tuple[float, ...], width: float | None,
          lower_limit: float | None, null: float | None, o: dict[str, Any]) -> Any:
    import accord

    prev: Any = None if not prevalence else (prevalence[0] if len(prevalence) == 1
                                             else list(prevalence))
    if width is not None:
        return accord.plan_sample_size(
            o["coefficient"], expected=expected, ci_width=width,
            confidence_level=o["confidence_level"], prevalence=prev, n_raters=o["n_raters"])
    if lower_limit is not None:
        return accord.plan_lower_limit(expected, lower_limit, prevalence=prev,
                                       confidence_level=o["confidence_level"],
                                       assurance=o["power"])
    rates = tuple(o["rater_rates"]) if o["rater_rates"] else None
    return accord.plan_power(
        expected, float(null), prevalence=prev, rater_rates=rates,  # type: ignore[arg-type]
        power=o["power"], significance_level=o["significance_level"],
        alternative="two-sided" if o["two_sided"] else "one-sided")
