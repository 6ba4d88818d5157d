"""The linking scorer at run time: a small feed-forward net over the features of
:data:`neuralcoref.core.linking.linking.LINK_FEATURES`, in numpy (``train/linker.py``
trains its PyTorch twin and exports it here; a test holds the two equal).

A scorer folder holds ``config.json`` (the feature names, the number of layers,
how it was trained) and ``weights.npz`` (``W0``, ``b0``, ``W1``, ``b1``...: float32,
``W`` of shape (n_out, n_in) as torch's ``nn.Linear`` stores it).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from ...errors import Errors, KBLoadError
from .linking import LINK_FEATURES, N_FEATURES


class LinkScorer:
    """The pair scorer: a feed-forward net, ReLU between layers, one output.

    weights (List[Tuple[ndarray, ndarray]]): (W (n_out, n_in) float32, b (n_out,)
        float32) per layer, as torch's ``nn.Linear`` stores them.
    """

    CONFIG, WEIGHTS = "config.json", "weights.npz"

    def __init__(self, weights: Sequence[Tuple[np.ndarray, np.ndarray]]):
        self.weights = [(np.ascontiguousarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                        for w, b in weights]

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """Scores of pairs: features (n, N_FEATURES) float32 -> (n,) float32."""
        x = features
        for i, (w, b) in enumerate(self.weights):
            x = x @ w.T + b
            if i < len(self.weights) - 1:
                np.maximum(x, 0, out=x)
        return x[:, 0]

    def to_disk(self, path: Union[str, Path], meta: Optional[dict] = None) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        arrays = {f"{kind}{i}": a for i, (w, b) in enumerate(self.weights) for kind, a in (("W", w), ("b", b))}
        np.savez(path / self.WEIGHTS, **arrays)
        config = {**(meta or {}), "features": list(LINK_FEATURES), "layers": len(self.weights)}
        (path / self.CONFIG).write_text(json.dumps(config, indent=2), encoding="utf8")

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "LinkScorer":
        """Load a scorer folder (config.json, weights.npz).

        RAISES KBLoadError: E405 (missing or damaged), E406 (other features).
        """
        path = Path(path)
        try:
            config = json.loads((path / cls.CONFIG).read_text(encoding="utf8"))
            with np.load(path / cls.WEIGHTS, allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
            layers = [(arrays[f"W{i}"], arrays[f"b{i}"]) for i in range(int(config["layers"]))]
        except FileNotFoundError:
            raise KBLoadError(Errors.E405.format(path=path, reason="missing")) from None
        except (ValueError, KeyError, TypeError, OSError) as err:
            raise KBLoadError(Errors.E405.format(path=path, reason=f"damaged ({type(err).__name__}: {err})")) from None
        if list(config.get("features", [])) != list(LINK_FEATURES):
            raise KBLoadError(Errors.E406.format(path=path, found=len(config.get("features", [])),
                                                 expected=N_FEATURES, names=", ".join(LINK_FEATURES)))
        n_in = N_FEATURES
        for w, b in layers:
            if w.ndim != 2 or w.shape[1] != n_in or b.shape != (w.shape[0],):
                raise KBLoadError(Errors.E405.format(path=path, reason=f"damaged (a layer of shape {w.shape})"))
            n_in = w.shape[0]
        if n_in != 1:
            raise KBLoadError(Errors.E405.format(path=path, reason="damaged (the last layer has no single output)"))
        return cls(layers)
