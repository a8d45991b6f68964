"""A partition of coded ratings held as arrays on a worker, and one EM pass over it.

Dask and Spark run these functions on their workers (:mod:`accord.engines._held`).
A block holds every rating of its units (the ratings are partitioned by unit), so a
unit's posterior is computed where its ratings are. A block is a plain tuple of numpy
arrays, ``(ids, indptr, indices)``: the sorted unit ids, and the units x keys
incidence in compressed rows (row ``u`` lists the positions, in the crowd's sorted
keys, of unit ``u``'s ratings' ``rater * k + label`` keys). One pass gives what the
M step reads, summed over the block's units: the posterior mass per (key, true
class), the posterior per class, and the log-likelihood; the driver adds the
blocks' sums. The arithmetic is :mod:`accord.engines._crowd`'s query in numpy and
scipy: ``s = X @ terms + log prior``, normalised per row, and ``X.T @ posterior``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

Block = tuple[NDArray[Any], NDArray[np.int64], NDArray[np.int32]]
Sums = tuple[NDArray[np.float64], NDArray[np.float64], float]


def build(units: NDArray[Any], keys: NDArray[np.int64], known: NDArray[np.int64]) -> Block:
    """The block of one partition's ratings: ``units`` and ``keys`` one per rating,
    ``known`` the crowd's sorted keys (every key here is one of them)."""
    ids, inv = np.unique(units, return_inverse=True)
    order = np.lexsort((keys, inv))
    indptr = np.zeros(ids.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(inv, minlength=ids.shape[0]), out=indptr[1:])
    indices = np.searchsorted(known, keys[order]).astype(np.int32)
    return ids, indptr, indices


def from_frame(frame: Any, unit: str, key: str, known: NDArray[np.int64]) -> Block:
    """The block of a pandas partition (Dask)."""
    return build(np.asarray(frame[unit].to_numpy()),
                 np.asarray(frame[key].to_numpy(), dtype=np.int64), known)


def from_arrow(batches: Iterable[Any], unit: str, key: str,
               known: NDArray[np.int64]) -> Iterator[Any]:
    """One Arrow batch holding the pickled block of the Arrow batches of a partition
    (Spark's ``mapInArrow``)."""
    import pickle

    import pyarrow as pa

    got = list(batches)
    table = pa.Table.from_batches(got) if got else None
    if table is None or table.num_rows == 0:
        return
    units = table.column(unit).to_numpy(zero_copy_only=False)
    keys = np.asarray(table.column(key).to_numpy(zero_copy_only=False), dtype=np.int64)
    block = build(units, keys, known)
    yield pa.RecordBatch.from_pydict({"block": [pickle.dumps(block, protocol=5)]},
                                     schema=pa.schema([("block", pa.binary())]))


def matrix(block: Block, n_keys: int) -> Any:
    """The block's units x keys incidence as a scipy CSR matrix of ones."""
    from scipy import sparse

    ids, indptr, indices = block
    data = np.ones(indices.shape[0], dtype=np.float64)
    return sparse.csr_matrix((data, indices, indptr), shape=(ids.shape[0], n_keys))


def posterior(x: Any, terms: NDArray[np.float64],
              log_prior: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per unit: the posterior over the true classes and the log-likelihood."""
    s = np.asarray(x @ terms) + log_prior
    top = s.max(axis=1, keepdims=True)
    e = np.exp(s - top)
    total = e.sum(axis=1, keepdims=True)
    return e / total, (np.log(total) + top)[:, 0]


def e_and_m(block: Block, terms: NDArray[np.float64], log_prior: NDArray[np.float64]) -> Sums:
    """One E step over the block, and the sums its M step reads."""
    x = matrix(block, terms.shape[0])
    post, ll = posterior(x, terms, log_prior)
    return np.asarray(x.T @ post), post.sum(axis=0), float(ll.sum())


def votes(block: Block, labels: NDArray[np.int64], k: int) -> Sums:
    """The sums of the vote shares (the majority-vote posterior): ``labels`` gives each
    known key's label code."""
    x = matrix(block, labels.shape[0])
    onehot = np.zeros((labels.shape[0], k))
    onehot[np.arange(labels.shape[0]), labels] = 1.0
    counts = np.asarray(x @ onehot)
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    return np.asarray(x.T @ shares), shares.sum(axis=0), float("nan")


def units(block: Block, terms: NDArray[np.float64],
          log_prior: NDArray[np.float64]) -> tuple[NDArray[Any], NDArray[np.int64],
                                                   NDArray[np.float64]]:
    """The block's unit ids, their rating counts and their posteriors."""
    x = matrix(block, terms.shape[0])
    return block[0], np.diff(block[1]), posterior(x, terms, log_prior)[0]


def add(a: Sums, b: Sums) -> Sums:
    """The sums of two blocks together."""
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def add_all(parts: list[Sums]) -> Sums:
    """The sums of many blocks together (the first block's shapes)."""
    out = parts[0]
    for p in parts[1:]:
        out = add(out, p)
    return out
