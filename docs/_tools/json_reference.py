"""Write every command's JSON Schema and docs/reference/json.md from one description:
``python docs/_tools/json_reference.py``.

The schemas (``src/accord/cli/schemas/<command>.json``, package data) and the page are
checked in; tests/test_cli_json.py fails when either differs from what this script
writes, so a command whose document changes shape without its schema and its page is
caught. The renamed keys of each schema version are listed here once, for the page.
"""
# ruff: noqa: E501  (the page's Markdown tables and JSON example have long rows)

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "src" / "accord" / "cli" / "schemas"
PAGE = ROOT / "docs" / "reference" / "json.md"
sys.path.insert(0, str(ROOT / "src"))

from accord.cli._json import FIGURE_KEY, RETIRED, SCHEMA_VERSION  # noqa: E402


@dataclass(frozen=True)
class Command:
    """One command's document: what an item of ``results`` is, what sits beside it."""

    name: str
    results: str  # one item of results, for the page
    item: str  # "figure", "comparison" or "row"
    item_required: tuple[str, ...] = ()
    beside: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()  # version 2 -> version 3


COMMANDS = (
    Command("compute", "a coefficient", "figure", ("confidence_interval",)),
    Command("check", "a decision: the rule, the coefficient's estimate and interval "
            "(--by: one per group, then the pooled data)",
            "row", ("status", "line"), ("accepted", "exit_status", "caveats"),
            (("the decision's keys at the top; --by: groups[]", "results[]"),)),
    Command("compare", "a comparison of a batch with the first: the difference and its "
            "interval, each side as a figure", "comparison", ("batch", "baseline"),
            ("batches",),
            (("comparisons[]", "results[]"),
             ("difference (a number), confidence_interval, pvalue", "difference {estimate, "
              "confidence_interval, pvalue, undefined_reason}"),
             ("coefficient_a, estimate_a, interval_a", "first {coefficient, estimate, "
              "confidence_interval}"),
             ("coefficient_b, estimate_b, interval_b", "second {coefficient, estimate, "
              "confidence_interval}"))),
    Command("table", "the contingency table with p_o, p_e and kappa", "row",
            ("raters", "categories", "counts", "observed_agreement", "expected_agreement"),
            ("caveats",), (("the table's keys at the top", "results[0]"),)),
    Command("inspect", "what was read: units, raters, categories, fields", "row",
            ("units", "raters", "categories"), ("caveats",),
            (("the summary's keys at the top", "results[0]"),
             ("results[0].dropped {REASON: n}", "results[0].dropped [{reason, count}]"))),
    Command("report", "a coefficient of the report", "figure", ("confidence_interval",),
            ("title", "caveats"), (("coefficients[]", "results[]"),)),
    Command("disagreements", "a unit the raters disagree on", "row", ("unit", "ratings"),
            ("caveats", "n_compared", "n_disagreements"), (("units[]", "results[]"),)),
    Command("evaluate", "a system's evaluation against the reference: accuracy, kappa, "
            "MCC, per class and averaged figures (--by: one per group); on a box table, a "
            "system's precision, recall, F1 and AP with its human ceiling, and beside them "
            "`reference`, `humans` and `notes`", "row", (), (),
            (("accuracy, balanced_accuracy, mcc, kappa, macro, micro, weighted ...",
              "results[] with figure and system"),
             ("ceiling.comparisons.*.interval_a / interval_b",
              "ceiling.comparisons.*.first / second"))),
    Command("multilabel", "a figure: per label, the macro mean, pooled, set-valued alpha, "
            "mean Jaccard, ... (--gold: a rater's scores against the reference)",
            "row", (), ("caveats",),
            (("per_label.LABEL, pooled, masi_alpha, jaccard_alpha, mean_jaccard, "
              "mean_dice, max_percentage", "results[] with figure (and label)"),
             ("confidence_intervals", "each figure's confidence_interval"))),
    Command("spans", "a span figure: F1 overall, macro F1, F1 per label (--gold: a rater's "
            "scores against the reference)", "row", (), ("mode",),
            (("f1, macro_f1, per_label.LABEL", "results[] with figure f1, macro_f1, "
              "label_f1 (and label)"),
             ("raters.RATER (--gold)", "results[] with rater"),
             ("left_out.'not seen'", "left_out.not_seen"),
             ("dropped {REASON: n}", "dropped [{reason, count}]"),
             ("relations.results[].per_category.'(no relation)'",
              "relations.results[].per_category.no_relation"))),
    Command("plan", "a planned study: units needed for the goal", "row", ("n_units",), (),
            (("the plan's keys at the top", "results[0]"),
             ("expected (the anticipated coefficient)", "expected_estimate"))),
    Command("boxes", "a figure on matched boxes: F1, mean IoU, alpha (with --consensus, "
            "a consensus block beside them: the quorum, each annotator's weight, the "
            "consensus boxes, the groups below quorum and their audit, the CSV written)", "figure", (),
            ("per_label", "pairs", "sweep", "audit"),
            (("f1, mean_iou, alpha", "results[] with figure"),
             ("audit.'no-box rows'", "audit.no_box_rows"),
             ("audit.'skipped: REASON'", "audit.dropped [{reason, count}]"),
             ("audit.'note: TEXT'", "audit.notes ['TEXT: n']"))),
    Command("polygons", "a figure on matched polygons: F1, mean IoU, alpha (with "
            "--consensus, a consensus block beside them, as for boxes, with the consensus "
            "polygons)", "figure", (), ("per_label", "pairs", "sweep", "audit")),
    Command("keypoints", "a figure on matched keypoint objects: F1, mean OKS, alpha (with "
            "--consensus, a consensus block beside them, as for boxes, with the consensus "
            "objects and the keypoints' names)", "figure", (),
            ("per_label", "pairs", "sweep", "audit")),
    Command("history", "a recorded run, its figures with their intervals", "row",
            ("figures",), ("store", "charts"),
            (("runs[]", "results[]"),
             ("figures[].low, high, confidence_level, method", "figures[].confidence_interval"),
             ("charts[].points[].low, high", "charts[].points[].confidence_interval"))),
    Command("judge alt", "a figure of the judge's agreement: per human the judge minus the "
            "human, then the judge against the consensus and the panel", "row", ("figure",),
            ("caveats", "alt_test", "audit"),
            (("agreement.per_human[]", "results[] figure judge_minus_human: difference, "
              "first, second"),
             ("agreement.judge_vs_consensus, panel_without_judge, panel_with_judge",
              "results[] with figure"),
             ("agreement.panel_change.interval_a / interval_b",
              "results[figure=panel_change].first / second"))),
    Command("judge bias", "a bias figure: position per rater, length, self-preference",
            "figure", ("figure",), ("read",),
            (("biases.position.RATER", "results[] with figure position and rater"),
             ("biases.NAME", "results[] with figure NAME"),
             ("per_rater[].first_interval [low, high]", "per_rater[].confidence_interval"),
             ("observed_agreement, expected_agreement (counts of a rate)",
              "numerator, denominator"))),
    Command("judge rank", "a strength (and its Elo) per item, the order effect, the tie "
            "parameter", "figure", ("figure",), ("read",),
            (("strength.ITEM, elo.ITEM", "results[] with figure strength / elo and item"),
             ("intervals.ITEM", "the figure's confidence_interval"))),
    Command("judge consistency", "a consistency figure, its parameters as fields",
            "figure", ("figure",), ("n_runs", "target"),
            (("'flip rate (runs disagree)'", "results[] figure flip_rate"),
             ("'pass in some runs, fail in others (>= T)'",
              "figure threshold_flip_rate, threshold T"),
             ("'within-item variance'", "figure within_item_variance"),
             ("'ICC(1,1): one run'", "figure icc, k 1"),
             ("'ICC(1,K): mean of the runs'", "figure icc_k, k K"),
             ("'runs needed for reliability T'", "figure runs_needed, target T"))),
    Command("judge calibration", "a calibration figure: Brier, ECE, before and after "
            "recalibration", "figure", ("figure",), ("bins",),
            (("brier, ece, recalibration.brier_before ...", "results[] with figure"),
             ("observed_agreement, expected_agreement (a sum and a count)",
              "numerator, denominator"))),
    Command("judge ppi", "the prediction-powered mean", "figure", ("figure",), (),
            (("the figure's keys at the top", "results[0]"),
             ("observed_agreement, expected_agreement", "labelled_human_mean, "
              "unlabelled_judge_mean"))),
    Command("judge panel", "the effective number of independent judges", "figure",
            ("figure",), ("judges", "alt_tests"),
            (("effective_judges", "results[0]"),
             ("observed_agreement, expected_agreement", "mean_error_correlation, n_judges"))),
    Command("consensus", "a unit's consensus label and posterior", "row", ("unit",),
            ("method", "caveats", "audit"),
            (("units[]", "results[]"),
             ("Consensus.to_dict()['units'], ScoreConsensus.to_dict()['units'] (library)",
              "['results'], as in the command"))),
    Command("annotators", "an annotator's accuracy and agreement, each with its interval",
            "row", ("name",), ("caveats", "audit"),
            (("annotators[]", "results[]"),)),
)

_COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}

#: Blocks beside ``results`` with a shape of their own (optional: present when asked for).
EXTRA: dict[str, dict[str, Any]] = {
    "spans": {"relations": {
        "type": "object", "required": ["mode", "results", "counts", "pairs", "disputes",
                                       "notes"],
        "properties": {
            "mode": {"enum": ["strict", "exact", "partial", "type"]},
            "results": {"type": "array", "items": {"allOf": [
                {"$ref": "#/$defs/figure"},
                {"required": ["figure", "type", "confidence_interval"],
                 "properties": {"figure": {"enum": ["f1", "kappa"]},
                                "type": {"type": ["string", "null"]}}}]}},
            "counts": _COUNTS,
            "pairs": {"type": "array", "items": {
                "type": "object", "required": ["raters", "counts"],
                "properties": {"raters": {"type": "array", "items": {"type": "string"}},
                               "counts": _COUNTS}}},
            "disputes": {"type": "array", "items": {
                "type": "object", "required": ["unit", "head", "tail", "types"]}},
            "notes": {"type": "array", "items": {"type": "string"}},
            "symmetric": {"type": "array", "items": {"type": "string"}}}},
        "unitizing": {"type": "array", "items": {"allOf": [
            {"$ref": "#/$defs/figure"},
            {"required": ["coefficient", "confidence_interval", "sentence"],
             "properties": {"coefficient": {"enum": ["unitizing_alpha", "gamma"]},
                            "sentence": {"type": "string"},
                            "per_category": {"type": "object"}}}]}}},
}

