"""The one vocabulary of the command line: every option shared by two or more commands.

Each shared option has one name, one default, one type (checked choices where
there is a fixed list) and one help line, here; a command declares it with
:func:`shared` and may only reword its help or, where its meaning needs it, take
several values. ``docs/reference/options.md`` is generated from :data:`OPTIONS`
(:data:`REGENERATE`) and a test fails when the page is stale.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from accord.cli._lazy import (
    LazyChoice,
    coefficient_names,
    core_coefficient,
    scale_names,
    weight_names,
)
from accord.data._names import DEFAULT_SEED, LEVELS, RATER_KINDS

__all__ = ["CONSENSUS_METHODS", "DIFFERENCES", "GROUPS", "MAX_RESAMPLES", "OPTIONS",
           "REGENERATE", "SharedOption", "deprecated_alias", "options_page", "shared"]

F = TypeVar("F", bound=Callable[..., Any])

#: Upper bound of ``--n-resamples`` in every command.
MAX_RESAMPLES = 10_000_000


def _confidence_level(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """In (0, 1), checked before any data are read, in the library's words."""
    from accord.cli._errors import cli_text
    from accord.data import _validation as v
    from accord.errors import InvalidParameterError

    try:  # the name is rewritten away by cli_text: "--confidence-level must be ..."
        v.confidence_level(value, func=f"accord {ctx.info_name}")
    except InvalidParameterError as exc:
        raise click.BadParameter(cli_text(str(exc)), ctx, param) from None
    return value


