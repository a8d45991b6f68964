"""The benchmark scales: bands of a coefficient's value, with citations and caveats.

See :mod:`accord.interpret.interpretation` for the table of scales and how they are used.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from accord.errors import InvalidParameterError
from accord.inference._normal import norm_cdf

UNDEFINED = "undefined"


@dataclass(frozen=True)
class Band:
    """One named range of a scale: ``lower`` (inclusive) up to the next band's lower bound."""

    lower: float
    label: str


@dataclass(frozen=True)
class Scale:
    """A published benchmark scale.

    Attributes
    ----------
    name : str
        Key in :data:`SCALES`, e.g. ``"landis_koch"``.
    title : str
        Short display name with its year, e.g. ``"Landis & Koch (1977)"``.
    bands : tuple of Band
        In increasing order of ``lower``; the first band extends down to the
        coefficient's minimum whatever its ``lower`` says.
    citation : str
        The reference that proposed the scale.
    caveat : str
        What the scale does not say.
    applies_to : tuple of str or None
        Prefixes of the coefficient names the scale was written for; ``None`` when
        it is used for any chance-corrected coefficient.
    grades_interval : bool
        Whether the scale's authors grade the confidence interval rather than the
        estimate (Koo & Li 2016: "Poor to Good" for an interval from 0.41 to 0.84).
    """

    name: str
    title: str
    bands: tuple[Band, ...]
    citation: str
    caveat: str
    applies_to: tuple[str, ...] | None = None
    grades_interval: bool = False

    def __post_init__(self) -> None:
        lowers = [b.lower for b in self.bands]
        if not self.bands or any(b <= a for a, b in zip(lowers, lowers[1:])):
            raise InvalidParameterError(
                f"The bands of scale {self.name!r} must be a non-empty sequence with strictly "
                f"increasing lower bounds. Got {lowers!r} instead."
            )

    @property
    def labels(self) -> tuple[str, ...]:
        """The band labels from the lowest band to the highest."""
        return tuple(b.label for b in self.bands)

    def band_index(self, value: float) -> int:
        """Position of the band holding ``value`` (0 = lowest band)."""
        lowers = np.array([b.lower for b in self.bands[1:]])
        return int(np.searchsorted(lowers, value, side="right"))

    def band_of(self, value: float) -> str:
        """The label of the band holding ``value`` (lower bounds are inclusive).

        Examples
        --------
        >>> SCALES["landis_koch"].band_of(0.4), SCALES["landis_koch"].band_of(0.3999)
        ('Moderate', 'Fair')
        """
        if math.isnan(value):
            return UNDEFINED
        return self.bands[self.band_index(value)].label

    def intervals(
        self, low: float = -math.inf, high: float = math.inf
    ) -> list[tuple[float, float]]:
        """``(lower, upper)`` of each band, lowest first, cut to the range ``[low, high]``."""
        lowers = [low] + [b.lower for b in self.bands[1:]]
        uppers = [b.lower for b in self.bands[1:]] + [high]
        return [(max(lo, low), min(hi, high)) for lo, hi in zip(lowers, uppers)]


_CONVENTION = (
    "These bands are conventions, not verdicts: where to draw the line depends on what "
    "the ratings will be used for."
)
_KAPPA = (
    " Chance-corrected agreement depends on the prevalence of the categories and on the "
    "raters' bias, so the same band can hide very different tables; report the "
    "confidence interval and the table with the band."
)
_ICC = (
    " An ICC depends on how much the rated targets differ from each other, so the same "
    "raters get a lower ICC on a more homogeneous sample; report the confidence interval "
    "and the ICC form with the band."
)


def _scale(name: str, title: str, bands: list[tuple[float, str]], citation: str, caveat: str,
           applies_to: tuple[str, ...] | None = None, grades_interval: bool = False) -> Scale:
    return Scale(name, title, tuple(Band(lo, label) for lo, label in bands), citation, caveat,
                 applies_to, grades_interval)