_ROW_TAIL = ["support", "n_annotators", "spread", "label_share", "tied_labels"]
_ROW_PROPS = {"image": {"type": "string"}, "label": {"type": "string"},
              "support": {"type": "integer", "minimum": 1},
              "spread": {"type": "number", "minimum": 0, "maximum": 1},
              "label_share": {"type": "number", "minimum": 0, "maximum": 1},
              "tied_labels": {"type": "array", "items": {"type": "string"}}}

#: One consensus box (``BoxConsensus.rows()``).
_CONSENSUS_BOX = {
    "type": "object",
    "required": ["image", "label", "x", "y", "w", "h", *_ROW_TAIL],
    "properties": _ROW_PROPS}
#: One consensus polygon (``PolygonConsensus.rows()``).
_CONSENSUS_POLYGON = {
    "type": "object",
    "required": ["image", "label", "polygon", "wkt", "area", *_ROW_TAIL],
    "properties": {**_ROW_PROPS, "polygon": {"type": "array", "items": {
        "type": "array", "items": {"type": "number"}}}, "wkt": {"type": "string"},
        "area": {"type": "number", "minimum": 0}}}
#: One consensus keypoint object (``KeypointConsensus.rows()``).
_CONSENSUS_KEYPOINTS = {
    "type": "object",
    "required": ["image", "label", "keypoints", "area", *_ROW_TAIL],
    "properties": {**_ROW_PROPS, "keypoints": {"type": "array", "items": {"type": "number"}},
                   "area": {"type": "number", "minimum": 0}}}


