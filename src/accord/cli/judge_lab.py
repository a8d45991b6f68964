"""``accord judge bias | rank | consistency | calibration | ppi | panel``: the judge lab."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import click

from accord.cli._common import console, data_options, load
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._terminal import one_line
from accord.cli.judge import judge

JSON_OPTION = shared("--json")
LEVEL_OPTION = shared("--confidence-level", dest="level")
#: The commands that read ratings have --level (the scale) too: their confidence level is
#: passed as ``confidence_level``.
CONFIDENCE_OPTION = shared("--confidence-level")
REPORT_OPTION = shared("--report")


@judge.command("bias")
@click.argument("data", type=click.Path(exists=True, dir_okay=True))
@click.option("--judge", "judge_name", default=None, metavar="NAME",
              help="The judge's annotator name (default: the only one in the file).")
@shared("--family")
@LEVEL_OPTION
@REPORT_OPTION
@JSON_OPTION
def bias(data: str, judge_name: str | None, family: tuple[str, ...], level: float,
         report_path: str | None, as_json: bool) -> None:
    """Position, length and self-preference of a pairwise judge, from AlpacaEval-style
    annotations (annotations.json) or a JSONL/CSV of item, output_1, output_2,
    generator_1, generator_2, preference (1, 2, or 1.5 for a tie); a folder of such
    files (subfolders too) is read as one.

    \b
    Examples:
      accord judge bias examples/alpaca_eval_slice.json
      accord judge bias examples/alpaca_eval_slice.json --family gpt4 --json
    """
    import accord
    from accord.judge.pairs_io import read_pairwise

    table = read_pairwise(data)
    res = accord.preferences(
        table.columns, judge=judge_name or _only_rater(table.columns["rater"]),
        lengths=("len_first", "len_second"),
        generators=("first", "second") if family else None,
        family=list(family) or None, confidence_level=level)
    figures = _bias_figures(res)
    _write_report(report_path, data, [res], level, table.notes())
    if as_json:
        doc = res.to_dict()
        notes = doc.pop("biases", {}).get("notes", [])
        emit("judge bias", {"read": table.notes(), "results": _results(figures, level), **doc,
                            "notes": notes})
        return
    _say(table.notes() + list(res.biases.notes if res.biases else ()))
    _say([res.sentence(level)])
    _figure_table("Biases of the judge (intervals resample whole pairs)", figures, level)


def _only_rater(raters: list[Any]) -> Any:
    names = list(dict.fromkeys(raters))
    if len(names) != 1:
        from accord.errors import DataError

        raise DataError(f"the file holds several annotators ({names[:5]!r}); name the judge "
                        "with --judge.")
    return names[0]


#: A row of a figure table: the console's label, the result, and the JSON's name of the
#: figure with its parameters (``{"figure": "position", "rater": "gpt4"}``).
Row = tuple[str, Any, dict[str, Any]]


def _bias_figures(res: Any) -> list[Row]:
    rows: list[Row] = [(f"P(first shown wins), {r}", x, {"figure": "position", "rater": str(r)})
                       for r, x in res.position.items()]
    for label, name in (("P(prefers the longer output)", "length_bias"),
                        ("  the humans, same pairs", "length_bias_humans"),
                        ("  judge minus humans", "length_bias_excess"),
                        ("length slope (log-odds per 100 characters)", "length_slope"),
                        ("P(prefers its own family)", "self_preference"),
                        ("  the humans, same pairs", "self_preference_humans"),
                        ("  judge minus humans", "self_preference_excess")):
        value = getattr(res, name)
        if value is not None:
            rows.append((label, value, {"figure": name}))
    return rows


@judge.command("rank")
@click.argument("data", type=click.Path(exists=True, dir_okay=True))
@click.option("--order-effect", is_flag=True, help="Fit the advantage of the output shown first.")
@click.option("--bootstrap", "n_boot", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N", help="Intervals from N bootstrap resamples of the comparisons "
              "(0: from the Fisher information).")
@shared("--seed", help="Seed of the bootstrap (default 0: the same figures on every run).")
@LEVEL_OPTION
@REPORT_OPTION
@JSON_OPTION
def rank(data: str, order_effect: bool, n_boot: int, seed: int | None, level: float,
         report_path: str | None, as_json: bool) -> None:
    """Bradley-Terry strengths of the generators (Davidson ties, Elo as a view) from
    pairwise judge annotations (AlpacaEval JSON, JSONL or CSV, or a folder of them).

    \b
    Examples:
      accord judge rank examples/alpaca_eval_slice.json
      accord judge rank examples/alpaca_eval_slice.json --bootstrap 999
      accord judge rank examples/alpaca_eval_slice.json --json
    """
    import accord
    from accord.judge.pairs_io import read_pairwise

    table = read_pairwise(data)
    bt = accord.bradley_terry(table.comparisons(), order_effect=order_effect)
    method: Any = accord.Bootstrap(n_resamples=n_boot, rng=seed) if n_boot else "asymptotic"
    _write_report(report_path, data, [bt], level, table.notes(), method if n_boot else None)
    figures = {str(k): r for k, r in bt.strength.items()}
    if bt.order_effect is not None:
        figures["order_effect"] = bt.order_effect
    intervals = {name: r.confidence_interval(level, method=method) for name, r in figures.items()
                 if r.defined}
    if as_json:
        elo = bt.elo()
        rows: list[Row] = [(str(k), r, {"figure": "strength", "item": str(k)})
                           for k, r in bt.strength.items()]
        rows += [(f"elo {k}", r, {"figure": "elo", "item": str(k)}) for k, r in elo.items()]
        rows += [("order_effect", r, {"figure": "order_effect"}) for r in [bt.order_effect] if r]
        rows += [("tie", r, {"figure": "tie_parameter"}) for r in [bt.tie_parameter] if r]
        shown = {**intervals, **{f"elo {k}": _scaled_interval(intervals.get(str(k)), e)
                                 for k, e in elo.items()}}
        doc = bt.to_dict()
        emit("judge rank", {"read": table.notes(), "results": _results(rows, level, shown),
                            **{k: doc[k] for k in ("n_comparisons", "n_ties", "log_likelihood")}})
        return
    _say(table.notes())
    first = next(iter(bt.strength.values()))
    if not first.defined:
        _say([f"The strengths are undefined: {first.undefined_reason}."])
        return
    if n_boot:
        dropped = max(ci.n_excluded for ci in intervals.values())
        _say([f"Intervals: {n_boot} bootstrap resamples of the {bt.n_comparisons} comparisons; "
              f"{dropped} left out because some strength was infinite in them (an item that "
              "never beat, or was never beaten by, the others through a chain of comparisons; "
              "Ford 1957)."])
    _say([bt.sentence(level, method=method)])
    elo = bt.elo()
    ranked = [(str(item), bt.strength[item]) for item in bt.ranking()]
    _figure_table("Bradley-Terry log-strength (mean zero)", ranked, level,
                  extra=("Elo", [_f(elo[i].estimate, 0) for i in bt.ranking()]),
                  intervals=intervals)


@judge.command("consistency")
@data_options
@click.option("--threshold", type=float, default=None,
              help="Pass threshold: adds the share of items that pass in some runs only.")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.9, show_default=True,
              help="Target reliability for the number of runs needed (the sentence uses it; "
              "the report adds it to 0.8, 0.9 and 0.95).")
@CONFIDENCE_OPTION
@REPORT_OPTION
@JSON_OPTION
def consistency(data: str, threshold: float | None, target: float, confidence_level: float,
                report_path: str | None, as_json: bool, **selection: Any) -> None:
    """The same judge run several times on the same items (one rater column per run):
    flip rates, within-item variance, ICC(1,1) and the runs needed for a target reliability.

    \b
    Examples:
      accord judge consistency examples/judge_runs.csv --threshold 3
      accord judge consistency examples/judge_runs.csv --target 0.95 --json
    """
    import accord

    ann = load(data, **selection)
    level = confidence_level
    runs = ann.numeric_values()[ann.wide()]
    runs[ann.wide() < 0] = math.nan
    c = accord.judge_consistency(runs, threshold=threshold, target=target)
    _write_report(report_path, data, [c], level, ann.audit.lines())
    need = c.runs_needed(confidence_level=level)
    figures: list[Row] = [("flip rate (runs disagree)", c.flip_rate, {"figure": "flip_rate"})]
    if c.threshold_flip_rate is not None:
        figures.append((f"pass in some runs, fail in others (>= {threshold:g})",
                        c.threshold_flip_rate,
                        {"figure": "threshold_flip_rate", "threshold": threshold}))
    figures += [("within-item variance", c.within_item_variance,
                 {"figure": "within_item_variance"}),
                ("ICC(1,1): one run", c.icc, {"figure": "icc", "k": 1}),
                (f"ICC(1,{c.n_runs}): mean of the runs", c.icc_k, {"figure": "icc_k",
                                                                   "k": c.n_runs}),
                (f"runs needed for reliability {target:g}", need,
                 {"figure": "runs_needed", "target": target})]
    if as_json:
        emit("judge consistency", {"results": _results(figures, level), "n_runs": c.n_runs,
                                   "n_items_dropped": c.n_items_dropped, "target": target})
        return
    _say(ann.audit.lines())
    _say([c.sentence(level)])
    _figure_table("Repeat-run consistency", figures, level)


@judge.command("calibration")
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--score", required=True, metavar="COL", help="The judge's probability column.")
@click.option("--label", required=True, metavar="COL",
              help="The human 0/1 label column (rows with a blank label are left out).")
@click.option("--bins", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--recalibrate", type=click.Choice(["isotonic", "platt", "none"]),
              default="isotonic", show_default=True)
@shared("--seed", help="Seed of the fit/check split (default 0: the same split on every run).")
@LEVEL_OPTION
@REPORT_OPTION
@JSON_OPTION
def calibration(data: str, score: str, label: str, bins: int, recalibrate: str,
                seed: int | None, level: float, report_path: str | None, as_json: bool) -> None:
    """A judge's probabilities against human labels: Brier score, ECE, the reliability
    bins, and a recalibration fitted on one half of the items and checked on the other.

    \b
    Examples:
      accord judge calibration examples/judge_scores.csv --score judge_prob --label human --seed 1
      accord judge calibration examples/judge_scores.csv --score judge_prob --label human \\
        --recalibrate platt --json
    """
    import accord

    cols, dropped = _columns(data, [score, label], required=label)
    cal = accord.judge_calibration(
        cols[score], cols[label], n_bins=bins, rng=seed,
        recalibrate=None if recalibrate == "none" else recalibrate)  # type: ignore[arg-type]
    _write_report(report_path, data, [cal], level, [
        f"read {len(cols[score])} item(s) with a human label; {dropped} without one left out."])
    figures: list[Row] = [("Brier score", cal.brier, {"figure": "brier"}),
                          ("expected calibration error", cal.ece, {"figure": "ece"})]
    rec = cal.recalibration
    if rec is not None:
        figures += [(f"Brier on the check half ({rec.n_check}), before", rec.brier_before,
                     {"figure": "brier_before"}),
                    (f"  after {rec.method} fitted on the other {rec.n_fit}", rec.brier_after,
                     {"figure": "brier_after"}),
                    ("ECE on the check half, before", rec.ece_before, {"figure": "ece_before"}),
                    (f"  after {rec.method}", rec.ece_after, {"figure": "ece_after"})]
    if as_json:
        doc = cal.to_dict(level)
        recal = doc["recalibration"] and {k: v for k, v in doc["recalibration"].items()
                                          if k in ("method", "n_fit", "n_check")}
        emit("judge calibration", {"results": _results(figures, level), "bins": doc["bins"],
                                   "recalibration": recal})
        return
    _say([f"read {len(cols[score])} item(s) with a human label; {dropped} without one "
          "left out.", cal.sentence(level)])
    _figure_table("Calibration against the humans", figures, level)
    _say(["reliability bins (score range: n, mean score, observed rate): " + "; ".join(
        f"{b.low:.1f}-{b.high:.1f}: {b.n}, {_f(b.mean_score)}, {_f(b.observed_rate)}"
        for b in cal.bins if b.n)])


@judge.command("ppi")
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--judge", "judge_col", required=True, metavar="COL",
              help="The judge's 0/1 (or score) column, on every item.")
@click.option("--human", "human_col", required=True, metavar="COL",
              help="The humans' column, blank where an item has no human label.")
@click.option("--tuned", is_flag=True, help="Power-tuned PPI++ instead of PPI.")
@LEVEL_OPTION
@REPORT_OPTION
@JSON_OPTION
def ppi(data: str, judge_col: str, human_col: str, tuned: bool, level: float,
        report_path: str | None, as_json: bool) -> None:
    """The judge's rate on every item, corrected by the human-labelled items
    (prediction-powered inference, Angelopoulos et al. 2023).

    \b
    Examples:
      accord judge ppi examples/judge_scores.csv --judge judge_pass --human human
      accord judge ppi examples/judge_scores.csv --judge judge_pass --human human --tuned --json
    """
    import accord
    from accord.judge.sentences import ppi_sentence

    cols, _ = _columns(data, [judge_col, human_col])
    labelled = [h not in (None, "") for h in cols[human_col]]
    j_lab = [j for j, k in zip(cols[judge_col], labelled) if k]
    j_unl = [j for j, k in zip(cols[judge_col], labelled) if not k]
    h_lab = [h for h in cols[human_col] if h not in (None, "")]
    est = accord.ppi_mean(_floats(j_unl), _floats(j_lab), _floats(h_lab),
                          lam="tuned" if tuned else 1.0)
    _write_report(report_path, data, [est], level, [
        f"read {len(j_unl) + len(j_lab)} item(s): {len(j_lab)} with a human label."])
    if as_json:
        emit("judge ppi", {"results": [{"figure": "ppi_mean", **est.to_dict(level)}]})
        return
    _say([f"read {len(j_unl) + len(j_lab)} item(s): {len(j_lab)} with a human label."])
    _say([ppi_sentence(est, level)])


@judge.command("panel")
@data_options
@click.option("--judges", "judges", multiple=True, required=True, metavar="COL...",
              help="The judges' rater names (at least two).")
@click.option("--humans", multiple=True, metavar="COL...",
              help="The humans (default: every other rater).")
@click.option("--combine", type=click.Choice(["majority", "mean"]), default="majority",
              show_default=True)
@click.option("--epsilon", default=0.2, show_default=True, type=float)
@click.option("--test", "test_kind", type=click.Choice(["t", "wilcoxon"]), default="t",
              show_default=True)
@CONFIDENCE_OPTION
@REPORT_OPTION
@JSON_OPTION
def panel(data: str, judges: tuple[str, ...], humans: tuple[str, ...], combine: str,
          epsilon: float, test_kind: str, confidence_level: float, report_path: str | None,
          as_json: bool, **selection: Any) -> None:
    """Several judges combined (majority or mean): each judge and the panel through the
    alternative annotator test, and the effective number of independent judges.

    \b
    Examples:
      accord judge panel examples/jury.csv --judges judge_a judge_b judge_c
      accord judge panel examples/jury.csv --judges judge_a judge_b judge_c --json
    """
    import accord

    ann = load(data, select_raters=False, **selection)
    level = confidence_level
    p = accord.judge_panel(ann, judges=list(judges), humans=list(humans) or None,
                           combine=combine, epsilon=epsilon,  # type: ignore[arg-type]
                           test=test_kind)  # type: ignore[arg-type]
    _write_report(report_path, data, [p], level, ann.audit.lines())
    if as_json:
        doc = p.to_dict(level)
        fig = doc.pop("effective_judges")
        emit("judge panel", {"results": [{"figure": "effective_judges", **fig}], **doc})
        return
    _say(ann.audit.lines())
    _say([p.sentence(level)])
    if p.n_panel_ties:
        _say([f"note: {p.n_panel_ties} unit(s) have a tied majority and no panel verdict."])
    for name, res in p.alt_tests.items():
        _say([f"{name}: {'passes' if res.passed else 'fails'} the alt-test (winning rate "
              f"{res.winning_rate:.2f}, advantage probability {res.advantage_probability:.3f})"])


def _write_report(path: str | None, data: str, results: list[Any], level: float,
                  read: list[str], method: Any = None) -> None:
    """With --report FILE: the report of this question (the renderer of accord report),
    its format by the suffix; what was read goes into its notes. ``method``: the
    intervals' method when the command was given one (``judge rank --bootstrap``)."""
    if path is None:
        return
    from dataclasses import replace

    import accord
    from accord.data._files import write_atomic
    from accord.report.output import SUFFIXES, render

    fmt = SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None:
        raise click.UsageError(f"--report {path}: name a .html, .md or .json file.")
    from accord.cli._outputs import writable_output

    writable_output(path, data, option="--report")
    rep = accord.report(None, judge_lab=results, confidence_level=level, method=method)
    rep = replace(rep, notes=(*read, *rep.notes))
    written = write_atomic(path, render(rep, fmt))
    click.echo(f"report written to {written.resolve()}", err=True)