def _rater_kinds(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    """``RATER=KIND`` pairs; the kind is what follows the last ``=``."""
    out = []
    for item in value:
        rater, eq, kind = item.rpartition("=")
        if not eq or not rater:
            raise click.BadParameter(f"expected RATER=KIND (e.g. gpt4=llm), got {item!r}.")
        if kind not in RATER_KINDS:
            raise click.BadParameter(
                f"the kind of {rater!r} must be one of {', '.join(RATER_KINDS)}; got {kind!r}."
            )
        out.append((rater, kind))
    return tuple(out)


def _seed(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A seed numpy accepts: a non-negative integer."""
    if value is not None and value < 0:
        raise click.BadParameter(f"--seed must be a non-negative integer; got {value}.",
                                 ctx, param)
    return value


@dataclass(frozen=True)
class SharedOption:
    """One shared option: its flag, parameter name, default, type, help and group.

    ``kind`` is the value's description for the docs (the choices, a range).
    """

    flag: str
    dest: str
    group: str
    help: str
    kind: str = ""
    default: Any = None
    type: Any = None
    metavar: str | None = None
    is_flag: bool = False
    multiple: bool = False
    callback: Callable[..., Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def option(self, **overrides: Any) -> Callable[[F], F]:
        """The click decorator; ``overrides`` may reword ``help``, set ``multiple``, add
        a command's older spelling (``aliases``), or narrow the choices (``choices``: a
        loader of the names a command accepts; ``accept``: a test that vouches for a name
        without loading them)."""
        unknown = set(overrides) - {"help", "multiple", "metavar", "cls", "dest", "choices",
                                    "accept", "aliases"}
        if unknown:  # a default or a type of its own would break the one vocabulary
            raise TypeError(f"{self.flag}: only help, multiple, metavar, cls, choices and "
                            f"aliases may differ between commands, not {sorted(unknown)}")
        kwargs: dict[str, Any] = {"help": overrides.get("help", self.help), **self.extra}
        if self.is_flag:
            kwargs["is_flag"] = True
        else:
            kwargs["default"] = self.default
            if self.type is not None:
                plain = isinstance(self.type, (type, click.ParamType))
                kwargs["type"] = self.type if plain else self.type()  # a lazy choice
            if self.default is not None and not self.multiple:
                kwargs["show_default"] = True
        metavar = overrides.get("metavar", self.metavar)
        if metavar is not None:
            kwargs["metavar"] = metavar
        if overrides.get("multiple", self.multiple):
            kwargs["multiple"] = True
            if "show_default" not in self.extra:
                kwargs.pop("show_default", None)
        if "choices" in overrides:
            kwargs["type"] = LazyChoice(overrides["choices"], accept=overrides.get("accept"))
        if self.callback is not None:
            kwargs["callback"] = self.callback
        if "cls" in overrides:
            kwargs["cls"] = overrides["cls"]
        names = (self.flag, *overrides.get("aliases", ()))  # aliases: a command's older name
        return click.option(*names, overrides.get("dest", self.dest), **kwargs)


def _o(*args: Any, **kwargs: Any) -> tuple[str, SharedOption]:
    opt = SharedOption(*args, **kwargs)
    return _key(opt.flag), opt


def _key(flag: str) -> str:
    """``--accelerate`` for the on/off pair ``--accelerate/--no-accelerate``."""
    return flag.split("/")[0]


#: Groups, in the order of the docs page.
GROUPS = {
    "data": "Reading DATA (every command that reads a data file)",
    "interval": "Confidence intervals (every command that computes one)",
    "reference": "A reference (gold) rater",
    "coefficient": "Coefficients, weights and interpretation",
    "judge": "LLM judges",
    "crowd": "Consensus labels (crowds of annotators)",
    "engine": "Engines and clusters (DATA read and counted by DuckDB, Dask or Spark)",
    "output": "Output",
}

#: The consensus methods for categorical labels (``accord.consensus``'s ``method``).
CONSENSUS_METHODS = ("majority", "wawa", "one_coin", "dawid_skene", "glad", "mace")

OPTIONS: dict[str, SharedOption] = dict([
    _o("--format", "fmt", "data", "File format (default: detected). See `accord inspect --help`.",
       metavar="NAME"),
    _o("--field", "field", "data",
       "The question / control tag to analyse, for exports with several.", metavar="NAME"),
    _o("--unit", "unit", "data", "Long data: the unit (item) id column.", metavar="COL"),
    _o("--rater", "rater", "data", "Long data: the rater column.", metavar="COL"),
    _o("--value", "value", "data", "Long data: the label column.", metavar="COL"),
    _o("--raters", "raters", "data", "Wide data: the rater columns (other columns are "
       "ignored); with long data or exports: the raters to compare.", metavar="COL...",
       multiple=True),
    _o("--categories", "categories", "data", "Declare the categories and their order "
       "(unused ones are kept).", metavar="LABEL...", multiple=True),
    _o("--level", "level", "data", "Level of measurement of the labels (default: nominal; "
       "integer labels that look like a scale are then said as a caveat).",
       kind=" | ".join(LEVELS), type=click.Choice(LEVELS)),
    _o("--missing", "missing", "data", "Extra markers of a missing rating (always: empty, NA, "
       "N/A, n/a, NaN, nan, null, NULL, '.', '-').", metavar="MARKER...", multiple=True),
    _o("--duplicates", "duplicates", "data", "A rater who rated a unit twice with different "
       "labels: stop, or keep the last.", kind="error | last", default="error",
       type=click.Choice(["error", "last"])),
    _o("--multilabel", "multilabel", "data", "Long data: raters gave every label that "
       "applies, one row per label; the rows of one unit and rater are one rating, the set "
       "of their labels.", is_flag=True),
    _o("--separator", "label_separator", "data", "A label cell holds several labels joined "
       "by TEXT (e.g. ';'): each cell is the set of its labels.", metavar="TEXT"),
    _o("--kinds", "kinds", "data", "Kinds of rater to compare when --raters is not given: "
       "human, model, llm, gold (reference answers). Model and gold raters are left out by "
       "default. This selects raters; --kind sets a rater's kind.",
       kind=" | ".join(RATER_KINDS), default=("human",), type=click.Choice(RATER_KINDS),
       metavar="KIND...", multiple=True, extra={"show_default": True}),
    _o("--kind", "rater_kinds", "data", "Set the kind of a rater, e.g. --kind gpt4=llm "
       "(repeat for several); KIND is human, model, llm or gold. Then --kinds chooses which "
       "kinds to compare.", metavar="RATER=KIND", multiple=True, callback=_rater_kinds),
    _o("--confidence-level", "confidence_level", "interval",
       "Nominal coverage of the confidence intervals, in (0, 1).", kind="number in (0, 1)",
       default=0.95, type=float, callback=_confidence_level),
    _o("--ci", "ci_method", "interval", "Interval method; asymptotic uses the analytic SE "
       "(F-based for ICC).", kind="asymptotic | jackknife | bootstrap", default="asymptotic",
       type=click.Choice(["asymptotic", "jackknife", "bootstrap"])),
    _o("--n-resamples", "n_resamples", "interval", "Bootstrap resamples (at most 10^7).",
       kind=f"integer in [1, {MAX_RESAMPLES}]", default=9999,
       type=click.IntRange(1, MAX_RESAMPLES)),
    _o("--bootstrap-kind", "bootstrap_kind", "interval", "Bootstrap interval type.",
       kind="percentile | bca | basic", default="percentile",
       type=click.Choice(["percentile", "bca", "basic"])),
    _o("--seed", "seed", "interval", "Seed of the bootstrap and of every other resampling "
       f"(default {DEFAULT_SEED}: the same figures on every run).", kind="integer >= 0",
       default=DEFAULT_SEED, type=int, metavar="N", callback=_seed),
    _o("--gold", "gold", "reference", "The reference labels: a column of wide data, or a "
       "rater of long data or an export.", metavar="COL"),
    _o("--predicted", "predicted", "reference", "The system labels to set against --gold: "
       "columns or raters.", metavar="COL...", multiple=True),
    _o("--coefficient", "coefficients", "coefficient", "Coefficients to compute (default: a "
       "sensible set for the data).", kind="a coefficient of the registry",
       type=lambda: LazyChoice(coefficient_names, accept=core_coefficient), metavar="NAME"),
    _o("--weights", "weights", "coefficient", "Agreement weights for ordered categories "
       "(weighted kappa, AC2, ...).", kind="a weight name", type=lambda: LazyChoice(weight_names)),
    _o("--form", "form", "coefficient", "ICC form: ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k or "
       "ICC(A,1)-style names.", metavar="FORM"),
    _o("--scale", "scale", "coefficient", "Interpretation scale (default: the one written for "
       "each coefficient).", kind="a scale name", type=lambda: LazyChoice(scale_names)),
    _o("--average", "average", "coefficient", "Precision/recall/F1: average over classes "
       "(default macro, or binary with --positive).", kind="macro | micro | weighted | binary",
       type=click.Choice(["macro", "micro", "weighted", "binary"])),
    _o("--positive", "positive", "coefficient", "Precision/recall/F1: the positive class of a "
       "binary task.", metavar="LABEL"),
    _o("--population-size", "population_size", "coefficient", "Units in the population "
       "sampled, for Gwet's finite-population correction.", kind="integer >= 1",
       type=int, metavar="N"),
    _o("--family", "family", "judge", "A generator of the judge's own family (repeat for "
       "several): adds self-preference to a pairwise judge's figures.", metavar="GENERATOR",
       multiple=True),
    _o("--consensus-method", "consensus_method", "crowd", "The consensus labels: majority "
       "vote, Wawa (weighted by agreement with the majority), one-coin, Dawid-Skene, GLAD or "
       "MACE.", kind=" | ".join(CONSENSUS_METHODS), default="dawid_skene",
       type=click.Choice(CONSENSUS_METHODS)),
    _o("--accelerate/--no-accelerate", "accelerate", "crowd", "one_coin and dawid_skene: "
       "extrapolate EM by SQUAREM (the same fixed point and stopping rule; iterations count "
       "passes over the ratings).", is_flag=True),
    _o("--engine", "engine", "engine", "Read and count DATA (one CSV or Parquet file, or a "
       "folder of Parquet parts) with this engine, where it runs; long data (--unit, --rater, "
       "--value) or --raters. Needs the engines extra.", kind="duckdb | dask | spark",
       type=click.Choice(("duckdb", "dask", "spark"))),
    _o("--scheduler", "scheduler", "engine", "With --engine dask: a running Dask "
       "scheduler, tcp://HOST:PORT (default: $DASK_SCHEDULER_ADDRESS, else threads here).",
       metavar="ADDRESS"),
    _o("--master", "master", "engine", "With --engine spark: a running Spark master, "
       "spark://HOST:PORT (default: $SPARK_MASTER, else the spark.master Spark reads from "
       "spark-submit or spark-defaults.conf, else local[*]).", metavar="URL"),
    _o("--timeout", "engine_timeout", "engine", "With --engine dask or spark: seconds to wait "
       "for the scheduler or master to answer, for a Spark master to register the "
       "application once the driver has connected, and for its first executor (default: 10).",
       kind="seconds > 0", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS"),
    _o("--report", "report_path", "output", "Also write this question's report to FILE: "
       ".html (one self-contained file), .md or .json, by the suffix (as accord report -o).",
       metavar="FILE"),
    _o("--json", "as_json", "output", "Print JSON instead (with schema_version and command; "
       "an error is a JSON object on standard output too).", is_flag=True),
])


def shared(flag: str, **overrides: Any) -> Callable[[F], F]:
    """The decorator of the shared option ``flag`` (see :class:`SharedOption.option`)."""
    return OPTIONS[flag].option(**overrides)


def deprecated_alias(old: str, flag: str) -> Callable[[F], F]:
    """A hidden ``old`` spelling of the shared option ``flag``, with a deprecation line.

    The value given to ``old`` is passed on as ``flag``'s parameter; both at once is
    bad usage.
    """
    dest = OPTIONS[flag].dest
    hidden = f"_alias_{dest}"

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(hidden, None)
            if value is not None:
                if kwargs.get(dest) is not None:
                    raise click.UsageError(f"give {flag} only ({old} is its old name).")
                click.echo(f"accord: warning: {old} is deprecated; use {flag} (same meaning).",
                           err=True)
                kwargs[dest] = value
            return func(*args, **kwargs)

        return click.option(old, hidden, default=None, hidden=True)(wrapper)  # type: ignore[return-value]

    return decorate


#: What still differs between commands, and why (kept on the generated page).
DIFFERENCES = (
    "`accord spans --n-resamples` also takes 0 (no intervals); its default and upper bound "
    "are the shared ones.",
    "`accord multilabel --coefficient` and `accord plan --coefficient` take one name from "
    "a subset of the registry (multilabel: every coefficient but the ICC family, on each "
    "label's yes/no ratings; plan: the coefficients with a sample-size formula), with their "
    "own defaults (krippendorff_alpha, cohen_kappa).",
    "`accord spans --coefficient` takes unitizing_alpha or gamma (repeatable), computed "
    "beside the pairwise F1, which that command always reports.",
    "`accord compute --coefficient` offers every coefficient but the span family "
    "(span_f1, ...): spans are read with --start/--end/--label, which `accord spans` and "
    "`accord check` take.",
    "`--mode` (when two spans agree) is `accord spans`'s option with default strict; "
    "`accord check` takes it for span_f1 only, unset unless given (strict then).",
    "`--population-size` (Gwet's finite-population correction) is on `accord compute` only: "
    "the report and the gate compute their intervals without it.",
    "`accord evaluate` reports every average of precision, recall and F1, so it takes "
    "`--positive` but not `--average`.",
    "`accord multilabel --reference` is the deprecated spelling of `--gold` (it still works, "
    "with a warning on standard error).",
    "`accord annotators`, `accord judge alt` and `accord spans` compute bootstrap intervals "
    "only, so they take `--confidence-level`, `--n-resamples` and `--seed` but not `--ci` or "
    "`--bootstrap-kind`; the judge lab subcommands take `--confidence-level` (and "
    "`calibration` a `--seed` for its split) because their intervals are analytic.",
    "`accord annotators` also takes `--consensus-method` as `--method`, its first name; "
    "`accord consensus --method` chooses among these methods and the numeric scores' mean, "
    "median and gaussian, so it keeps its own option. In `accord report`, whose `--ci` is "
    "the interval method, the name says which method it is.",
    "`--tol` and `--max-iter` (the EM stopping rule) are on `accord consensus` and "
    "`accord annotators` only: the report fits with the library's defaults.",
    "`accord judge bias`, `rank`, `calibration` and `ppi` read a pairwise-preference or "
    "score file, not a ratings table, so they take DATA without the data options.",
    "`accord boxes --format` takes the box exports' formats only (coco, cvat, "
    "label_studio_boxes, yolo), for an export whose content does not tell its tool; "
    "`accord polygons` and `accord keypoints` tell COCO, CVAT and Label Studio by the "
    "files' names and content, and take none.",
)


REGENERATE = ('python -c "import sys; from accord.cli import main; from accord.cli._options '
              'import options_page; sys.stdout.write(options_page(main))" > '
              'docs/reference/options.md')


def options_page(root: click.Group) -> str:
    """``docs/reference/options.md``: the table of shared options, by group, with the
    commands of ``root`` (``accord.cli.main``) that take each."""
    users = _users(root)
    lines = ["# Shared options", "",
             "Generated from `accord.cli._options.OPTIONS` (do not edit) by", "",
             f"    {REGENERATE}", "",
             "Every command that takes one of these options takes it with this name, "
             "default and check.", ""]
    for group, title in GROUPS.items():
        lines += [f"## {title}", "", "| option | value | default | meaning | commands |",
                  "|---|---|---|---|---|"]
        for opt in (o for o in OPTIONS.values() if o.group == group):
            value = ("flag" if opt.is_flag else (opt.kind or opt.metavar or "TEXT"))
            value = value.replace("|", "\\|")
            text = opt.help.replace("|", "\\|")
            lines.append(f"| `{opt.flag}` | {value} | {_default(opt)} | {text} | "
                         f"{', '.join(users.get(_key(opt.flag), [])) or '-'} |")
        lines.append("")
    lines += ["## What still differs, and why", ""]
    lines += [f"- {d}" for d in DIFFERENCES]
    return "\n".join(lines) + "\n"


def _users(root: click.Group) -> dict[str, list[str]]:
    """For each option flag, the commands that take it (``judge alt``, ...)."""
    out: dict[str, list[str]] = {}

    def walk(cmd: click.Command, name: str) -> None:
        if isinstance(cmd, click.Group):
            for sub_name, sub in sorted(cmd.commands.items()):
                walk(sub, f"{name} {sub_name}".strip())
            return
        for param in cmd.params:
            for flag in getattr(param, "opts", ()):
                out.setdefault(flag, []).append(name)

    walk(root, "")
    return out


def _default(opt: SharedOption) -> str:
    if opt.is_flag:
        return "off"
    if opt.default is None:
        return "-"
    if isinstance(opt.default, tuple):
        return " ".join(map(str, opt.default))
    return f"`{opt.default}`"