def _consensus(threshold: str, shapes: str, row: dict[str, Any],
               more: dict[str, Any] | None = None) -> dict[str, Any]:
    """The consensus block of ``accord boxes|polygons|keypoints --consensus --json``."""
    return {"consensus": {
        "type": "object",
        "required": [threshold, "quorum", "required", "fusion", "n_annotators", "annotators",
                     "results", "below_quorum", "audit", "output", *(more or {})],
        "properties": {
            threshold: {"type": "number"}, "quorum": {"type": "number"},
            "required": {"type": "integer", "minimum": 1},
            "fusion": {"enum": ["weighted", "mean"]},
            "n_annotators": {"type": "integer", "minimum": 2},
            "annotators": {"type": "array", "items": {
                "type": "object", "required": ["annotator", "weight"],
                "properties": {"annotator": {"type": "string"}, "weight": {
                    "type": ["number", "null"], "minimum": 0, "maximum": 1}}}},
            "audit": {"type": "object", "required": ["groups", f"consensus_{shapes}",
                                                     "below_quorum", "below_quorum_by_support"]},
            "results": {"type": "array", "items": row},
            "below_quorum": {"type": "array", "items": row},
            "output": {"type": ["string", "null"]}, **(more or {})}}}


EXTRA["boxes"] = _consensus("iou_threshold", "boxes", _CONSENSUS_BOX)
EXTRA["polygons"] = _consensus("iou_threshold", "polygons", _CONSENSUS_POLYGON)
EXTRA["keypoints"] = _consensus("oks_threshold", "objects", _CONSENSUS_KEYPOINTS,
                                {"keypoint_names": {"type": "array",
                                                    "items": {"type": "string"}}})

#: Renamed in every document.
EVERYWHERE = (
    ("exit (an error object)", "exit_status, as in check's document"),
    ("details.irr_ci95 (ICC)", "details.irr_interval"),
    ("an se without its interval", "the figure's confidence_interval"),
    ("audit.dropped {REASON: n}", "audit.dropped [{reason, count}]"),
    ("interpretation.confidence_interval {low, high, confidence_level}",
     "{low, high, confidence_level, method}"),
    ("report: data.dropped {REASON: n}", "data.dropped [{reason, count}]"),
)


def _num(minimum: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": ["number", "null"]}
    if minimum is not None:
        out.update(minimum=minimum, maximum=1)
    return out


def _defs() -> dict[str, Any]:
    retired = {"not": {"anyOf": [{"required": [k]} for k in sorted(RETIRED)]}}
    ci = {"type": ["object", "null"], "required": ["low", "high", "confidence_level", "method"],
          "properties": {"low": _num(), "high": _num(), "confidence_level": {"type": "number"},
                         "method": {"type": "string"}}}
    figure = {
        "type": "object", "required": ["estimate"],
        "anyOf": [{"required": ["coefficient"]}, {"required": ["figure"]}],
        "propertyNames": {"pattern": FIGURE_KEY},
        "properties": {
            "coefficient": {"type": "string"}, "figure": {"type": "string"},
            "estimate": {"type": ["number", "null", "string"]}, "se": _num(),
            "confidence_interval": {"$ref": "#/$defs/confidence_interval"},
            "undefined_reason": {"type": ["string", "null"]},
            "interpretation": {"$ref": "#/$defs/interpretation"},
            "observed_agreement": _num(-1), "expected_agreement": _num(-1),
        }, **retired}
    comparison = {
        "type": "object", "required": ["difference", "first", "second"],
        "properties": {"difference": {"$ref": "#/$defs/figure"},
                       "first": {"$ref": "#/$defs/figure"},
                       "second": {"$ref": "#/$defs/figure"}}, **retired}
    interpretation = {"type": ["object", "null"], "required": ["scale", "band"],
                      "properties": {"scale": {"type": ["string", "null"]},
                                     "band": {"type": ["string", "null"]}}}
    return {"confidence_interval": ci, "figure": figure, "comparison": comparison,
            "interpretation": interpretation,
            "row": {"type": "object", "propertyNames": {"pattern": FIGURE_KEY}, **retired},
            "caveats": {"type": "array", "items": {"type": "string"}}}


def schema(cmd: Command) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one command's document."""
    item: dict[str, Any] = {"$ref": f"#/$defs/{cmd.item}"}
    if cmd.item_required:
        item = {"allOf": [item, {"required": list(cmd.item_required)}]}
    props: dict[str, Any] = {"schema_version": {"const": SCHEMA_VERSION},
                             "command": {"const": cmd.name},
                             "results": {"type": "array", "items": item}}
    if "caveats" in cmd.beside:
        props["caveats"] = {"$ref": "#/$defs/caveats"}
    props.update(EXTRA.get(cmd.name, {}))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://accord.invalid/schemas/cli/{cmd.name.replace(' ', '-')}/"
               f"{SCHEMA_VERSION}",
        "title": f"accord {cmd.name} --json",
        "type": "object",
        "required": ["schema_version", "command", "results", *cmd.beside],
        "propertyNames": {"pattern": r"^\$?" + FIGURE_KEY.lstrip("^")},
        "properties": props,
        "not": {"anyOf": [{"required": [k]} for k in sorted(RETIRED)]},
        "$defs": _defs(),
    }


