"""neuralcoref.core.decode.decode_passes: the decoder as ordered passes, rules switched off by name."""
import numpy as np
import pytest

from decode_calls import decode_clusters
from neuralcoref.core.discourse.binding import Binding
from neuralcoref.core.decode.decode_passes import PASSES, RULES, DecodeState, run_passes
from neuralcoref.core.decode.decoding import DecodeSettings, check_rules
from neuralcoref.errors import NeuralcorefError


def csr(candidates):
    ptr = np.concatenate([[0], np.cumsum([len(c) for c in candidates])]).astype(np.int64)
    return ptr, np.array([a for c in candidates for a in c], dtype=np.int32)


def speaker_chain():
    # "I"(0) "me"(1) "she"(2) "I"(3) "my"(4), one speaker: 3 starts a chain of its
    # own, which the repeat key joins to the first.
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0], [3, 2, 1, 0]])
    pair = np.array([1.0, -1, -1, -1, -1, -1, 1, -1, -1, -1], dtype=np.float32)
    return DecodeState(np.zeros(5, np.float32), pair, ptr, ante, np.arange(5),
                       repeats=np.array([9, 9, 0, 9, 9], np.uint64))


def forbidden_pair():
    # 0 <- 1 <- 2 strongly, 3's best candidate 2 but binding forbids (3, 2).
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0]])
    pair = np.array([2.0, 2.0, 1.0, 5.0, 4.0, 3.0], dtype=np.float32)
    return DecodeState(np.zeros(4, np.float32), pair, ptr, ante, np.arange(4),
                       binding=Binding.from_pairs(4, [(3, 2)]))


def test_decode_passes_every_rule_on_is_the_former_decoder():
    state = speaker_chain()
    assert decode_clusters(state.single, state.pair, state.ptr, state.ante, state.heads,
                           repeats=state.repeats) == [[0, 1, 3, 4]]
    assert run_passes(speaker_chain()) == [[0, 1, 3, 4]]


def test_decode_passes_a_pass_off_is_skipped():
    assert run_passes(speaker_chain(), frozenset(["repeats"])) == [[0, 1], [3, 4]]


def test_decode_passes_a_constraint_off_allows_what_it_forbade():
    assert run_passes(forbidden_pair()) == [[0, 1, 2]]
    assert run_passes(forbidden_pair(), frozenset(["binding"])) == [[0, 1, 2, 3]]


def test_decode_passes_agreement_off_lets_genders_meet():
    # "she"(0, fem) ... "him"(1, masc): the scores link them, agreement forbids it.
    ptr, ante = csr([[], [0]])
    agreement = np.array([[2, 1], [1, 1]], dtype=np.int32)

    def state():
        return DecodeState(np.zeros(2, np.float32), np.array([3.0], np.float32), ptr, ante, np.arange(2),
                           agreement=agreement)
    assert run_passes(state()) == []
    assert run_passes(state(), frozenset(["agreement"])) == [[0, 1]]


def test_decode_passes_names_every_switchable_pass():
    names = {name for name, _ in PASSES}
    assert names - set(RULES) == {"link", "clusters", "prefer_near"}
    assert {"prefer_subject", "prefer_thing", "prefer_coordination", "binding", "agreement"} <= set(RULES)


def test_decode_passes_settings_reject_an_unknown_rule():
    assert DecodeSettings(off=["binding", "repeats"]).off == frozenset({"binding", "repeats"})
    assert check_rules("binding") == frozenset({"binding"})
    with pytest.raises(NeuralcorefError, match="E450"):
        DecodeSettings(off={"bindings"})
