"""Training for neuralcoref (installed as ``neuralcoref.train``; needs PyTorch).

    neuralcoref train --train TRAIN --dev DEV --spacy-model en_core_web_sm --out runs/en --config en
    neuralcoref export runs/en    # the best checkpoint of a stopped run
    neuralcoref pretrain --text TEXT --spacy-model en_core_web_sm --out runs/pre --config en
"""
try:
    import torch  # noqa: F401
except ImportError as err:  # pragma: no cover - depends on the environment
    from neuralcoref.errors import Errors, NeuralcorefError

    raise NeuralcorefError(Errors.E210) from err

from .config import PhaseConfig, TrainConfig, load_config
from .interrupt import TrainingInterrupted
from .pretrain import pretrain
from .recipes import recipe_names
from .trainer import export_run, train

__all__ = ["PhaseConfig", "TrainConfig", "TrainingInterrupted", "export_run", "load_config", "pretrain",
           "recipe_names", "train"]
