"""What ``accord spans`` shows: rows of figures and a JSON mapping, from the library's results."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accord.inference import Bootstrap
from accord.inference.results import AgreementResult


@dataclass(frozen=True)
class _Ci:
    level: float
    n_resamples: int
    seed: int | None

    def of(self, res: AgreementResult) -> Any:
        """The bootstrap interval of ``res``, or None (no resamples, or undefined)."""
        if self.n_resamples == 0 or not res.defined:
            return None
        return res.confidence_interval(
            self.level, method=Bootstrap(n_resamples=self.n_resamples, rng=self.seed)
        )


def _fmt(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.4f}"


def _cell(res: AgreementResult, ci: _Ci) -> tuple[str, str, dict[str, Any]]:
    interval = ci.of(res)
    shown = "" if interval is None else f"[{_fmt(interval.low)}, {_fmt(interval.high)}]"
    out = res.to_dict()
    out["confidence_interval"] = None if interval is None else interval.to_dict()
    return _fmt(res.estimate), shown, out


def _agreement(ann: Any, mode: str, raters: list[str] | None, ci: _Ci) -> dict[str, Any]:
    from accord.spans import span_agreement

    res = span_agreement(ann, mode=mode, raters=raters)  # type: ignore[arg-type]
    pct = f"{ci.level:.0%} CI"
    pairs: list[list[Any]] = [["raters", "units", "F1", pct, "macro F1", "c/i/p/m/s"]]
    js: dict[str, Any] = {"mode": mode, "pairs": []}
    cells = []
    for (a, b), p in res.pairs.items():
        f1, shown, f1_js = _cell(p.f1, ci)
        cells.append((f1, shown, f1_js))
        c = p.counts
        pairs.append(
            [
                f"{a} / {b}",
                p.n_units,
                f1,
                shown,
                _fmt(p.macro_f1.estimate),
                "/".join(str(getattr(c, k)) for k in _KINDS),
            ]
        )
        js["pairs"].append({**p.to_dict(), "f1": f1_js})
    if len(cells) == 1 and cells[0][2]["estimate"] == res.f1.to_dict()["estimate"]:
        # one pair: its F1 is the mean, one figure with one interval in every place
        mean, shown, one = cells[0]
        js["f1"] = {**res.f1.to_dict(), "confidence_interval": one["confidence_interval"]}
    else:
        mean, shown, js["f1"] = _cell(res.f1, ci)
    js["macro_f1"] = res.macro_f1.to_dict()
    labels = [["label", "mean F1", pct]]
    js["per_label"] = {}
    for lab, r in res.per_label.items():
        est, lab_ci, js["per_label"][lab] = _cell(r, ci)
        labels.append([lab, est, lab_ci])
    js["notes"] = list(res.notes)
    figure = " ".join(x for x in (mean, shown) if x)
    headline = (
        f"spans, mode {mode}: mean pairwise F1 {figure} over {len(res.pairs)} rater pair(s); "
        f"macro F1 {_fmt(res.macro_f1.estimate)} (counts c/i/p/m/s: correct, incorrect, "
        "partial, spans of the first rater only, of the second only)"
    )
    return {
        "headline": headline,
        "notes": _notes(res.notes, res.pairs.values()),
        "json": js,
        "tables": {"rater pairs": pairs, "per label (mean over pairs)": labels},
    }


def _notes(notes: tuple[str, ...], pairs: Any) -> list[str]:
    out = list(notes)
    for p in pairs:
        left = {k: n for k, n in p.left_out.items() if n}
        if left:
            why = ", ".join(f"{n} {k}" for k, n in left.items())
            out.append(
                f"{p.raters[0]} / {p.raters[1]}: units annotated by only one of them "
                f"left out ({why})"
            )
    return out


def _against(ann: Any, mode: str, gold: str, raters: list[str] | None, ci: _Ci) -> dict[str, Any]:
    from accord.errors import DataError
    from accord.spans import evaluate_spans

    table = ann.spans
    others = [r for r in (raters or (table.raters if table is not None else ())) if r != gold]
    if table is not None and not others:
        raise DataError(f"accord spans: no rater besides the reference {gold!r} to score.")
    pct = f"{ci.level:.0%} CI"
    rows: list[list[Any]] = [["rater", "units", "precision", "recall", "F1", pct, "c/i/p/m/s"]]
    per_label = [["rater", "label", "precision", "recall", "F1"]]
    js: dict[str, Any] = {"mode": mode, "reference": gold, "raters": {}}
    notes: list[str] = []
    for r in others:
        res = evaluate_spans(ann, ann, mode=mode, reference_rater=gold, predicted_rater=r)  # type: ignore[arg-type]
        f1, shown, f1_js = _cell(res.f1, ci)
        c = res.counts
        rows.append(
            [
                r,
                res.n_units,
                _fmt(res.precision.estimate),
                _fmt(res.recall.estimate),
                f1,
                shown,
                "/".join(str(getattr(c, k)) for k in _KINDS),
            ]
        )
        for lab, s in res.per_label.items():
            per_label.append(
                [r, lab, _fmt(s.precision.estimate), _fmt(s.recall.estimate), _fmt(s.f1.estimate)]
            )
        js["raters"][r] = {**res.to_dict(), "f1": f1_js}
        notes += [f"{r}: {n}" for n in res.notes]
        left = {k: n for k, n in res.left_out.items() if n}
        if left:
            why = ", ".join(f"{n} {k}" for k, n in left.items())
            notes.append(f"{r}: units annotated by only one of {r} and {gold} left out ({why})")
    notes += _ceilings(ann, mode, gold, others, ci, js)
    headline = (
        f"spans, mode {mode}, against {gold} (counts c/i/p/m/s: correct, incorrect, "
        "partial, missed, spurious)"
    )
    return {
        "headline": headline,
        "notes": notes,
        "json": js,
        "tables": {f"against {gold}": rows, "per label": per_label},
    }


_KINDS = ("correct", "incorrect", "partial", "missed", "spurious")


def _ceilings(ann: Any, mode: str, gold: str, others: list[str], ci: _Ci,
              js: dict[str, Any]) -> list[str]:
    """The human ceiling of each system (a rater of kind model or llm, e.g. --kind
    NAME=model) against the humans among the raters scored; one sentence each."""
    from accord.evaluation._spans import with_ceiling
    from accord.inference import Bootstrap
    from accord.spans import evaluate_spans

    kinds = getattr(ann, "kinds", {})
    systems = [r for r in others if kinds.get(r) in ("model", "llm")]
    humans = tuple(r for r in others if kinds.get(r, "human") == "human")
    if not systems or not humans:
        return []
    if ci.n_resamples == 0:
        return ["human ceiling left out: its paired differences need --n-resamples above 0"]
    boot = Bootstrap(n_resamples=ci.n_resamples, rng=ci.seed or 0)
    out = []
    for system in systems:
        ev = evaluate_spans(ann, ann, mode=mode, reference_rater=gold,  # type: ignore[arg-type]
                            predicted_rater=system)
        ceiling = with_ceiling(ev, ann, gold, system, humans, mode, boot).ceiling  # type: ignore[arg-type]
        if ceiling is not None:
            js["raters"][system]["ceiling"] = ceiling.to_dict()
            out.append(f"human ceiling: {ceiling.sentence}")
    return out


def _disagreements(
    model: dict[str, Any], ann: Any, mode: str, gold: str | None, raters: Any, n: int
) -> None:
    """The first ``n`` disagreements, as a table and in the JSON (spans as read)."""
    from accord.spans import span_disagreements

    chosen = raters
    if gold is not None:
        chosen = [gold, *[r for r in (raters or ann.spans.raters) if r != gold]]
    rows = span_disagreements(ann, mode=mode, raters=chosen)  # type: ignore[arg-type]
    if gold is not None:
        rows = [d for d in rows if d.raters[0] == gold]
    shown = rows[:n]
    model["json"]["disagreements"] = [d.to_dict() for d in shown]
    model["json"]["n_disagreements"] = len(rows)
    table: list[list[Any]] = [["unit", "raters", "kind", "first", "second"]]
    for d in shown:
        table.append([str(d.unit), " / ".join(d.raters), d.kind, _span(d.first), _span(d.second)])
    model["tables"][f"disagreements (first {len(shown)} of {len(rows)})"] = table


def _span(s: Any) -> str:
    if s is None:
        return "-"
    # repr: control characters (terminal escapes, newlines) are shown escaped, never sent
    text = "" if s.text is None else " " + repr(s.text if len(s.text) <= 40 else s.text[:39] + "…")
    return f"{s.label} {s.start}-{s.end}{text}"


def _unitizing(model: dict[str, Any], ann: Any, names: tuple[str, ...],
               raters: list[str] | None, ci: _Ci) -> None:  # fmt: skip
    """alpha_U and gamma beside the F1: a table, a sentence each, ``unitizing`` in --json."""
    from accord.report.unitizing_section import SENTENCES
    pct = f"{ci.level:.0%} CI"
    rows: list[list[Any]] = [["coefficient", "estimate", pct, "details"]]
    js = []
    for name in dict.fromkeys(names):
        res = _unitizing_result(name, ann, raters, ci)
        if name == "gamma":
            est, shown, out = _cell(res, ci)
        else:  # no interval: D_e is not a sum over units
            est, shown, out = _fmt(res.estimate), "", {**res.to_dict(), "confidence_interval": None}
        d = res.details
        extra = (f"gamma-cat {_fmt(d['gamma_cat'])}, D_e Monte-Carlo SE "
                 f"{_fmt(d['expected_disorder_se'])}" if name == "gamma" else "no interval: "
                 "D_e is not a sum over units")  # fmt: skip
        rows.append([name, est, shown, extra])
        js.append({**out, "sentence": SENTENCES[name]})
        model["notes"].append(SENTENCES[name])
    model["tables"]["unitizing coefficients"] = rows
    model["json"]["unitizing"] = js


def _unitizing_result(name: str, ann: Any, raters: list[str] | None, ci: _Ci) -> Any:
    from accord.spans import gamma, unitizing_alpha

    if name == "unitizing_alpha":
        return unitizing_alpha(ann, raters=raters)
    spans = [s for s in ann.spans if raters is None or s.rater in raters]
    cols = {"doc": [s.unit for s in spans], "annotator": [str(s.rater) for s in spans],
            "label": [str(s.label) for s in spans], "start": [s.start for s in spans],
            "end": [s.end for s in spans]}  # fmt: skip
    return gamma(cols, rng=0 if ci.seed is None else ci.seed)