SCALES: Mapping[str, Scale] = {
    s.name: s
    for s in (
        _scale(
            "landis_koch", "Landis & Koch (1977)",
            [(-1.0, "Poor"), (0.0, "Slight"), (0.2, "Fair"), (0.4, "Moderate"),
             (0.6, "Substantial"), (0.8, "Almost perfect")],
            "Landis, J. R. & Koch, G. G. (1977). The measurement of observer agreement for "
            "categorical data. Biometrics 33(1), 159-174.",
            _CONVENTION + " Landis and Koch called their divisions 'clearly arbitrary'." + _KAPPA,
        ),
        _scale(
            "fleiss", "Fleiss (1981)",
            [(-1.0, "Poor"), (0.4, "Fair to good"), (0.75, "Excellent")],
            "Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions, 2nd ed., "
            "p. 218. Wiley, New York.",
            _CONVENTION + _KAPPA,
        ),
        _scale(
            "altman", "Altman (1991)",
            [(-1.0, "Poor"), (0.2, "Fair"), (0.4, "Moderate"), (0.6, "Good"),
             (0.8, "Very good")],
            "Altman, D. G. (1991). Practical Statistics for Medical Research, p. 404. "
            "Chapman & Hall, London.",
            _CONVENTION + _KAPPA,
        ),
        _scale(
            "krippendorff", "Krippendorff (2004)",
            [(-1.0, "Unreliable"), (0.667, "Tentative conclusions only"), (0.8, "Reliable")],
            "Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, "
            "2nd ed., p. 241. Sage, Thousand Oaks, CA.",
            _CONVENTION + " Krippendorff asks that alpha be unlikely to fall below the chosen "
            "minimum (read the lower confidence limit, not the estimate) and for a higher "
            "minimum when wrong conclusions are costly.",
            ("krippendorff",),
        ),
        _scale(
            "cicchetti", "Cicchetti (1994)",
            [(-1.0, "Poor"), (0.4, "Fair"), (0.6, "Good"), (0.75, "Excellent")],
            "Cicchetti, D. V. (1994). Guidelines, criteria, and rules of thumb for evaluating "
            "normed and standardized assessment instruments in psychology. Psychological "
            "Assessment 6(4), 284-290.",
            _CONVENTION + " Cicchetti's guidelines concern clinical significance; statistical "
            "significance and the confidence interval must be read with them.",
        ),
        _scale(
            "regier", "Regier et al. (2013)",
            [(-1.0, "Unacceptable"), (0.2, "Questionable"), (0.4, "Good"), (0.6, "Very good"),
             (0.8, "Excellent")],
            "Regier, D. A., Narrow, W. E., Clarke, D. E., Kraemer, H. C., Kuramoto, S. J., "
            "Kuhl, E. A. & Kupfer, D. J. (2013). DSM-5 field trials in the United States and "
            "Canada, Part II: test-retest reliability of selected categorical diagnoses. "
            "American Journal of Psychiatry 170(1), 59-70.",
            _CONVENTION + " Regier et al. set these bands for the DSM-5 field trials, expecting "
            "lower kappas for clinical diagnoses than earlier trials reported." + _KAPPA,
        ),
        _scale(
            "koo_li", "Koo & Li (2016)",
            [(-1.0, "Poor"), (0.5, "Moderate"), (0.75, "Good"), (0.9, "Excellent")],
            "Koo, T. K. & Li, M. Y. (2016). A guideline of selecting and reporting intraclass "
            "correlation coefficients for reliability research. Journal of Chiropractic "
            "Medicine 15(2), 155-163.",
            _CONVENTION + _ICC + " Koo and Li grade the 95% confidence interval, not the "
            "point estimate.",
            ("icc",), grades_interval=True,
        ),
    )
}


def default_scale(coefficient: str) -> str:
    """The scale written for a coefficient: Krippendorff's for alpha, Koo & Li's for ICCs.

    Every other coefficient gets Landis & Koch's, the most widely quoted.

    >>> default_scale("krippendorff_alpha"), default_scale("icc2"), default_scale("cohen_kappa")
    ('krippendorff', 'koo_li', 'landis_koch')
    """
    for name in ("krippendorff", "koo_li"):
        prefixes = SCALES[name].applies_to or ()
        if any(coefficient.startswith(p) for p in prefixes):
            return name
    return "landis_koch"


def membership(est: float, se: float, bands: list[tuple[float, float]],
                lo: float, hi: float) -> tuple[list[float], list[float]]:
    """Truncated-normal P(band) and P(band or higher), highest band first."""
    if se == 0.0:
        inside = [low <= est < high or (high == hi and est == hi) for low, high in bands]
        member = [1.0 if hit else 0.0 for hit in inside]
        return member, [float(c) for c in np.cumsum(member)]
    else:
        top = float(norm_cdf((hi - est) / se))
        total = top - float(norm_cdf((lo - est) / se))
        above = [(top - float(norm_cdf((low - est) / se))) / total for low, _ in bands]
        cumul = [min(max(a, 0.0), 1.0) for a in above]
        cumul[-1] = 1.0
        member = [cumul[0]] + [b - a for a, b in zip(cumul, cumul[1:])]
        return member, cumul
