"""SQUAREM: squared extrapolation of the EM iterates, with EM's fixed points.

Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for
accelerating the convergence of any EM algorithm. *Scandinavian Journal of
Statistics* 35(2), 335-353.

Write ``F`` for one EM map (an E step, then an M step) on the parameters, taken
in free coordinates ``y``: log-probabilities for the class prior and the rows of
the confusion matrices (renormalised on the way back; cells that are exactly 0
stay 0), log-odds for one-coin accuracies. (On the probabilities themselves the
extrapolation leaves the simplex at almost every cycle: a cell collapsing toward
0 gives ``x' = (1-a)^2 x0 - 2a(a-1) x1 + a^2 x2 < 0`` for any ``a > 1`` once ``x2``
is far below ``x1``.) From ``y0`` a cycle takes two EM steps, ``y1 = F(y0)`` and
``y2 = F(y1)``, and with ``r = y1 - y0`` and ``v = y2 - 2 y1 + y0`` jumps to

    y' = y0 + 2 a r + a^2 v,   a = ||r|| / ||v||   (the step length "S3"),

which is ``y2`` at ``a = 1``; ``a`` is kept in ``[1, a_max]``, ``a_max`` growing
fourfold each time it binds and held, shrinking fourfold when it had to
back-track (the paper's section 6 and the authors' SQUAREM package). The
safeguard: while the log-likelihood at ``y'`` is not finite or falls below
``L(y1)`` (one plain EM step's), ``a`` moves halfway back toward 1
(back-tracking); near ``a = 1`` the cycle ends at ``y2``, a plain EM step. A
fixed point of ``F`` makes ``r = v = 0``, so it is a fixed point of the cycle; where
the likelihood has several, the accelerated path may reach another one.

The stopping rule is plain EM's: the log-likelihood moved less than ``tol`` per
rating over one EM map (``y0`` to ``y1``, or ``y1`` to ``y2`` when the cycle ends
at ``y2``). The iteration count is the number of E steps (passes over the
ratings): each EM map is one, a cycle costs two plus one per extrapolated point
tried, so counts are comparable with plain EM's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from accord.data._validation import user_level

from ._crowd import EPS, FloatArray, warn_not_converged

Params = dict[str, Any]
#: What an E step leaves for the M step: the posterior in memory, the collected
#: per-(rater, label) sums on an engine (:mod:`accord.engines._consensus`).
Post = TypeVar("Post")
EStep = Callable[[Params], tuple[Post, float]]
MStep = Callable[[Post, Params], Params]
Result = tuple[Post, Params, int, float, bool, float]

#: The growth of the step cap each time the step length reaches it (Varadhan & Roland).
_STEP_GROWTH = 4.0
#: Back-tracking gives up extrapolating (ends the cycle at ``x2``) below this step length.
_PLAIN_STEP = 1.01


Kind = str  # "simplex": rows along the last axis sum to 1; "unit": each in [0, 1]


def kinds_of(params: Params) -> dict[str, Kind]:
    """The kind of each parameter of one-coin and Dawid-Skene: one-coin's accuracies are
    each in [0, 1]; the class prior and the confusion matrices' rows are simplices."""
    return {name: "unit" if name == "accuracy" else "simplex" for name in params}


@dataclass(frozen=True)
class Layout:
    """The parameters as one flat vector of free coordinates, and back.

    The extrapolation runs on log-probabilities (``"simplex"`` arrays, rows along
    the last axis renormalised on the way back; cells that are exactly 0 stay 0)
    and log-odds (``"unit"`` arrays), so every extrapolated point is a valid
    parameter; a fixed point of EM is a fixed point in these coordinates too.
    """

    names: tuple[str, ...]
    shapes: tuple[tuple[int, ...], ...]
    kinds: tuple[Kind, ...]

    @classmethod
    def of(cls, params: Params, kinds: dict[str, Kind]) -> Layout:
        names = tuple(sorted(params))
        return cls(names, tuple(np.shape(params[n]) for n in names),
                   tuple(kinds[n] for n in names))

    def free(self, params: Params) -> FloatArray:
        parts = []
        for name, kind in zip(self.names, self.kinds):
            x = np.ravel(np.asarray(params[name], dtype=np.float64))
            if kind == "simplex":
                parts.append(np.log(np.where(x > 0, x, 1.0)))
            else:
                x = np.clip(x, EPS, 1.0 - EPS)
                parts.append(np.log(x) - np.log1p(-x))
        return np.concatenate(parts)

    def params(self, y: FloatArray, like: Params) -> Params:
        """The parameters at free coordinates ``y``, with the exact zeros of ``like``."""
        out, at = {}, 0
        for name, shape, kind in zip(self.names, self.shapes, self.kinds):
            size = math.prod(shape)
            part = y[at:at + size].reshape(shape)
            at += size
            if kind == "simplex":
                zero = np.asarray(like[name]) == 0
                part = np.where(zero, -np.inf, part)
                top = part.max(axis=-1, keepdims=True)
                x = np.exp(part - np.where(np.isfinite(top), top, 0.0))
                x /= x.sum(axis=-1, keepdims=True)
                out[name] = x
            else:
                out[name] = 1.0 / (1.0 + np.exp(-part))
        return out


