"""Library messages in the command line's own words.

The library names its parameters as Python does (``raters=[...]``,
``duplicates='last'``, "The 'format' parameter of accord.read ..."); a
command-line user must read ``--raters A B``, ``--duplicates last`` and
``--format``. :func:`cli_text` rewrites one message; every error, usage error
and caveat the CLI prints goes through it. A route the library writes as
``accord.span_agreement (accord CLI: accord spans)`` keeps only the part after
``accord CLI:``.
"""

from __future__ import annotations

import re

__all__ = ["OPTIONS", "cli_text"]

#: Library parameter -> (CLI option, what to write when the message gives no value).
OPTIONS: dict[str, tuple[str, str]] = {
    "format": ("--format", "NAME"),
    "field": ("--field", "NAME"),
    "unit": ("--unit", "COL"),
    "rater": ("--rater", "COL"),
    "value": ("--value", "COL"),
    "raters": ("--raters", "A B"),
    "categories": ("--categories", "LABEL..."),
    "level": ("--level", "LEVEL"),
    "missing": ("--missing", "MARKER..."),
    "duplicates": ("--duplicates", "last"),
    "include_kinds": ("--kinds", "KIND..."),
    "weights": ("--weights", "NAME"),
    "form": ("--form", "FORM"),
    "confidence_level": ("--confidence-level", "X"),
    "method": ("--ci", "METHOD"),
    "n_resamples": ("--n-resamples", "N"),
    "rng": ("--seed", "N"),
    "seed": ("--seed", "N"),
    "population_size": ("--population-size", "N"),
    "pairs": ("--pair", "A B"),
    "scale": ("--scale", "NAME"),
    "coefficient": ("--coefficient", "NAME"),
    "coefficients": ("--coefficient", "NAME"),
    "top_units": ("--top-units", "N"),
    "title": ("--title", "TEXT"),
    "path_or_paths": ("DATA", ""),
    "reference": ("--gold", "COL"),
    "systems": ("--predicted", "COL..."),
    "average": ("--average", "NAME"),
    "positive": ("--positive", "LABEL"),
    "max_iter": ("--max-iter", "N"),
    "tol": ("--tol", "X"),
    "test": ("--test", "NAME"),
    "judges": ("--judges", "COL..."),
    "humans": ("--humans", "COL..."),
    "names": ("--names", "NAME..."),
    "sigmas": ("--sigmas", "NAME=S..."),
    "empty_label": ("--empty-label", "TEXT"),
}

_NAMES = "|".join(sorted(OPTIONS, key=len, reverse=True))
# Every pattern starts only where a token starts and scans a bracket or a quote only to
# the next one, so a message is rewritten in linear time whatever labels it quotes.
_ROUTE = re.compile(r"(?<![^\s(])[^\s(]+ \(accord CLI: ([^()]*)\)")
_BOOTSTRAP = re.compile(r"\bmethod=accord\.Bootstrap\(\.\.\.\)")
_PARAMETER = re.compile(rf"\b[Tt]he '({_NAMES})' parameter of \S+(?: [a-z-]+)?(?= must\b)")
_ASSIGN = re.compile(
    rf"(?<![\w.-])({_NAMES})=(\.\.\.|\[\.\.\.\]|\[[^\[\]]*\]|\{{[^{{}}]*\}}|'[^']*'|\"[^\"]*\""
    r"|\w(?:[\w.-]*\w)?)?"
)


def cli_text(message: str) -> str:
    """``message`` with library spellings replaced by the CLI's options.

    Examples
    --------
    >>> cli_text("name two with raters=[...].")
    'name two with --raters A B.'
    >>> cli_text("The 'format' parameter of accord.read must be one of {'csv'}. Got 'x' instead.")
    "--format must be one of {'csv'}. Got 'x' instead."
    >>> cli_text("pass duplicates='last' (accord CLI: --duplicates last) to keep it")
    'pass --duplicates last to keep it'
    >>> cli_text("keypoint 'tip' has no sigma; give sigmas={'tip': ...}")
    "keypoint 'tip' has no sigma; give --sigmas tip=..."
    >>> cli_text("empty_label='': 2 empty cell(s) scored as the empty set")
    "--empty-label '': 2 empty cell(s) scored as the empty set"
    """
    text = _ROUTE.sub(lambda m: m.group(1).strip(), message)
    text = _BOOTSTRAP.sub("--ci bootstrap", text)
    text = _PARAMETER.sub(lambda m: OPTIONS[m.group(1)][0], text)
    return _ASSIGN.sub(_option, text)


def _option(m: re.Match[str]) -> str:
    option, metavar = OPTIONS[m.group(1)]
    given = m.group(2)
    if given is None or given in ("...", "[...]"):
        return f"{option} {metavar}".rstrip()
    if given.startswith("{"):  # a mapping: NAME=VALUE pairs
        pairs = [x.partition(":") for x in given[1:-1].split(",") if x.strip()]
        items = [f"{k.strip().strip(chr(39) + chr(34))}={v.strip().strip(chr(39) + chr(34))}"
                 for k, _, v in pairs]
        return " ".join([option, *items]) if items else f"{option} {metavar}"
    if given.startswith("["):
        items = [x.strip().strip("'\"") for x in given[1:-1].split(",") if x.strip()]
        return " ".join([option, *items]) if items else f"{option} {metavar}"
    value = given.strip(chr(39) + chr(34))
    return f"{option} {value}" if value else f"{option} ''"  # an empty text stays visible
