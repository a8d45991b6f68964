"""Validation of a study protocol's TOML mapping (see :mod:`accord.study.protocol`).

Every error is one :class:`~accord.errors.StudyError` sentence that names the
file and the key, e.g. ``study.toml: [acceptance].on must be one of 'estimate',
'lower-ci'; got 'lower'.``
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from accord.data._files import read_small_text
from accord.data.annotations import LEVELS
from accord.errors import StudyError
from accord.study.rules import (
    DISPOSITION_FIELDS,
    INTERVALS,
    MISSING_CHOICES,
    ON_CHOICES,
    AcceptanceRule,
    Annotators,
    Disposition,
    Metric,
    Population,
    Task,
)

#: The largest items file read (bytes), and the longest item id (characters).
ITEMS_MAX_BYTES = 64 * 1024**2
MAX_ID_CHARS = 1000
BOOTSTRAP_KINDS = ("percentile", "bca", "basic")
AVERAGES = ("macro", "micro", "weighted", "binary")
SPAN_MODES = ("strict", "exact", "partial", "type")
_KEYS: dict[str, tuple[str, ...]] = {
    "": ("title", "population", "annotators", "task", "metric", "acceptance", "disposition"),
    "population": ("description", "sampling", "items", "items_file"),
    "annotators": ("names", "independent"),
    "task": ("categories", "ontology_revision", "missing"),
    "metric": ("coefficient", "weights", "level", "form", "confidence_level", "interval",
               "n_resamples", "bootstrap_kind", "seed", "average", "positive", "mode"),
    "acceptance": ("rule", "on"),
    "disposition": DISPOSITION_FIELDS,
}
_RULE = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|>)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$"
)


def _resolve_name(name: str, declared: str | None) -> str | None:
    """The coefficient a rule names: the metric's own name or one of its ``_`` parts."""
    if declared is not None:
        return declared if name == declared or name in declared.split("_") else None
    from accord.study import is_registered

    return name if is_registered(name) else None