def error_schema() -> dict[str, Any]:
    """The error object's schema: the same for every command."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://accord.invalid/schemas/cli/error/{SCHEMA_VERSION}",
        "title": "accord COMMAND --json, on failure",
        "type": "object",
        "required": ["schema_version", "command", "error", "exit_status"],
        "additionalProperties": False,
        "properties": {"schema_version": {"const": SCHEMA_VERSION},
                       "command": {"type": "string"},
                       "error": {"type": "string", "minLength": 1},
                       "exit_status": {"enum": [1, 2]}},
    }


def schemas() -> dict[str, str]:
    """File name -> text of every schema."""
    docs = {f"{c.name.replace(' ', '_')}.json": schema(c) for c in COMMANDS}
    docs["error.json"] = error_schema()
    return {name: json.dumps(doc, indent=2) + "\n" for name, doc in sorted(docs.items())}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    """The text of docs/reference/json.md."""
    rows = "\n".join(f"| `{c.name}` | {_cell(c.results)} | "
                     f"{', '.join(f'`{b}`' for b in c.beside) or '-'} |" for c in COMMANDS)
    renamed = "\n".join(f"| {c.name} | `{_cell(old)}` | `{_cell(new)}` |"
                        for c in COMMANDS for old, new in c.renamed)
    renamed += "\n" + "\n".join(f"| every command | `{_cell(old)}` | `{_cell(new)}` |"
                                for old, new in EVERYWHERE)
    return (TEMPLATE.replace("{version}", str(SCHEMA_VERSION))
            .replace("{commands}", rows).replace("{renamed}", renamed))


TEMPLATE = """\
# JSON output

<!-- generated by docs/_tools/json_reference.py from the commands' description there;
tests/test_cli_json.py fails when this page or a schema is stale: rerun the script -->

Every command takes `--json`. Its output is one JSON object, pretty-printed with
two-space indents, in one envelope:

| key | meaning |
|---|---|
| `schema_version` | `{version}`. Raised when a key is renamed or removed; new keys keep the version. |
| `command` | the command that wrote it: `compute`, `check`, `judge bias`, ... |
| `results` | a list: the figures (or rows) the console shows, one object each |
| the command's own blocks | beside `results`: `caveats`, `audit`, `seed`, ... (below) |

The output is strict JSON (RFC 8259): an undefined figure is `null`, never `NaN`,
and full precision is kept (round when you display).

```console
$ accord table examples/pilot.csv --raters annotator_a annotator_b --json
```

## One shape for every figure

Every figure, in every command and in the library's `to_dict()`, is an object with
the same keys:

| key | meaning |
|---|---|
| `coefficient` or `figure` | its name: a registry name (`cohen_kappa`), or the figure's own (`flip_rate`, `difference`) |
| `estimate` | full precision; `null` when undefined |
| `se` | standard error, `null` where there is none |
| `confidence_interval` | `{low, high, confidence_level, method}` (and `n_excluded`): on every figure with an `se`, and on every figure the console shows with an interval, the same interval |
| `undefined_reason` | `null`, or one sentence: why the estimate is undefined |
| `interpretation` | `{scale, band, ...}` where the console shows a band |
| `observed_agreement`, `expected_agreement` | p_o and p_e, agreements only (in [-1, 1]) |
| `observed_disagreement`, `expected_disagreement` | D_o and D_e (Krippendorff's alpha, Janson-Olsson iota, unitizing alpha) |
| `n_*` | counts: `n_units`, `n_raters`, ... |

Parameters are fields, never parts of a key: ICC(1,k)'s `k`, the `target` of the
runs needed, a threshold, the `rater` or `label` a figure is about. A key is lower
case with underscores; a map keyed by the data's own names (categories, raters,
labels) is the one exception. A reason is a sentence, so it is a value: what was
dropped is a list of `{reason, count}`. A comparison has `difference`
(a figure with its own interval) and `first` and `second`, each a figure.

`AgreementResult.to_dict()` in the library writes the same keys, so a figure read
from the library and from the command line compare key for key:

