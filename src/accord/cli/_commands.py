"""Where each command of ``accord`` is defined, and its short help, without importing it.

``accord`` imports a command's module only when that command runs (or its help is
shown), so that ``accord compute`` does not pay for the other commands' modules.
``accord --help`` lists every command from this table; a test checks that each short
help here is the one click makes from the command's own docstring, and that every
command defined in :mod:`accord.cli` is in the table.
"""

from __future__ import annotations

__all__ = ["COMMANDS"]

#: command name -> (the modules of :mod:`accord.cli` that define it, in import order;
#: the first sentence of its help, from which click makes the short help)
COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    "annotators": (("annotators",), (
        "One row per annotator of DATA: accuracy (against --gold, else the consensus) with "
        "an interval, agreement with the others, competence, label bias; the annotators "
        "worth checking first.")),
    "boxes": (("boxes",), (
        "Agreement between annotators on boxes in FILE...: pairwise F1, mean IoU of the "
        "matched boxes and Krippendorff's alpha on the matched objects, per label, per pair "
        "and over the IoU thresholds 0.50 to 0.95, with bootstrap intervals over images.")),
    "check": (("check",), "Accept or reject DATA against a rule; print the decision in one "
              "line."),
    "compare": (("compare",), "Compare agreement between batches: the first file against each "
                "later one."),
    "compute": (("compute",), "Compute agreement coefficients for DATA."),
    "consensus": (("annotators",), "Infer one label per unit of DATA from its annotators' "
                  "ratings."),
    "disagreements": (("report",), "Every unit of DATA on which the raters differ, with all "
                      "labels, as CSV."),
    "evaluate": (("evaluate",), "Evaluate system labels in DATA against reference labels."),
    "history": (("history",), "The runs recorded in STORE (by accord check --record), and "
                "whether agreement dropped."),
    "inspect": (("inspect",), (
        "Show what accord reads from DATA: format, fields, raters and their kinds, units, "
        "categories with counts, missing and skipped answers, and the audit.")),
    "judge": (("judge", "judge_lab"), "Questions about an LLM judge."),
    "keypoints": (("shapes",), (
        "Agreement between annotators on keypoints in FILE...: pairwise F1, mean OKS of the "
        "matched objects and Krippendorff's alpha on the matched objects, per label, per "
        "pair and over the OKS thresholds 0.50 to 0.95, with bootstrap intervals over "
        "images.")),
    "multilabel": (("multilabel",), (
        "Agreement on multi-label (set-valued) ratings in DATA: per label, with intervals, "
        "and on the sets (MASI and Jaccard alpha, mean Jaccard and Dice, maximum-percentage "
        "agreement).")),
    "plan": (("plan",), "How many units to rate, for one of three goals (two raters, Cohen's "
             "kappa)."),
    "polygons": (("shapes",), (
        "Agreement between annotators on polygons in FILE...: pairwise F1, mean IoU of the "
        "matched outlines and Krippendorff's alpha on the matched objects, per label, per "
        "pair and over the IoU thresholds 0.50 to 0.95, with bootstrap intervals over "
        "images.")),
    "report": (("report",), "Write the agreement report of DATA, optionally against a "
               "declared study."),
    "spans": (("spans",), (
        "Agreement on spans in DATA: pairwise F1 for every pair of raters, the mean over "
        "pairs and per label, with bootstrap intervals over units (documents); with --gold, "
        "precision, recall and F1 of every other rater against that one, and for raters "
        "marked as systems (--kind NAME=model) their human ceiling: the other humans' F1 "
        "against the same reference on the system's documents, with paired bootstrap "
        "differences.")),
    "table": (("table",), "Print the contingency table of two raters with totals, p_o, p_e "
              "and kappa."),
}
