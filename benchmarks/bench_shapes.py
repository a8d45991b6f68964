"""Agreement on keypoints and polygons: ``accord.keypoint_agreement`` (OKS) and
``accord.polygon_agreement`` (exact IoU by shapely) with their bootstrap intervals.

The data: N images x 3 annotators x 10 true objects, 2 labels. Keypoints: COCO's 17
person keypoints placed uniformly in a 40-120 px box at a uniform position in a 600 px
image, each labelled with probability 0.8; each annotator jitters every point (normal,
sd 3 px), misses an object with probability 0.07 and relabels it with probability 0.05.
Polygons: a 9-point star of radius 20-70 px, each vertex jittered (sd 3 px) per
annotator (drawn again when the jitter makes the ring cross itself), with the same
misses and relabels. Tables are built in memory (reading is not timed); each shape
runs in a fresh interpreter (``--child``) that reports wall and CPU time for the counts
(matching every image at the 11 thresholds) and for the intervals (``to_dict()``), and
its peak resident memory (``VmHWM``).

Usage: ``python benchmarks/bench_shapes.py [--images 1000] [--n-resamples 999]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).parent


def keypoint_rows(n_images: int, seed: int = 0) -> dict[str, list[Any]]:
    rng = np.random.default_rng(seed)
    out: dict[str, list[Any]] = {k: [] for k in ("image", "annotator", "label", "keypoints",
                                                 "area")}  # fmt: skip
    for u in range(n_images):
        for _ in range(10):
            x0, y0, size = rng.uniform(0, 500), rng.uniform(0, 500), rng.uniform(40, 120)
            xy = np.column_stack([x0 + rng.uniform(0, size, 17), y0 + rng.uniform(0, size, 17)])
            v = np.where(rng.uniform(size=17) < 0.8, 2.0, 0.0)
            v[0] = 2.0
            label = "person" if rng.uniform() < 0.5 else "child"
            for r in ("a", "b", "c"):
                if rng.uniform() < 0.07:
                    continue
                p = xy + rng.normal(0, 3, xy.shape)
                kp = np.column_stack([np.where(v > 0, p[:, 0], 0), np.where(v > 0, p[:, 1], 0), v])
                lab = label if rng.uniform() >= 0.05 else "other"
                for key, val in zip(out, (f"i{u}", r, lab, kp.ravel().tolist(), size * size)):
                    out[key].append(val)
    return out


def polygon_rows(n_images: int, seed: int = 0) -> dict[str, list[Any]]:
    import shapely

    rng = np.random.default_rng(seed)
    out: dict[str, list[Any]] = {k: [] for k in ("image", "annotator", "label", "polygon")}
    t = np.linspace(0, 2 * np.pi, 9, endpoint=False)
    for u in range(n_images):
        for _ in range(10):
            cx, cy, rad = rng.uniform(70, 530), rng.uniform(70, 530), rng.uniform(20, 70)
            rr = rad * rng.uniform(0.6, 1.0, 9)
            ring = np.column_stack([cx + rr * np.cos(t), cy + rr * np.sin(t)])
            label = "roof" if rng.uniform() < 0.5 else "tree"
            for r in ("a", "b", "c"):
                if rng.uniform() < 0.07:
                    continue
                p = ring + rng.normal(0, 3, ring.shape)
                while not shapely.is_valid(shapely.Polygon(p)):  # a jitter crossed an edge
                    p = ring + rng.normal(0, 3, ring.shape)
                lab = label if rng.uniform() >= 0.05 else "other"
                for key, val in zip(out, (f"i{u}", r, lab, p.ravel().tolist())):
                    out[key].append(val)
    return out


def _peak_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(shape: str, n_images: int, n_resamples: int) -> dict[str, Any]:
    import accord
    from accord.readers.keypoints import keypoint_table
    from accord.readers.polygons import polygon_table

    if shape == "keypoints":
        table: Any = keypoint_table(keypoint_rows(n_images))
        run: Any = accord.keypoint_agreement
    else:
        table = polygon_table(polygon_rows(n_images))
        run = accord.polygon_agreement
    w0, c0 = time.perf_counter(), time.process_time()
    res = run(table, n_resamples=n_resamples)
    w1, c1 = time.perf_counter(), time.process_time()
    res.to_dict()
    w2, c2 = time.perf_counter(), time.process_time()
    return {"shape": shape, "images": n_images, "objects": len(table),
            "n_resamples": n_resamples, "counts_wall_s": w1 - w0, "counts_cpu_s": c1 - c0,
            "intervals_wall_s": w2 - w1, "intervals_cpu_s": c2 - c1,
            "f1": res.f1.estimate, "mean": res.mean.estimate, "alpha": res.alpha.estimate,
            "peak_rss_mib": _peak_rss_mib()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", type=int, default=1000)
    ap.add_argument("--n-resamples", type=int, default=999)
    ap.add_argument("--child", choices=["keypoints", "polygons"])
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.images, args.n_resamples)))
        return
    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
    for shape in ("keypoints", "polygons"):
        out = subprocess.run([sys.executable, __file__, "--child", shape, "--images",
                              str(args.images), "--n-resamples", str(args.n_resamples)],
                             capture_output=True, text=True, env=env, check=True)  # fmt: skip
        print(out.stdout.strip())


if __name__ == "__main__":
    main()