```python
import accord

kappa = accord.cohen_kappa(["a", "a", "b", "b"], ["a", "b", "b", "b"]).to_dict()
alpha = accord.krippendorff_alpha([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"]]).to_dict()
print(sorted(k for k in kappa if k.startswith(("observed", "expected"))))
# ['expected_agreement', 'observed_agreement']
print(sorted(k for k in alpha if k.startswith(("observed", "expected"))))
# ['expected_disagreement', 'observed_disagreement']
print(sorted(kappa["confidence_interval"]))
# ['confidence_level', 'high', 'low', 'method', 'n_excluded']
```

## What each command puts in `results`

| command | one item of `results` | beside `results` (always) |
|---|---|---|
{commands}

A command that takes `--seed` ends its document with the `seed` its resampling used
(0 unless `--seed` was given); the report says it under `settings.seed`.

## Errors

With `--json`, a failure still prints one line on standard error, and standard
output holds an error object, so a script that parses standard output always
gets JSON:

```console
$ accord compute examples/pilot.csv --raters annotator_a nobody --json  # exit 1
```

```json
{
  "schema_version": {version},
  "command": "compute",
  "error": "examples/pilot.csv: rater column(s) ['nobody'] not found; the columns are ['item_id', 'annotator_a', 'annotator_b', 'annotator_c'].",
  "exit_status": 1
}
```

`exit_status` is the exit status, under the same key as in `accord check`'s
document: 1 for bad data, 2 for bad usage (`accord check` exits 2 for every error,
so that 1 always means rejected).

## JSON Schemas

Each command's document has a JSON Schema (draft 2020-12) shipped with the
package, in `accord/cli/schemas/<command>.json` (`judge_bias.json` for
`judge bias`; `error.json` for the error object). The test suite runs every
example of every command's `--help` with `--json` and validates it against its
schema (`tests/test_cli_json_parity.py`). The report's document (`accord report
--json`, the same as `-o report.json` and `Report.to_json()`, without `command`)
also follows `accord/report/schema.json`, with the same `schema_version`.

```python
import json
from importlib.resources import files

schema = json.loads(files("accord.cli").joinpath("schemas", "compute.json").read_text())
print(schema["required"])
# ['schema_version', 'command', 'results']
```

## What changed in schema version {version}

| command | version 2 | version {version} |
|---|---|---|
{renamed}

## What changed in schema version 2

Documents written with schema version 1 (and history stores recorded then)
used other names for the same things:

| version 1 | version 2 |
|---|---|
| `observed`, `expected` (a coefficient) | `observed_agreement`, `expected_agreement`; `observed_disagreement`, `expected_disagreement` for Krippendorff's alpha, Janson-Olsson iota and unitizing alpha |
| `ci_low`, `ci_high` (+ `confidence_level`, `method`, `n_excluded` beside them) in the report | `confidence_interval` `{low, high, confidence_level, method, n_excluded}` |
| `interval` (a decision's interval) | `confidence_interval` |
| `interval` `[low, high]` (an interpretation's limits) | `confidence_interval` `{low, high, confidence_level}` |
| `p_o`, `p_e` (a worksheet, the kappa context, `accord table`) | `observed_agreement`, `expected_agreement` |
| `observed` (an evidence register row: what the data showed) | `observed_in_data` |

`accord history` reads a store recorded with an older version under the new names
(the file itself is not rewritten, so an older accord can still share it):
`accord history --json` on `examples/history.db`, recorded with version 1, shows
`observed_agreement` and `expected_agreement`.

```python
from accord.history import Store

doc = accord.report(accord.read("examples/pilot.csv", raters=["annotator_a", "annotator_b"])).to_dict()
kappa = next(row for row in doc["results"] if row["coefficient"] == "cohen_kappa")
print(doc["schema_version"], sorted(kappa["confidence_interval"]))
# {version} ['confidence_level', 'high', 'low', 'method', 'n_excluded']
recorded = Store("examples/history.db").runs()[0].register["result"]  # written by version 1
print(sorted(k for k in recorded if k.startswith(("observed", "expected"))))
# ['expected_agreement', 'observed_agreement']
```
"""


def main() -> None:
    for name, text in schemas().items():
        (SCHEMAS / name).write_text(text, encoding="utf-8")
    PAGE.write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main()