class Parser:
    """Validation of the TOML mapping, one error sentence naming the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, key: str, message: str) -> StudyError:
        where = f"[{key}]" if "." not in key else "[{}].{}".format(*key.split(".", 1))
        return StudyError(f"{self.source}: {where} {message}.")

    def keys(self, data: Mapping[str, Any], section: str) -> None:
        unknown = [k for k in data if k not in _KEYS[section]]
        if unknown:
            where = f"[{section}]" if section else "the top level"
            raise StudyError(
                f"{self.source}: unknown key {unknown[0]!r} in {where}; the known keys are "
                f"{', '.join(_KEYS[section])}."
            )

    def table(self, data: Mapping[str, Any], name: str) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise self.error(name, "must be a table")
        self.keys(value, name)
        return value

    def text(self, data: Mapping[str, Any], section: str, key: str) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, (str, int, float)) and not isinstance(value, bool) or hasattr(
                value, "isoformat"):
            return value.isoformat() if hasattr(value, "isoformat") else str(value)
        raise self.error(f"{section}.{key}" if section else key, f"must be text; got {value!r}")

    def strings(self, data: Mapping[str, Any], section: str, key: str) -> tuple[str, ...] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(x, (str, int)) for x in value):
            raise self.error(f"{section}.{key}", "must be a list of names or ids")
        if len(set(map(str, value))) != len(value):
            raise self.error(f"{section}.{key}", "must not repeat an entry")
        return tuple(str(x) for x in value)

    def choice(self, data: Mapping[str, Any], section: str, key: str,
               options: Sequence[str], default: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is not None and value not in options:
            shown = ", ".join(repr(o) for o in options)
            raise self.error(f"{section}.{key}", f"must be one of {shown}; got {value!r}")
        return value

    def population(self, t: Mapping[str, Any], base_dir: str | Path | None) -> Population:
        items = self.strings(t, "population", "items")
        items_file = self.text(t, "population", "items_file")
        if items is not None and items_file is not None:
            raise self.error("population.items_file", "cannot be given together with items")
        if items_file is not None:
            folder = Path(base_dir or ".")
            items = self._read_items(folder / items_file, folder)
        return Population(self.text(t, "population", "description"),
                          self.text(t, "population", "sampling"), items, items_file)

    def _read_items(self, path: Path, base_dir: Path) -> tuple[str, ...]:
        """The item ids of ``path``: a regular text file in the study's folder, one id a line."""
        key = "population.items_file"
        try:
            inside = base_dir.resolve() in path.resolve().parents
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise self.error(key, f"{str(path)!r} is outside the study's folder; expected a "
                             "file of item ids next to the study file (or below it)")
        try:
            text = read_small_text(path, ITEMS_MAX_BYTES, StudyError)
        except StudyError as exc:
            raise self.error(key, str(exc)) from None
        lines = text.splitlines()
        items = [s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")]
        for n, item in enumerate(items, start=1):
            if len(item) > MAX_ID_CHARS or any(unicodedata.category(c) == "Cc" for c in item):
                raise self.error(key, f"{str(path)!r}: item {n} ({item[:40]!r}) is not an item "
                                 f"id; expected one id a line (at most {MAX_ID_CHARS} "
                                 "characters, no control characters)")
        if len(set(items)) != len(items):
            raise self.error(key, f"{str(path)!r} repeats an item id")
        return tuple(items)

    def annotators(self, t: Mapping[str, Any]) -> Annotators:
        names = self.strings(t, "annotators", "names")
        independent = t.get("independent")
        if independent is not None and not isinstance(independent, bool):
            raise self.error("annotators.independent",
                             f"must be true or false; got {independent!r}")
        return Annotators(names, independent)

    def task(self, t: Mapping[str, Any]) -> Task:
        cats = t.get("categories")
        if cats is not None:
            ok = isinstance(cats, list) and cats and all(
                isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in cats)
            if not ok or len(set(map(str, cats))) != len(cats):
                raise self.error("task.categories", "must be a non-empty list of distinct labels")
            cats = tuple(cats)
        return Task(cats, self.text(t, "task", "ontology_revision"),
                    self.choice(t, "task", "missing", MISSING_CHOICES))

    def rule(self, t: Mapping[str, Any], declared: Any) -> AcceptanceRule:
        text = t.get("rule")
        if not isinstance(text, str):
            raise self.error("acceptance.rule", "is required, e.g. rule = \"cohen_kappa >= 0.8\"")
        m = _RULE.match(text)
        if not m:
            raise self.error("acceptance.rule", f"must read 'NAME >= NUMBER' or 'NAME > NUMBER'; "
                             f"got {text!r}")
        name, op, number = m.groups()
        coefficient = _resolve_name(name, declared if isinstance(declared, str) else None)
        if coefficient is None:
            raise self.error("acceptance.rule", self._unknown_name(name, declared))
        on = self.choice(t, "acceptance", "on", ON_CHOICES, "estimate")
        return AcceptanceRule(coefficient, float(number), op, on)  # type: ignore[arg-type]

    def _unknown_name(self, name: str, declared: Any) -> str:
        if isinstance(declared, str):
            return f"names {name!r} but [metric].coefficient is {declared!r}"
        from accord.study import REGISTRY

        return f"names {name!r}, which is not a coefficient; one of {', '.join(sorted(REGISTRY))}"

    def metric(self, t: Mapping[str, Any], coefficient: str) -> Metric:
        from accord.data.weights import WEIGHT_NAMES
        from accord.study import is_registered

        named = t.get("coefficient")
        if named is not None and not (isinstance(named, str) and is_registered(named)):
            from accord.study import REGISTRY  # the whole list, for the refusal

            self.choice(t, "metric", "coefficient", sorted(REGISTRY))
        level = t.get("confidence_level", 0.95)
        if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
            raise self.error("metric.confidence_level",
                             f"must be a number in (0, 1); got {level!r}")
        n_resamples = t.get("n_resamples", 9999)
        if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
            raise self.error("metric.n_resamples",
                             f"must be a positive integer; got {n_resamples!r}")
        seed = t.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise self.error("metric.seed", f"must be a non-negative integer; got {seed!r}")
        return Metric(
            coefficient=coefficient, weights=self.choice(t, "metric", "weights", WEIGHT_NAMES),
            level=self.choice(t, "metric", "level", LEVELS), form=self.text(t, "metric", "form"),
            confidence_level=float(level), average=self.choice(t, "metric", "average", AVERAGES),
            mode=self.choice(t, "metric", "mode", SPAN_MODES),
            positive=self._label(t, "positive"),
            interval=self.choice(t, "metric", "interval", INTERVALS, "asymptotic") or "asymptotic",
            n_resamples=n_resamples, seed=seed,
            bootstrap_kind=self.choice(t, "metric", "bootstrap_kind", BOOTSTRAP_KINDS,
                                       "percentile") or "percentile",
        )

    def _label(self, t: Mapping[str, Any], key: str) -> Any:
        value = t.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
            raise self.error(f"metric.{key}", f"must be a class label (text or integer); "
                             f"got {value!r}")
        return value

    def disposition(self, t: Mapping[str, Any]) -> Disposition:
        return Disposition(**{k: self.text(t, "disposition", k) or "" for k in DISPOSITION_FIELDS})