@dataclass
class _Budget:
    """E steps left before ``max_iter`` (shared by the cycle's steps)."""

    used: int
    cap: int

    @property
    def spent(self) -> bool:
        return self.used >= self.cap


def run_squarem(n_ratings: int, e_step: EStep[Post], m_step: MStep[Post], params: Params,
                kinds: dict[str, Kind], *, tol: float, max_iter: int, method: str
                ) -> Result[Post]:
    """EM accelerated by SQUAREM until one EM map moves the log-likelihood by less than
    ``tol`` per rating: the posterior, the parameters fitted to it, the number of E
    steps, the log-likelihood, whether it converged and the last change."""
    layout = Layout.of(params, kinds)
    step_cap = 1.0
    post, ll = e_step(params)
    budget = _Budget(1, max_iter)
    change = math.inf
    while not budget.spent:
        p1 = m_step(post, params)
        post1, ll1 = e_step(p1)
        budget.used += 1
        change = abs(ll1 - ll) / n_ratings
        if change < tol:
            return post1, m_step(post1, p1), budget.used, ll1, True, change
        if budget.spent:
            post, params, ll = post1, p1, ll1
            break
        p2 = m_step(post1, p1)
        y0, y1, y2 = layout.free(params), layout.free(p1), layout.free(p2)
        r, v = y1 - y0, y2 - 2.0 * y1 + y0
        # sums of squares, not ``r @ r``: a BLAS dot wakes OpenBLAS's threads, whose
        # spinning afterwards slowed the next sparse products by half on two cores
        rr, vv = float(np.square(r).sum()), float(np.square(v).sum())
        wanted = math.sqrt(rr / vv) if vv > 0 else 1.0
        a = max(min(wanted, step_cap), 1.0)
        got = _extrapolate(layout, e_step, y0, r, v, p2, a, ll1, budget)
        if got is None and budget.spent:  # every point tried was refused: keep x1
            post, params, ll = post1, p1, ll1
        elif got is None:  # back-tracked to x2: a plain EM step, checked by the rule above
            params = p2
            post, ll = e_step(params)
            budget.used += 1
            change = abs(ll - ll1) / n_ratings
            if change < tol:
                return post, m_step(post, params), budget.used, ll, True, change
        else:
            params, post, ll = got[:3]
        step_cap = _next_cap(step_cap, wanted, a, got[3] if got is not None else 1.0)
    warn_not_converged(method, max_iter, change, tol, stacklevel=user_level())
    return post, m_step(post, params), budget.used, ll, False, change


def _next_cap(cap: float, wanted: float, tried: float, taken: float) -> float:
    """The step cap of the next cycle: four times larger when it bound and held (or is
    still 1, where nothing is tried), four times smaller (not below 1) when it bound
    and the step had to back-track."""
    if wanted < cap:
        return cap
    if taken == tried or cap == 1.0:
        return cap * _STEP_GROWTH
    return max(1.0, cap / _STEP_GROWTH)


def _extrapolate(layout: Layout, e_step: EStep[Post], y0: FloatArray, r: FloatArray,
                 v: FloatArray, like: Params, a: float, floor: float, budget: _Budget
                 ) -> tuple[Params, Post, float, float] | None:
    """The extrapolated point with the longest step length tried (halving toward 1) whose
    log-likelihood is finite and at least ``floor``, evaluated; ``None`` when the cycle
    should end at ``x2``."""
    while a > _PLAIN_STEP and not budget.spent:
        params = layout.params(y0 + (2.0 * a) * r + (a * a) * v, like)
        post, ll = e_step(params)
        budget.used += 1
        if math.isfinite(ll) and ll >= floor:
            return params, post, ll, a
        a = (a + 1.0) / 2.0
    return None