def _columns(path: str, names: list[str], required: str | None = None
             ) -> tuple[dict[str, list[Any]], int]:
    """The named columns of a CSV file; rows blank in ``required`` are left out (counted)."""
    from accord.errors import DataError

    with open(Path(path), newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = [n for n in names if n not in (reader.fieldnames or [])]
        if missing:
            raise DataError(f"{path} has no column {missing[0]!r}; the columns are "
                            f"{reader.fieldnames!r}.")
        rows = list(reader)
    kept = [r for r in rows if required is None or r[required] not in (None, "")]
    cols: dict[str, list[Any]] = {n: [r[n] if r[n] != "" else None for r in kept]
                                  for n in names}
    if required is not None:
        cols = {n: list(_floats(v)) for n, v in cols.items()}
    return cols, len(rows) - len(kept)


def _floats(values: list[Any]) -> list[float]:
    from accord.errors import DataError

    try:
        return [float(x) for x in values]
    except (TypeError, ValueError):
        bad = next(x for x in values if not _is_number(x))
        raise DataError(f"a value {bad!r} is not a number.") from None


def _is_number(x: Any) -> bool:
    try:
        float(x)
    except (TypeError, ValueError):
        return False
    return True


def _say(lines: Any) -> None:
    out = console()
    for line in lines:  # each one sentence: a name from the data cannot break it
        out.print(one_line(line), markup=False, highlight=False)


def _interval_text(res: Any, level: float, method: Any = "asymptotic") -> str:
    if not res.defined:
        return "undefined"
    ci = res.confidence_interval(level, method=method)
    return f"{_f(res.estimate)} ({level:.0%} CI {_f(ci.low)} to {_f(ci.high)})"


def _results(rows: list[Row], level: float,
             intervals: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The rows of a figure table as JSON: each figure with the interval the table shows."""
    out = []
    for label, res, fields in rows:
        got = (intervals or {}).get(label)
        ci = _interval(res, level) if got is None else got
        out.append({**fields, **res.to_dict(level, interval=ci)})
    return out


def _scaled_interval(ci: Any, elo: Any) -> Any:
    """An Elo interval from the strength's (Elo is linear in the log-strength)."""
    from dataclasses import replace

    if ci is None or not elo.defined:
        return None
    k = float(elo.details["scale"]) / math.log(10.0)
    base = float(elo.details["base"])
    return replace(ci, low=base + k * ci.low, high=base + k * ci.high, replicates=None)


def _figure_table(title: str, rows: list[Any], level: float,
                  extra: tuple[str, list[str]] | None = None,
                  intervals: dict[str, Any] | None = None) -> None:
    from rich.table import Table

    t = Table(title=title)
    for col in ("figure", "estimate", f"{level:.0%} interval", "n", *(extra[:1] if extra else ())):
        t.add_column(col)
    for n, (label, res, *_) in enumerate(rows):
        got = (intervals or {}).get(label)
        ci = _ci(res, level) if got is None else f"{_f(got.low)} to {_f(got.high)}"
        cells = [label, _f(res.estimate), ci, str(res.n_units)]
        if extra:
            cells.append(extra[1][n])
        t.add_row(*cells)
    console().print(t)


def _interval(res: Any, level: float) -> Any:
    """The interval a figure table shows: asymptotic where the figure has one, else the
    jackknife; ``None`` for an undefined figure."""
    if not res.defined:
        return None
    method: Any = "asymptotic" if math.isfinite(res.se) or res.analytic_interval else "jackknife"
    return res.confidence_interval(level, method=method)


def _ci(res: Any, level: float) -> str:
    ci = _interval(res, level)
    if ci is None:
        return res.undefined_reason or "undefined"
    return f"{_f(ci.low)} to {_f(ci.high)}"


def _f(x: float, digits: int = 3) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.{digits}f}"

