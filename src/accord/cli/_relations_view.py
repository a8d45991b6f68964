"""What ``accord spans`` shows about relations: a verdict, per-type rows, the disputed ones."""

from __future__ import annotations

from typing import Any

from accord.cli._spans_view import _cell, _Ci
from accord.spans._relkappa import NO_RELATION


def relations_model(
    ann: Any, relations: Any, mode: str, symmetric: tuple[str, ...], raters: list[str] | None,
    ci: _Ci, n_disputes: int,
) -> dict[str, Any]:  # fmt: skip
    """The relations part of the spans model: sentence, tables and JSON."""
    from accord.spans import relation_agreement

    res = relation_agreement(ann, relations, mode=mode, symmetric=symmetric,  # type: ignore[arg-type]
                             raters=raters, n_disputes=n_disputes)  # fmt: skip
    pct = f"{ci.level:.0%} CI"
    f1, f1_ci, f1_js = _cell(res.f1, ci)
    kappa, kappa_ci, kappa_js = _cell(res.kappa, ci)
    if isinstance(kappa_js.get("per_category"), dict):  # the type of an unlinked pair, as a key
        kappa_js["per_category"] = {("no_relation" if k == NO_RELATION else k): v
                                    for k, v in kappa_js["per_category"].items()}
    c = res.counts
    results = [{"figure": "f1", "type": None, **f1_js}, {"figure": "kappa", "type": None,
                                                         **kappa_js}]  # fmt: skip
    types: list[list[Any]] = [["type", "F1", pct]]
    for name, r in res.per_type.items():
        est, shown, js = _cell(r, ci)
        types.append([name or "(no type)", est, shown])
        results.append({"figure": "f1", "type": name, **js})
    pairs: list[list[Any]] = [["raters", "c/i/m/s", "unmatched arguments m/s"]]
    for (a, b), pc in res.pairs.items():
        pairs.append([f"{a} / {b}", f"{pc.correct}/{pc.incorrect}/{pc.missed}/{pc.spurious}",
                      f"{pc.missed_unmatched_arguments}/{pc.spurious_unmatched_arguments}"])
    disputes: list[list[Any]] = [["unit", "head", "tail", "types"]]
    for d in res.disputes:
        shown_types = ", ".join(f"{r}: {t}" for r, t in d.types.items())
        disputes.append([d.unit, d.head, d.tail, shown_types])
    verdict = (
        f"relations, arguments matched {mode}: mean pairwise F1 "
        f"{' '.join(x for x in (f1, f1_ci) if x)}, {res.kappa.details.get('kind', 'kappa')} "
        f"on the type {' '.join(x for x in (kappa, kappa_ci) if x)}; "
        f"{c.correct} agreed, {c.incorrect} with another type, {c.missed + c.spurious} drawn by "
        f"one rater only ({c.missed_unmatched_arguments + c.spurious_unmatched_arguments} of them "
        "because the other rater's spans did not match the arguments)"
    )
    js = {
        "mode": mode, "results": results, "counts": c.to_dict(),
        "pairs": [{"raters": list(k), "counts": v.to_dict()} for k, v in res.pairs.items()],
        "disputes": [d.to_dict() for d in res.disputes], "notes": list(res.notes),
        "symmetric": list(symmetric),
    }  # fmt: skip
    return {
        "verdict": verdict,
        "notes": [f"relations: {n}" for n in res.notes],
        "json": js,
        "tables": {"relations: rater pairs (correct/incorrect/missed/spurious)": pairs,
                   "relations per type (mean F1 over pairs)": types,
                   "most disputed relations": disputes if len(disputes) > 1 else []},
        "result": res,
    }  # fmt: skip

