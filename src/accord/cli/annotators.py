"""``accord consensus`` and ``accord annotators``: inferred labels and per-annotator quality."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import console, data_options, load, read_model, single_labels
from accord.cli._engine import (
    engine_annotators,
    engine_consensus,
    engine_frame,
    engine_options,
    require_long,
)
from accord.cli._json import emit
from accord.cli._options import CONSENSUS_METHODS, shared
from accord.cli._terminal import one_line

_METHODS = [*CONSENSUS_METHODS, "crowdlab"]
_SCORE_METHODS = ["mean", "median", "gaussian"]


def _consensus_method_option(func: Any) -> Any:
    return click.option(
        "--method", type=click.Choice(_METHODS + _SCORE_METHODS), default="dawid_skene",
        show_default=True,
        help="For labels: majority vote, Wawa, one-coin, Dawid-Skene, GLAD, MACE, or "
        "CROWDLAB (the --model's probabilities mixed with the votes, weighted by their "
        "agreement; needs --model). For "
        "numeric scores: mean, median, or gaussian (each annotator's bias and noise).")(func)


def _fit_options(func: Any) -> Any:
    func = shared("--accelerate")(func)
    func = click.option("--max-iter", default=1000, show_default=True,
                        type=click.IntRange(min=1), help="EM iteration cap.")(func)
    return click.option("--tol", default=1e-7, show_default=True, type=float,
                        help="Stop when the log-likelihood moves less than this per "
                        "rating.")(func)


@main.command()
@data_options
@_consensus_method_option
@_fit_options
@click.option("--threshold", default=0.9, show_default=True, type=float,
              help="Units whose top posterior is below it are listed first as uncertain.")
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Write unit,label,posterior,n_ratings to this CSV (written atomically; the unit "
              "column keeps its --unit name).")
@click.option("--model", "model_file", default=None, metavar="FILE_OR_COLUMNS",
              help="A model's class probabilities as one more annotator: a CSV with a unit "
              "column (named 'unit' or as --unit, else the first) and one column per label, "
              "each row summing to 1; or a CSV whose other columns are label and confidence "
              "(c on the label, (1 - c)/(k - 1) on each other); or two columns of DATA, "
              "LABEL,CONFIDENCE. What was read is said first. The EM methods learn its "
              "reliability; majority lets it break ties only. Not with glad.")
@click.option("--relabel", "relabel", default=None, type=click.IntRange(min=1),
              help="Also list the K units whose next label has the largest expected "
              "information gain (majority and wawa: tied units first, then by the chance "
              "that one more vote changes the majority), each with its reason (relabel "
              "these first).")
@click.option("--tie-break", "tie_break", type=click.Choice(["first", "quality"]),
              default="first", show_default=True,
              help="majority and wawa: a tied unit takes the first tied label, or the one "
              "whose annotators agree most with the majority elsewhere (still listed as "
              "tied).")
@click.option("--class-prior", "class_prior", type=click.Choice(["fitted", "uniform"]),
              default="fitted", show_default=True,
              help="mace: the true class's prior fitted to the data, or held uniform (Hovy "
              "et al. 2013; try it where many workers spam with favourite labels).")
@engine_options
@shared("--json", help="Print JSON instead.")
def consensus(data: str, method: str, tol: float, max_iter: int, accelerate: bool,
              threshold: float, output: str | None, model_file: str | None,
              relabel: int | None, tie_break: str, class_prior: str, engine: str | None,
              scheduler: str | None, master: str | None, as_json: bool,
              **selection: Any) -> None:
    """Infer one label per unit of DATA from its annotators' ratings.

    \b
    Examples:
      accord consensus examples/crowd.csv --unit image --rater worker --value label
      accord consensus examples/crowd.csv --unit image --rater worker --value label \\
        --model examples/crowd_model.csv --relabel 5
      accord consensus examples/crowd.csv --unit image --rater worker --value label \\
        --model examples/crowd_model.csv --method crowdlab
      accord consensus examples/crowd.csv --unit image --rater worker --value label \\
        --method mace --json
      accord consensus examples/pilot.csv --raters annotator_a annotator_b annotator_c \\
        --method majority
      accord consensus examples/scores.csv --unit item_id --method gaussian
      accord consensus examples/crowd.csv --unit image --rater worker --value label \\
        --engine spark --master spark://127.0.0.1:7077

    With --method mean, median or gaussian the ratings are numeric scores and -o writes
    unit,score,se,n_ratings. With --engine the engine fits majority, wawa, one_coin,
    dawid_skene or mace where the data live (long data; no --model).
    """
    import accord
    from accord.cli._outputs import writable_output
    from accord.errors import InvalidParameterError

    writable_output(output, data)
    unit_header = selection.get("unit") or "unit"
    _refuse_combinations(method, engine, model_file, relabel is not None or
                         tie_break != "first" or class_prior != "fitted")
    if method in _SCORE_METHODS:
        _score_consensus(data, method, tol, max_iter, (output, unit_header), as_json,
                         selection)
        return
    if engine is not None:
        require_long(selection)
    frame = engine_frame(data, engine, scheduler, master, selection)
    said: str | None = None
    try:
        if frame is not None:
            c, audit = engine_consensus(frame, method, selection, tol=tol, max_iter=max_iter,
                                        threshold=threshold, accelerate=accelerate)
            ann: Any = SimpleNamespace(audit=audit)
        else:
            model, said = (None, None) if model_file is None else read_model(
                model_file, data, selection.get("unit"))
            ann = single_labels(load(data, **selection), "consensus")
            c = accord.consensus(ann, method=method,  # type: ignore[arg-type]
                                 tol=tol, max_iter=max_iter, threshold=threshold,
                                 accelerate=accelerate, model=model,
                                 tie_break=tie_break,  # type: ignore[arg-type]
                                 class_prior=class_prior)  # type: ignore[arg-type]
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None
    quality = _quality(c)
    again = None if relabel is None or quality is None else c.relabel(relabel)
    if output is not None:
        _write(output, c, unit_header)
    if as_json:
        doc = c.to_dict()
        if quality is not None:
            scores = dict(zip(quality.units, quality.consensus.tolist()))
            doc["quality_estimate"] = quality.estimate
            doc["results"] = [{**r, "quality": scores[r["unit"]]} for r in doc["results"]]
        if again is not None:
            doc["relabel"] = again.to_dict()
        emit("consensus", {**doc,
                           "caveats": list(ann.audit.caveats), "audit": ann.audit.to_dict()})
        return
    _print_consensus(ann, c, output, quality, None if frame is not None else said)
    if relabel is not None:
        _print_relabel(again)


def _refuse_combinations(method: str, engine: str | None, model_file: str | None,
                         labels_only: bool) -> None:
    """Options that do not go together, refused as bad usage in one sentence each
    (``labels_only``: --relabel or --tie-break was given)."""
    if method in _SCORE_METHODS and labels_only:
        raise click.UsageError(f"--relabel, --tie-break and --class-prior take labels; "
                               f"--method {method} averages numeric scores.")
    if method in _SCORE_METHODS and model_file is not None:
        raise click.UsageError(f"--model takes class probabilities; --method {method} "
                               "averages numeric scores (use majority, wawa, one_coin, "
                               "dawid_skene, mace or crowdlab).")
    if engine is not None and (method in _SCORE_METHODS or method in ("glad", "crowdlab")):
        raise click.UsageError(f"--method {method} runs in memory only; with --engine use "
                               "majority, wawa, one_coin, dawid_skene or mace.")
    if engine is not None and model_file is not None:
        raise click.UsageError("--model runs in memory only: leave out --engine to use it.")
    if engine is not None and labels_only:
        raise click.UsageError("--relabel, --tie-break and --class-prior run in memory "
                               "only: leave out --engine to use them.")


def _quality(c: Any) -> Any:
    """``c.quality``, or ``None`` where a vote's one-coin fit is out of reach: a consensus
    counted on an engine (which keeps no ratings in memory)."""
    if c.method in ("majority", "wawa") and c.crowd is None:
        return None
    return c.quality


def _print_relabel(again: Any) -> None:
    out = console()
    if again is None:
        out.print("relabel: not ranked (a consensus counted on an engine keeps no ratings "
                  "to fit; leave out --engine).", markup=False, highlight=False)
        return
    from rich.table import Table

    t = Table(title=f"Relabel these first (by {again.score}; next annotator right "
              f"{again.accuracy:.0%} of the time)")
    for col in ("unit", "label", "quality", "gain", "reason"):
        t.add_column(col)
    for r in again.rows():
        t.add_row(str(r["unit"]), str(r["label"]), f"{r['quality']:.3f}",
                  f"{r['gain']:.3f}", r["reason"])
    out.print(t)


def _score_consensus(data: str, method: str, tol: float, max_iter: int,
                     written: tuple[str | None, str], as_json: bool,
                     selection: dict[str, Any]) -> None:
    import accord

    output, unit_header = written

    ann = single_labels(load(data, **selection), "consensus")
    import numbers

    if not all(isinstance(c, numbers.Real) and not isinstance(c, bool)
               for c in ann.categories):  # said in the command's words, not the library's
        shown = ", ".join(repr(c) for c in list(ann.categories)[:3])
        from accord.errors import DataError

        raise DataError(
            f"{data}: --method {method} needs numeric scores, but the labels are not all numbers "
            f"({shown}{', ...' if len(ann.categories) > 3 else ''}); for categories use "
            "--method majority, wawa, one_coin, dawid_skene, glad or mace.")
    sc = accord.score_consensus(ann, method=method,  # type: ignore[arg-type]
                                tol=tol, max_iter=max_iter)
    if output is not None:
        _write_rows(output, [_unit_header(unit_header, ("score", "se", "n_ratings")), "score",
                             "se", "n_ratings"],
                    ([row["unit"], repr(row["score"]), repr(row["se"]), row["n_ratings"]]
                     for row in sc.rows()))
    if as_json:
        doc = sc.to_dict()
        emit("consensus", {**doc,
                           "caveats": list(ann.audit.caveats), "audit": ann.audit.to_dict()})
        return
    _print_scores(ann, sc, output)


def _print_scores(ann: Any, sc: Any, output: str | None) -> None:
    from rich.table import Table

    out = console()
    for line in [*ann.audit.lines(), sc.sentence(), *(f"note: {n}" for n in sc.notes)]:
        out.print(one_line(line), markup=False, highlight=False)
    t = Table(title="Annotators (bias: against the others; the biases sum to zero)")
    for col in ("annotator", "ratings", "bias", "noise (SD)"):
        t.add_column(col)
    for r in sc.raters:
        b, n = sc.bias[r], sc.noise[r]
        t.add_row(str(r), str(b.details["n_ratings"]), _num(b.estimate, "+.3f"),
                  _num(n.estimate, ".3f"))
    out.print(t)
    if output is not None:
        out.print(one_line(f"wrote {len(sc.units)} units to {output}"), markup=False,
                  highlight=False)


def _num(x: float, spec: str) -> str:
    return "undefined" if not math.isfinite(x) else format(x, spec)


def _unit_header(unit: str | None, others: tuple[str, ...]) -> str:
    """The unit column's name in a written CSV: the user's (``--unit``), so the file joins
    back onto the data; ``unit`` when none was named or the name is one of ``others``."""
    return unit if unit and unit not in others else "unit"


def _write(path: str, c: Any, unit_header: str) -> None:
    _write_rows(path, [_unit_header(unit_header, ("label", "posterior", "n_ratings")),
                       "label", "posterior", "n_ratings"],
                ([row["unit"], row["label"], repr(row["posterior"]), row["n_ratings"]]
                 for row in c.rows()))


def _write_rows(path: str, header: list[str], rows: Any) -> None:
    """A CSV written atomically, every text cell guarded as the disagreements review is
    (:func:`accord.data._text.neutralise_cell`): a label such as ``=HYPERLINK(...)`` is
    text in a spreadsheet; labels are otherwise kept exact."""
    import csv
    import io

    from accord.data._files import write_atomic
    from accord.data._text import neutralise_cell

    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow([neutralise_cell(h) for h in header])
    for row in rows:
        out.writerow([neutralise_cell(x) if isinstance(x, str) else
                      x if isinstance(x, int) else neutralise_cell(str(x)) for x in row])
    write_atomic(path, buf.getvalue())


def _print_consensus(ann: Any, c: Any, output: str | None, quality: Any = None,
                     said: str | None = None) -> None:
    from rich.table import Table

    out = console()
    if said is not None:
        out.print(one_line(said), markup=False, highlight=False)
    for line in ann.audit.lines():
        out.print(one_line(line), markup=False, highlight=False)
    fit = "" if c.method in ("majority", "wawa", "crowdlab") else (
        f" after {c.n_iter} iterations (log-likelihood {c.log_likelihood:.6g}"
        f"{'' if c.converged else ', NOT converged'})")
    out.print()
    out.print(f"{c.method}: {len(c.units)} units labelled{fit}; {len(c.uncertain)} below "
              f"{c.threshold:g}, {len(c.tied)} tied, {len(c.single_rated)} rated once.",
              markup=False, highlight=False)
    for note in c.notes:
        out.print(one_line(f"note: {note}"), markup=False, highlight=False)
    if c.model is not None:
        acc = c.model.accuracy
        ci = acc.confidence_interval()
        voice = (f"model: one more annotator ({c.model.vote} vote) on {c.model.n_units} "
                 f"units, the weight of its vote {_num(c.model.weight, '.3f')} (the median "
                 f"annotator's {_num(c.model.crowd_weight, '.3f')})")
        if c.model.vote == "tie-break":
            voice = (f"model: breaks the crowd's ties only on the {c.model.n_units} units it "
                     "scored (majority vote learns no reliability, so it does not outvote "
                     "the crowd)")
        out.print(one_line(
            f"{voice}; estimated accuracy {_num(acc.estimate, '.3f')} (95% Wilson CI "
            f"{_num(ci.low, '.3f')}-{_num(ci.high, '.3f')})."), markup=False, highlight=False)
    if quality is not None:
        out.print(one_line(f"quality: the {quality.estimate}, the estimated probability "
                           "that the label is right."), markup=False, highlight=False)
    rows = c.rows()
    scores = {} if quality is None else dict(zip(quality.units, quality.consensus.tolist()))
    t = Table(title="Least certain units first" + ("" if len(rows) <= 20 else " (first 20)"))
    marks = [", ".join(k.replace("_", " ") for k in ("tied", "single_rated") if r[k])
             for r in rows[:20]]
    cols = ("unit", "label", "posterior", *(["quality"] if scores else []), "ratings",
            *(["flag"] if any(marks) else []))
    for col in cols:
        t.add_column(col)
    for r, mark in zip(rows[:20], marks):
        t.add_row(str(r["unit"]), str(r["label"]), f"{r['posterior']:.3f}",
                  *([f"{scores[r['unit']]:.3f}"] if scores else []),
                  str(r["n_ratings"]), *([mark] if any(marks) else []))
    out.print(t)
    if output is not None:
        out.print(one_line(f"wrote {len(rows)} units to {output}"), markup=False, highlight=False)


@main.command()
@data_options
@shared("--gold", help="The reference labels: a column of wide data or a rater of long data "
        "(else accuracy is measured against the consensus); with --engine, a column of DATA "
        "holding each unit's reference label.")
@shared("--consensus-method", aliases=["--method"])
@_fit_options
@shared("--confidence-level", help="Level of the accuracy intervals behind the flags.")
@click.option("--interval", "interval", type=click.Choice(["wilson", "bootstrap"]),
              default="wilson", show_default=True,
              help="The accuracy interval behind the flags: Wilson's score interval from "
              "each annotator's counts, or a bootstrap over their units (--n-resamples, "
              "--seed).")
@shared("--n-resamples", help="Bootstrap resamples of each annotator's units with "
        "--interval bootstrap (at most 10^7).")
@shared("--seed")
@click.option("--model", "model_file", default=None, metavar="FILE_OR_COLUMNS",
              help="A model's class probabilities (or top label and confidence), read as by "
              "the consensus command's --model: one more annotator of the consensus, listed "
              "with its estimated accuracy and interval. Not with glad.")
@engine_options
@shared("--json", help="Print JSON instead.")
def annotators(data: str, gold: str | None, consensus_method: str, tol: float, max_iter: int,
               accelerate: bool, confidence_level: float, interval: str, n_resamples: int,
               seed: int | None, model_file: str | None, engine: str | None,
               scheduler: str | None, master: str | None, as_json: bool,
               **selection: Any) -> None:
    """One row per annotator of DATA: accuracy (against --gold, else the consensus) with
    an interval, agreement with the others, competence, label bias; the annotators worth
    checking first.

    \b
    Examples:
      accord annotators examples/crowd.csv --unit image --rater worker --value label
      accord annotators examples/crowd.csv --unit image --rater worker --value label \\
        --gold expert --json
      accord annotators examples/pilot.csv --raters annotator_a annotator_b annotator_c \\
        --consensus-method majority
      accord annotators examples/crowd.csv --unit image --rater worker --value label \\
        --model examples/crowd_model.csv
      accord annotators examples/crowd.csv --unit image --rater worker --value label \\
        --engine dask --scheduler tcp://127.0.0.1:8786

    With --engine the engine fits majority, wawa, one_coin, dawid_skene or mace and counts
    the figures where the data live (long data; no --model; --gold names a column of
    DATA); the kappa against the others has no interval there (its JSON details say why).
    """
    import accord
    from accord.errors import InvalidParameterError

    _refuse_combinations(consensus_method, engine, model_file, False)
    if engine is not None:
        require_long(selection, "annotators")
    frame = engine_frame(data, engine, scheduler, master, selection)
    if frame is not None:
        try:
            q, ann = engine_annotators(
                frame, consensus_method, selection, data, engine, gold=gold, tol=tol,
                max_iter=max_iter, accelerate=accelerate, confidence_level=confidence_level,
                n_resamples=n_resamples if interval == "bootstrap" else None, rng=seed)
        except InvalidParameterError as exc:
            raise click.UsageError(str(exc)) from None
        _emit_annotators(ann, q, None, as_json)
        return
    try:
        model, said = (None, None) if model_file is None else read_model(
            model_file, data, selection.get("unit"))
        ann = single_labels(load(data, select_raters=gold is None, **selection), "annotators")
        q = accord.annotators(ann, reference=gold,
                              method=consensus_method,  # type: ignore[arg-type]
                              tol=tol, max_iter=max_iter, confidence_level=confidence_level,
                              n_resamples=n_resamples if interval == "bootstrap" else None,
                              rng=seed, accelerate=accelerate, model=model)
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None
    _emit_annotators(ann, q, said, as_json)


def _emit_annotators(ann: Any, q: Any, said: str | None, as_json: bool) -> None:
    if as_json:
        doc = q.to_dict()
        emit("annotators", {"results": doc.pop("annotators"), **doc,
                            "caveats": list(ann.audit.caveats), "audit": ann.audit.to_dict()})
        return
    _print_annotators(ann, q, said)


def _print_annotators(ann: Any, q: Any, said: str | None = None) -> None:
    from rich.table import Table

    out = console()
    if said is not None:
        out.print(one_line(said), markup=False, highlight=False)
    for line in ann.audit.lines():
        out.print(one_line(line), markup=False, highlight=False)
    against = "the reference" if q.against == "reference" else (
        f"the {q.consensus.method} consensus (which each annotator helped make)")
    out.print()
    out.print(f"Accuracy against {against}; the pool: {_pct(q.pool_accuracy)}.",
              markup=False, highlight=False)
    for row in q.flagged:
        out.print(one_line(f"check: {row.flag}"), markup=False, highlight=False)
    from accord.annotators.quality import display_order

    level = f"{q.confidence_level:.0%}"
    t = Table(title="Annotators (flagged first, lowest accuracy first; then by accuracy)")
    for col in ("annotator", "units", "accuracy",
                f"{level} CI ({'Wilson' if q.interval == 'wilson' else 'bootstrap'})",
                "kappa vs others", "competence", "spammer score", "label bias"):
        t.add_column(col)
    for r in display_order(q):
        t.add_row(str(r.name), str(r.n_units), _pct(r.accuracy.estimate), _ci(r, q),
                  _f(r.agreement.estimate), _f(r.competence), _f(r.spammer_score),
                  _f(r.bias))
    voice = q.consensus.model
    if voice is not None:
        ci = voice.accuracy.confidence_interval(q.confidence_level)
        t.add_row("(model)", str(voice.n_units), _pct(voice.accuracy.estimate),
                  f"{_pct(ci.low)} to {_pct(ci.high)}", "", "", "", "")
    out.print(t)
    if voice is not None:
        how = {"soft": "its accuracy is the fit's estimate (the expected probability it "
                       "puts on the true class)",
               "weighted": "its accuracy is its agreement with the consensus on the units "
                           "it scored that were rated more than once"}.get(
            voice.vote, "its accuracy is its agreement with the consensus on the untied "
                        "units it voted on")
        role = ("it breaks the majority's ties only" if voice.vote == "tie-break" else
                f"one more annotator of the consensus ({voice.vote} vote)")
        out.print(one_line(f"(model): {role}; {how}, its interval Wilson's."),
                  markup=False, highlight=False)


def _ci(row: Any, q: Any) -> str:
    """The accuracy interval behind the flags (the flagged rows' own bootstrap figures are
    in their sentences; the others' bootstrap is not run, said as such)."""
    if q.interval != "wilson":
        return "see the flag" if row.flag else ""
    ci = row.accuracy.confidence_interval(q.confidence_level)
    return "" if not math.isfinite(ci.low) else f"{_pct(ci.low)} to {_pct(ci.high)}"


def _pct(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.1%}"


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"
