"""``accord check --record STORE [--against-history]``: append the run, judge it by its past."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

#: Exit status of a batch the rule accepts and its history flags (``--against-history``).
DRIFT_ALARM = 3


def exit_status(accepted: bool, history: dict[str, Any] | None) -> int:
    """0 accepted, 1 rejected or undefined, 3 accepted by the rule and flagged by its
    history (a drift alarm)."""
    if not accepted:
        return 1
    return DRIFT_ALARM if (history or {}).get("flagged") else 0


def decision_line(decision: Any, history: dict[str, Any] | None) -> str:
    """The decision in one line, in the CLI's words; a drift alarm says so first."""
    from accord.cli._errors import cli_text

    line = cli_text(decision.line())  # e.g. "use --ci bootstrap", not "method=..."
    if exit_status(decision.accepted, history) == DRIFT_ALARM:
        line = ("DRIFT ALARM: the rule accepts the batch ("
                + line.removeprefix("ACCEPTED: ") + "), and its agreement dropped below "
                "the control limit of the earlier batches (exit 3)")
    return line


def record_options(func: Any) -> Any:
    """``--record STORE`` and ``--against-history``."""
    func = click.option(
        "--against-history", is_flag=True,
        help="With --record: a drift alarm (the line says DRIFT ALARM, exit 3) when the "
        "rule accepts the new batch and its agreement dropped below the control limit "
        "from the study's first batches (see accord history).")(func)
    return click.option(
        "--record", "record", type=click.Path(dir_okay=False, path_type=Path), default=None,
        metavar="STORE", help="Append this run's evidence register (time, file and its "
        "SHA-256, study, units, raters, figures with intervals, decision) to the history "
        "store STORE (one SQLite file; created if missing).")(func)


def record_run(store: Path, decision: Any, study: Any, data: str, raters: Any,
               caveats: list[str], against: bool, source: str | None = None,
               annotations: Any = None) -> dict[str, Any]:
    """Record the run (with per-annotator figures of ``annotations``); with ``against``,
    the control charts' verdict on it.

    Returns the JSON-ready history part of the output: the run id and, with
    ``against``, whether the new batch is flagged and why, and which annotators
    drifted (``annotators_flagged``: named, without changing the exit status).
    """
    from accord import __version__
    from accord.history.drift import annotator_charts, control_chart
    from accord.history.store import Figure, Run, Store, file_checksum, now

    paths = list(getattr(data, "paths", (data,)))
    rule = decision.rule
    name = (study.title or Path(study.source or "study").stem) if study is not None else ""
    revision = study.task.ontology_revision if study is not None else None
    per_annotator, note = _per_annotator(annotations)
    st = Store(store)
    run = Run(now(), name, (Figure.of(decision.result, decision.interval), *per_annotator),
              revision, source or str(data), file_checksum(paths), decision.result.n_units,
              decision.result.n_raters, tuple(str(r) for r in raters), decision.status,
              rule.text(), float(rule.threshold), __version__,
              {"decision": decision.to_dict(), "caveats": caveats,
               "per_annotator": note})
    run_id = st.record(run)
    out: dict[str, Any] = {"store": str(store), "run": run_id, "study": name}
    if against:
        runs = st.runs(name)
        chart = control_chart(runs, rule.coefficient)
        point = next((p for p in chart.points if p.run_id == run_id), None)
        out["flagged"] = bool(point is not None and point.flagged)
        out["reason"] = None if point is None else point.reason
        out["earlier_batches"] = 0 if point is None else point.n_baseline
        out["annotators_flagged"] = [
            {"annotator": c.rater, "reason": p.reason} for c in annotator_charts(runs)
            for p in c.points if p.run_id == run_id and p.flagged]
    return out


def _per_annotator(annotations: Any) -> tuple[tuple[Any, ...], str | None]:
    if annotations is None:
        return (), None
    from accord.history.annotator_figures import annotator_figures

    return annotator_figures(annotations)


def history_line(info: dict[str, Any]) -> str:
    """The history part of check's text output, one line."""
    where = f"recorded as run {info['run']} in {info['store']}"
    if "flagged" not in info:
        return where
    drifting = "".join(f"\nannotator drifting: {a['annotator']}: {a['reason']}"
                       for a in info.get("annotators_flagged", ()))
    if info["flagged"]:
        return f"FLAGGED against history: {info['reason']} ({where}){drifting}"
    if info["earlier_batches"] < 3:
        return (f"not judged against history: {info['earlier_batches']} earlier batch(es) of "
                f"this study, 3 needed ({where}){drifting}")
    return (f"within the control limit from the first {info['earlier_batches']} batches "
            f"({where}){drifting}")


def record_report(store: Path, rep: Any, study: Any, data: str,
                  annotations: Any = None) -> str:
    """Append the report's figures (every coefficient with its interval, and per-annotator
    figures of ``annotations``) and, with a study, its decision, as one run; the line that
    says so."""
    from accord import __version__
    from accord.history.store import Figure, Run, Store, file_checksum, now

    paths = list(getattr(data, "paths", (data,)))
    per_annotator, note = _per_annotator(annotations)
    figures = tuple(Figure(r.coefficient, r.estimate, r.se, r.ci_low, r.ci_high,
                           r.confidence_level, r.method, r.n_units,
                           undefined_reason=r.undefined_reason) for r in rep.coefficients)
    figures += per_annotator
    decision = rep.study.decision if rep.study is not None else None
    name = (study.title or Path(study.source or "study").stem) if study is not None else ""
    run = Run(now(), name, figures, study.task.ontology_revision if study is not None else None,
              str(data), file_checksum(paths), rep.data.n_units, rep.data.n_raters,
              tuple(rep.data.raters), None if decision is None else decision.status,
              None if decision is None else decision.rule.text(),
              None if decision is None else float(decision.rule.threshold), __version__,
              {"decision": None if decision is None else decision.to_dict(),
               "caveats": list(rep.data.caveats), "per_annotator": note})
    run_id = Store(store).record(run)
    return f"recorded as run {run_id} in {store}"
