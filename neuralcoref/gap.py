"""``neuralcoref.gap`` (documented public API): the GAP pronoun benchmark,
implemented in :mod:`neuralcoref.corpora.gap`."""
from .corpora.gap import GapExample, GapScores, char_clusters, decide, predict_gap, read_gap, score_gap

__all__ = ["GapExample", "GapScores", "char_clusters", "decide", "predict_gap", "read_gap", "score_gap"]
