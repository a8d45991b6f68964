"""Building the report model: :func:`report`.

One function computes everything a reviewer needs and returns a plain
:class:`~accord.report.model.Report`; the renderers only format it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DegenerateDataWarning, UndeclaredOrderWarning
from accord.inference import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.spans import SpanTable
from accord.report._data import _data_summary
from accord.report.annotators_section import check_options, with_annotators
from accord.report.job import raters_headline, with_job
from accord.report.judge_lab_section import judge_lab_section
from accord.report.judge_section import declared_judge
from accord.report.lab_report import lab_only, lab_report, lab_results, unwrap
from accord.report.model import PairAnalysis, Report, Settings
from accord.report.multilabel_section import set_options
from accord.report.reference import reference_section
from accord.report.rows import primary as primary_of
from accord.report.rows import row, scale_of
from accord.report.sections import MAX_RATERS
from accord.report.shapes_report import no_threshold, shape_annotations, shape_kind
from accord.report.spans_section import has_spans, span_annotations
from accord.study.protocol import Study, load_study

__all__ = ["report"]

FUNC = "report"


def report(
    annotations: Any,
    study: Study | str | Path | None = None,
    *,
    coefficients: Sequence[str] | None = None,
    raters: Sequence[Any] | None = None,
    pairs: Sequence[tuple[Any, Any]] | None = None,
    weights: str | None = None,
    level: str | None = None,
    form: str | None = None,
    confidence_level: float | None = None,
    method: str | Bootstrap | None = None,
    n_resamples: int = 9999,
    seed: int | None = None,
    scale: str | None = None,
    top_units: int = 20,
    title: str | None = None,
    judge: Any = None,
    humans: Sequence[Any] | None = None,
    epsilon: float = 0.2,
    context: Mapping[str, Mapping[Any, str]] | None = None,
    judge_lab: Any = None,
    annotators_method: str | None = None,
    annotators_accelerate: bool = False,
    annotators_model: Any = None,
    iou_threshold: float | None = None,
    oks_threshold: float | None = None,
    sigmas: Mapping[str, float] | None = None,
) -> Report:
    """The agreement report of ``annotations``, optionally against a declared ``study``.

    Parameters
    ----------
    annotations : Annotations, a SpanTable, a PreferenceResult, a units x raters table or None
        The ratings (e.g. from :func:`accord.read`). Pairwise preferences
        (:func:`accord.preferences`) are read as their normalised verdicts and get the
        judge-lab sections (position, length, self-preference); the preferences of one
        judge alone, or ``None`` with ``judge_lab=``, give the judge-lab report. Data
        that hold spans only (a span export, a span table, a ``SpanTable``) give the
        span report (:mod:`.spans_section`); boxes, polygons or keypoints only (an export,
        a table with x, y, w, h columns, a ``BoxTable``, ``PolygonTable`` or
        ``KeypointTable``) the shape report (:mod:`.shapes_report`).
    study : Study or path, optional
        A declared protocol (:func:`accord.load_study`): the report then shows the
        evidence register and the acceptance decision. The study's annotators and
        category order are applied, and its metric settings are the defaults.
    coefficients : sequence of str, optional
        Registry names; default: the sensible set for the data (plus the study's).
    raters : sequence, optional
        Analyse only these raters.
    pairs : sequence of (rater, rater), optional
        The rater pairs whose worksheet is shown; default: the only pair, all
        three pairs of three raters, or the least and most agreeing pairs.
    weights, level, form
        Routed to the coefficients that take them (as in ``accord compute``).
    confidence_level : float, optional
        Default: the study's, else 0.95.
    method : {"asymptotic", "jackknife", "bootstrap"} or Bootstrap, optional
        Interval method; default: the study's, else ``"asymptotic"``.
    n_resamples, seed : int
        For ``method="bootstrap"`` and every other resampling of the report (the
        annotators' intervals, the judge's, the spans'); the seed defaults to
        ``DEFAULT_SEED`` (0), so the same data give the same report on every run.
    scale : str, optional
        Interpretation scale for every coefficient; default: the one written for
        each (Landis & Koch, Krippendorff for alpha, Koo & Li for ICCs).
    top_units : int
        How many of the units with most disagreement to list.
    title : str, optional
    judge : str, optional
        A rater to judge as a replacement for a human (an LLM): the report gets a
        section with the alternative annotator test (:func:`accord.alt_test`) and the
        judge's agreement next to the human ceiling (:func:`accord.judge_agreement`);
        the rest of the report is about the humans only.
    humans : sequence, optional
        The humans the judge is compared with (default: every other rater of kind human).
    epsilon : float
        The alt-test's allowance (0.2 expert, 0.15 skilled, 0.1 crowd annotators).
    context : mapping, optional
        ``{column: {unit: text}}``: the item's text and other columns a reviewer
        adjudicates with, shown beside the units with most disagreement.
    judge_lab : result or sequence of results, optional
        Judge-lab results, each its own section in the order given: ``PreferenceResult``,
        ``BradleyTerryResult`` (with a chart of the strengths), ``JudgeCalibration`` (with
        the reliability diagram), ``JudgeConsistency``, :func:`accord.ppi_mean`'s result,
        ``JudgePanel`` (:func:`accord.judge_panel`).
        Without ratings the job is the first one's question (:mod:`~.lab_report`).
    annotators_method : {"majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"}
        The consensus of the Annotators section (three or more raters of single labels,
        no reference, judge or study); default Dawid-Skene. ``annotators_accelerate``
        fits one-coin and Dawid-Skene with SQUAREM (:func:`accord.annotators`'s
        ``accelerate``). Either given when the report has no such section is said in
        ``notes``.
    annotators_model : DataFrame or mapping, optional
        A model's class probabilities (rows units, columns labels, as
        :func:`accord.consensus`'s ``model=``): one more annotator of the section's
        consensus, whose reliability the fit learns. The section then gains "The model
        as an annotator" (the weight of its vote, its estimated accuracy with its
        interval, its agreement with the consensus) and "Relabel these first"
        (:meth:`Consensus.relabel <accord.annotators.result.Consensus.relabel>`, each
        unit with its reason). Not with ``annotators_method="glad"``; given when the
        report has no such section, it is said in ``notes``.
    iou_threshold : float, optional
        Box or polygon data: two shapes match when their IoU is at least this (default 0.5).
    oks_threshold : float, optional
        Keypoint data: two objects match when their OKS is at least this (default 0.5).
    sigmas : mapping of keypoint name to float, optional
        Keypoint data: each keypoint's sigma in the OKS (default COCO's).

    Returns
    -------
    Report
        ``DegenerateDataWarning``\\ s met while computing are not re-emitted: they
        are kept in ``report.notes`` and each undefined figure shows its reason.

    Examples
    --------
    Eight units, p_o = 7/8 and p_e = (2 * 3 + 6 * 5) / 64, so kappa = 0.3125 / 0.4375:

    >>> import accord
    >>> a = ["spam", "ok", "ok", "ok", "spam", "ok", "ok", "ok"]
    >>> b = ["spam", "ok", "ok", "spam", "spam", "ok", "ok", "ok"]
    >>> rep = accord.report(accord.Annotations.from_pairs(a, b))
    >>> print(rep.headline)
    rater_1 and rater_2 agree on 87.5% of the 8 units both rated; Cohen's kappa = 0.7143
    (95% CI 0.2123 to 1.0000), Substantial on Landis & Koch (1977).
    """
    from accord.coefficients._data import as_annotations
    from accord.data._names import DEFAULT_SEED

    seed = DEFAULT_SEED if seed is None else seed  # every resampling seeded, and said
    coefficients = _check_names(coefficients, form)
    check_options(annotators_method, annotators_accelerate, FUNC, annotators_model)
    lab = lab_results(annotations, judge_lab, FUNC)
    if lab_only(annotations):
        settings, ci_method = _settings(None, confidence_level, method, n_resamples, seed,
                                        scale, None, None)
        return with_job(lab_report(lab, settings, ci_method, title), title, None)
    annotations, judge = unwrap(annotations, judge)
    ann = as_annotations(_of_table(annotations), raters=raters, func=FUNC, sets=True)
    kind = shape_kind(ann)
    if kind is not None:
        _thresholds(kind, iou_threshold, oks_threshold, sigmas)
        return _spans(ann, _study_of(study), judge if judge is not None else (lab or None),
                      confidence_level, method, n_resamples, seed, scale, top_units, title,
                      kind, oks_threshold if kind == "keypoints" else iou_threshold, sigmas)
    _thresholds(None, iou_threshold, oks_threshold, sigmas)
    judge = declared_judge(ann, judge, study)
    coefficients, level = set_options(ann, coefficients, level, judge, pairs, FUNC)
    top_units = v.positive_int(top_units, param="top_units", func=FUNC)
    st = _study_of(study)
    if has_spans(ann):
        return _spans(ann, st, judge if judge is not None else (lab or None),
                      confidence_level, method, n_resamples, seed, scale,
                      top_units, title)
    section = None
    if judge is not None:
        ann, section = _judge(ann, judge, humans, epsilon, seed)
    raw = ann
    study_notes: tuple[str, ...] = ()
    if st is not None:
        ann, study_notes = st.prepare(ann)
    ann.require_pairable()
    full, ann, people_note = _people(ann, st)
    settings, ci_method = _settings(st, confidence_level, method, n_resamples, seed, scale,
                                    weights, level)
    noted = (DegenerateDataWarning, UndeclaredOrderWarning)
    with warnings.catch_warnings(record=True) as caught:
        for category in noted:
            warnings.simplefilter("always", category)
        model = _build(ann, raw, st, study_notes, settings, ci_method, coefficients, pairs,
                       form, top_units, title)
        if context is not None:
            from accord.report.sections import units_section

            model = replace(model, units=units_section(ann, top_units, context))
        model = _add_sections(model, full, ann, settings, ci_method)
        model = with_annotators(replace(model, judge=section), ann, annotators_method,
                                annotators_accelerate, annotators_model)
        model = replace(model, judge_lab=judge_lab_section(lab, settings.confidence_level,
                                                           ci_method) if lab else None)
    notes = tuple(dict.fromkeys(str(w.message) for w in caught
                                if issubclass(w.category, noted))) + people_note
    once = model.data.units_rated_once
    raw_based = {"gwet_ac1", "brennan_prediger", "percent_agreement"}
    if model.data.n_raters == 2 and once and raw_based & {r.coefficient for r in model.results}:
        both = model.data.units_complete
        notes += (f"{once} unit(s) were rated by one rater only. Gwet's AC1/AC2, "
                  "Brennan-Prediger and the SE of percent agreement use them too (Gwet 2014; "
                  "R irrCAC's *.raw functions), so they count all units; Cohen's kappa, Scott's "
                  f"pi, the worksheet and the kappa context use the {both} units both rated.",)
    if settings.weights not in (None, "identity") and model.pairs:
        notes += (f"The worksheets give the {settings.weights}-weighted p_o, p_e and kappa "
                  "next to the unweighted ones; the figures under 'why kappa can be low' are "
                  "unweighted.",)
    for w in caught:
        if not issubclass(w.category, noted):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return with_job(replace(model, notes=model.notes + notes), title, st)


def _of_table(annotations: Any) -> Any:
    """A span or shape table as the annotations a reader gives for it; anything else as is."""
    if isinstance(annotations, SpanTable):
        return span_annotations(annotations)
    if type(annotations).__name__ in ("BoxTable", "PolygonTable", "KeypointTable"):
        return shape_annotations(annotations)
    return annotations


def _thresholds(kind: str | None, iou: Any, oks: Any, sigmas: Any) -> None:
    """Refuse the options of a shape the data do not hold (they would change nothing)."""
    if kind not in ("boxes", "polygons"):
        no_threshold(iou, "iou_threshold", FUNC, "boxes or polygons")
    if kind != "keypoints":
        no_threshold(oks, "oks_threshold", FUNC, "keypoints")
        no_threshold(sigmas, "sigmas", FUNC, "keypoints")


def _study_of(study: Any) -> Study | None:
    st = load_study(study) if isinstance(study, (str, Path)) else study
    if st is not None and not isinstance(st, Study):
        raise v.fail("study", FUNC, "an accord.Study, a path to a TOML file or None", st)
    return st


def _check_names(coefficients: Sequence[str] | None, form: str | None) -> list[str] | None:
    """Coefficient names as a list; an unknown form is an error even when no ICC is computed."""
    if form is not None:
        from accord.coefficients.intraclass import form_of

        form_of(form)
    if coefficients is None:
        return None
    return list(v.names(coefficients, param="coefficients", func=FUNC))


def _spans(ann: Annotations, st: Study | None, judge: Any, confidence_level: float | None,
           method: Any, n_resamples: int, seed: int | None, scale: str | None, top_units: int,
           title: str | None, kind: str = "spans", threshold: float | None = None,
           sigmas: Mapping[str, float] | None = None) -> Report:
    """The report of span-only (or box-, polygon-, keypoint-only) data."""
    from accord.errors import DataError
    from accord.report.shapes_report import shape_report
    from accord.report.spans_section import span_report

    if st is not None or judge is not None:
        if isinstance(judge, list):  # judge_lab= results
            one = "box" if kind == "boxes" else kind[:-1]
            raise DataError(f"{FUNC}: the data hold {kind} only, and the {one} report has "
                            "no judge-lab sections; report them alone with "
                            "accord.report(None, judge_lab=...).")
        what = "a study" if st is not None else "a judge"
        gate = ("gate spans with accord check --coefficient span_f1" if kind == "spans"
                else f"compare {kind} with accord {kind}")
        raise DataError(f"{FUNC}: the data hold {kind} only, and {what} is checked on labels "
                        f"per unit; {gate}.")
    settings, ci_method = _settings(None, confidence_level, method, n_resamples, seed, scale,
                                    None, None)
    noted = (DegenerateDataWarning,)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        rep = (span_report(ann, settings, ci_method, top_units, title) if kind == "spans"
               else shape_report(ann, settings, ci_method, title, threshold,
                                 {"sigmas": sigmas}))
    notes = tuple(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, noted)))
    for w in caught:
        if not issubclass(w.category, noted):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return with_job(replace(rep, notes=rep.notes + notes), title, None)


def _judge(ann: Annotations, judge: Any, humans: Sequence[Any] | None, epsilon: float,
           seed: int | None) -> tuple[Annotations, Any]:
    """The judge section, and the annotations without the judge for the rest of the report."""
    from accord.report.judge_section import judge_section

    section = judge_section(ann, judge, humans, epsilon, seed)
    return ann.select(list(section.alt.humans)), section


def _build(ann: Annotations, raw: Annotations, st: Study | None, study_notes: tuple[str, ...],
           settings: Settings, ci_method: Any, coefficients: Sequence[str] | None,
           pairs: Sequence[tuple[Any, Any]] | None, form: str | None, top_units: int,
           title: str | None) -> Report:
    from accord._version import __version__
    from accord.report import sections
    from accord.report.register import study_section
    results = _results(ann, st, coefficients, settings, form)
    pairs_of = [row(r, settings, ci_method, ann.level) for r in results]
    primary = primary_of(tuple(r for r, _ in pairs_of), st)
    if settings.scale is None and primary is not None:  # one scale per family in the table
        pairs_of = [row(r, replace(settings, scale=scale_of(primary, r.coefficient)),
                         ci_method, ann.level) for r in results]
    rows = tuple(r for r, _ in pairs_of)
    intervals = tuple(ci for _, ci in pairs_of)
    data = _data_summary(ann, settings.weights)
    study = None if st is None else study_section(st, raw, ann, study_notes)
    loo_name: str | None = None
    rater_rows: tuple[Any, ...] = ()
    pw: Any = None
    analyses: tuple[PairAnalysis, ...] = ()
    crowd_note: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    if not ann.set_valued:  # label sets: the multilabel section instead of the worksheets
        loo_name, rater_rows = sections.rater_rows(ann, primary, settings, form)
        # a crowd: the pairs that share most units
        crowd = (sections.crowd_pairs if ann.n_raters > MAX_RATERS else sections.few_pairs)(ann)
        pw, crowd_note = crowd.result, (crowd.note,) if crowd.note else ()
        left_out = crowd_note if crowd.over_budget else ()
        analyses = sections.pair_analyses(ann, pairs, settings.confidence_level, pw,
                                          settings.weights)
    elif ann.n_raters > MAX_RATERS:
        crowd_note = (f"With {ann.n_raters:,} raters leave-one-out is left out (more than "
                      f"{MAX_RATERS} raters).",)
    return Report(
        title=title or (st.title if st is not None and st.title else "Agreement report"),
        headline=raters_headline(ann, rows, primary, analyses), accord_version=__version__,
        data=data,
        settings=settings, coefficients=tuple(rows), primary=primary, pairs=analyses,
        raters=rater_rows, loo_coefficient=loo_name, matrix=sections.rater_matrix(pw),
        units=sections.units_section(ann, top_units),
        bootstrap=sections.bootstrap_summary(results, intervals, primary, ci_method),
        study=study, notes=crowd_note, results=tuple(results), left_out=left_out,
    )


def _add_sections(model: Report, full: Annotations, ann: Annotations, settings: Settings,
                  ci_method: Any) -> Report:
    """Model against reference (single labels), or the multilabel section (label sets)."""
    if not ann.set_valued:
        return replace(model, reference=reference_section(full, settings.confidence_level))
    from accord.report.multilabel_section import multilabel_section

    return replace(model, multilabel=multilabel_section(ann, settings.confidence_level,
                                                        ci_method))


def _people(ann: Annotations,
            st: Study | None) -> tuple[Annotations, Annotations, tuple[str, ...]]:
    """With a reference and systems among the raters (kinds gold and model/llm) and at
    least two people, the agreement figures are the people's; the reference and the
    systems go to "Model against reference". Returns (all raters, the raters for the
    agreement figures, a note)."""
    from accord.report.reference import has_reference

    people = [r for r in ann.raters if ann.kinds.get(r, "human") == "human"]
    if ann.set_valued and st is None and has_reference(ann):
        return ann, ann, ("The ratings are sets of labels: the reference and the systems are "
                          "raters like the others here; score them against the reference with "
                          "accord.evaluate_multilabel (accord multilabel --reference).",)
    if st is not None or not has_reference(ann) or len(people) < 2:
        return ann, ann, ()
    others = [r for r in ann.raters if r not in people]
    note = (f"The agreement figures use the {len(people)} human raters; "
            f"{', '.join(repr(r) for r in others)} (reference and systems) are set against "
            "the reference in 'Model against reference'.")
    return ann, ann.select(people).require_pairable(), (note,)


def _settings(st: Study | None, confidence_level: float | None, method: Any, n_resamples: int,
              seed: int | None, scale: str | None, weights: str | None,
              level: str | None) -> tuple[Settings, Any]:
    metric = st.metric if st is not None else None
    cl = confidence_level if confidence_level is not None else (
        metric.confidence_level if metric is not None else 0.95)
    cl = v.confidence_level(cl, func=FUNC)
    if method is None:
        method = metric.method() if metric is not None else "asymptotic"
    if isinstance(method, str):
        v.choice(method, ("asymptotic", "jackknife", "bootstrap"), param="method", func=FUNC)
        if method == "bootstrap":
            method = Bootstrap(n_resamples=v.positive_int(n_resamples, param="n_resamples",
                                                          func=FUNC), rng=seed)
    elif not isinstance(method, Bootstrap):
        raise v.fail("method", FUNC, "'asymptotic', 'jackknife', 'bootstrap' or a Bootstrap",
                     method)
    if isinstance(method, Bootstrap) and method.rng is None and seed is not None:
        method = replace(method, rng=seed)
    if scale is not None:
        from accord.interpret.interpretation import SCALES

        v.choice(scale, list(SCALES), param="scale", func=FUNC)
    boot = method if isinstance(method, Bootstrap) else None
    label = f"bootstrap-{boot.kind}" if boot is not None else str(method)
    boot_seed = boot.rng if boot is not None and isinstance(boot.rng, int) else None
    return Settings(
        confidence_level=cl, method=label, n_resamples=None if boot is None else boot.n_resamples,
        seed=boot_seed if boot is not None else seed, scale=scale,
        weights=weights if weights is not None else (metric.weights if metric else None),
        level=level if level is not None else (metric.level if metric else None),
    ), method


def _results(ann: Annotations, st: Study | None, coefficients: Sequence[str] | None,
             settings: Settings, form: str | None) -> list[AgreementResult]:
    """The named coefficients, or the default set (options routed only where they apply);
    the study's coefficient is added in front when it is not among them."""
    from accord.coefficients.multilabel import MAX_SETS_FOR_ALPHA
    from accord.interpret.selection import compute

    if ann.set_valued and len(ann.categories) > MAX_SETS_FOR_ALPHA:
        return []  # alpha on the sets compares every pair of distinct sets: see the note
    options = {"weights": settings.weights, "level": settings.level, "form": form}
    results = compute(ann, list(coefficients) if coefficients is not None else None, **options)
    if st is not None and st.metric.coefficient not in [r.coefficient for r in results]:
        results = compute(ann, [st.metric.coefficient], **options) + results
    return results
