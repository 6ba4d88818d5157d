"""Fold runs and their ensemble, at the fold board's offset 0 and at the oracle offset.

A distillation teacher on the fold board (train/distill.py) is the mean of fold runs'
scores; this decodes each run's held-out folds as it scored them
(``fold_<k>.scored.pkl``, kept by ``neuralcoref folds``) and the mean of the
``--members``' scores, at offset 0 (the board's figure) and at the best uniform link
offset on the fold itself (an oracle: how much of a difference is calibration)::

    python bench/fold_ensemble.py --folds 0,1,2,3,4 --members seed0,seed1,seed2 \\
        seed0=runs/folds/baseline seed1=runs/folds/seed1 seed2=runs/folds/seed2 distill=runs/folds/distill

Results: docs/experiments/2026-12-08-distillation.md.
"""
from __future__ import annotations

import argparse
import copy
import pickle
from typing import Dict

import numpy as np

from neuralcoref.artifacts.tuning import ScoredDev, best_uniform_offset

GRID = np.arange(-2.0, 2.01, 0.25)


def mean_scores(devs) -> ScoredDev:
    """The held-out fold scored by the mean of the runs' single and pair scores."""
    merged = copy.deepcopy(devs[0])
    for i, doc in enumerate(merged.docs):
        doc.scores.single = np.mean([d.docs[i].scores.single for d in devs], axis=0).astype(np.float32)
        doc.scores.pair = np.mean([d.docs[i].scores.pair for d in devs], axis=0).astype(np.float32)
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="NAME=FOLDER of a fold run")
    parser.add_argument("--folds", default="0,1,2,3,4")
    parser.add_argument("--members", default="", help="comma-separated runs averaged as 'ensemble'")
    args = parser.parse_args()
    runs: Dict[str, str] = dict(item.split("=", 1) for item in args.runs)
    members = [m for m in args.members.split(",") if m]
    print("| fold | run | offset 0 | best offset | at |\n| ---: | --- | ---: | ---: | ---: |")
    for fold in (int(f) for f in args.folds.split(",")):
        devs = {}
        for name, folder in runs.items():
            with open(f"{folder}/fold_{fold}.scored.pkl", "rb") as f:
                devs[name] = pickle.load(f)
        if members:
            devs["ensemble"] = mean_scores([devs[m] for m in members])
        for name, dev in devs.items():
            offset, best, raw = best_uniform_offset(dev, GRID)
            print(f"| {fold} | {name} | {100 * raw.conll_f1:.2f} | {100 * best.conll_f1:.2f} | {offset:+.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
