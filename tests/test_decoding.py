"""neuralcoref.core.decode.decoding: decode inputs packed for storage and unpacked, one decode."""
from dataclasses import replace

import numpy as np
import pytest

from decode_calls import decode_clusters
from neuralcoref.core.discourse.binding import Binding
from neuralcoref.core.decode.decoding import (PACKED_ARRAYS, DecodeInputs, DecodeSettings, DocScores, decode,
                                              pack_inputs, unpack_inputs)
from neuralcoref.core.mentions.mentions import MENTION_TYPES

PRONOMINAL, PROPER = MENTION_TYPES.index("pronominal"), MENTION_TYPES.index("proper")


def inputs_of(n: int, forbidden=(), speakers=(), fallback=True) -> DecodeInputs:
    rng = np.random.default_rng(n)
    binding = Binding.from_pairs(n, list(forbidden))
    if not fallback:
        binding = Binding(binding.forbid_ptr, binding.forbid, binding.binder, False)
    return DecodeInputs(
        heads=np.arange(n, dtype=np.int32) * 2, types=(np.arange(n) % 4).astype(np.int8),
        agreement=rng.integers(0, 3, (n, 2)).astype(np.int32),
        repeats=rng.integers(0, 2**63, n, dtype=np.uint64), names=rng.integers(0, 2**63, n, dtype=np.uint64),
        classes=rng.integers(0, 4, n).astype(np.int8), persons=rng.integers(-1, 4, n).astype(np.int32),
        speakers=np.array(speakers, dtype=np.int32).reshape(-1, 2), binding=binding,
        sentences=(np.arange(n) // 2).astype(np.int32),
        aliases=np.where(np.arange(n) % 3 == 2, np.arange(n) - 2, -1).astype(np.int32),
        name_of=np.where(np.arange(n) % 4 == 1, np.arange(n) * 2 + 2, -1).astype(np.int32),
        salience=np.where(np.arange(n) % 2 == 0, 0.75, 0.0).astype(np.float32),
        prefers_subject=np.arange(n) % 3 == 1,
        thing_salience=np.where(np.arange(n) % 3 == 0, 0.5, 0.0).astype(np.float32),
        prefers_thing=np.arange(n) % 4 == 3,
        forward=np.where(np.arange(n) % 5 == 1, np.arange(n) + 1, -1).astype(np.int32),
        trims=np.where(np.arange(n) % 6 == 5, np.arange(n) - 1, -1).astype(np.int32))


def assert_same(a: DecodeInputs, b: DecodeInputs) -> None:
    for name in ("heads", "types", "agreement", "repeats", "names", "classes", "persons", "speakers",
                 "sentences", "aliases", "name_of", "salience", "prefers_subject", "thing_salience",
                 "prefers_thing", "forward", "trims"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        assert getattr(a, name).dtype == getattr(b, name).dtype, name
    np.testing.assert_array_equal(a.binding.forbid_ptr, b.binding.forbid_ptr)
    np.testing.assert_array_equal(a.binding.forbid, b.binding.forbid)
    np.testing.assert_array_equal(a.binding.binder, b.binding.binder)
    np.testing.assert_array_equal(a.binding.held, b.binding.held)
    assert a.binding.fallback == b.binding.fallback and a.binding.clusters == b.binding.clusters


def test_decoding_pack_unpack_round_trip_with_an_empty_document():
    links_only = inputs_of(4, speakers=[(1, 0), (3, 2)])
    links_only = replace(links_only, binding=replace(links_only.binding, clusters=False).with_pairs(
        [(1, 0)], held=[(3, 1), (2, 0)]))
    docs = [inputs_of(5, forbidden=[(0, 3), (4, 1)], speakers=[(2, 0)]), inputs_of(0),
            inputs_of(3, fallback=False), links_only]
    packed = pack_inputs(docs)
    assert set(packed) == set(PACKED_ARRAYS)
    offsets = np.cumsum([0] + [len(d) for d in docs])
    for d, expected in enumerate(docs):
        assert_same(unpack_inputs(packed, d, slice(offsets[d], offsets[d + 1])), expected)


def test_decoding_pack_of_no_document_keeps_the_widths():
    packed = pack_inputs([])
    assert packed["agreement"].shape == (0, 2) and packed["speakers"].shape == (0, 2)
    assert packed["speakers_offsets"].tolist() == [0] and len(packed["fallback"]) == 0


def test_decoding_decode_reads_offsets_names_and_binding():
    # 0 "Pauline", 1 "Laurence", 2 "she": she scores best with Laurence
    inputs = inputs_of(3)
    inputs.types[:] = [PROPER, PROPER, PRONOMINAL]
    inputs.names[:] = [1, 2, 0]
    inputs.agreement[:] = 0
    inputs.classes[:] = 0
    inputs.persons[:] = -1
    inputs.repeats[:] = 0
    inputs.aliases[:] = -1
    inputs.name_of[:] = -1
    inputs.salience[:] = 0
    scores = DocScores(np.zeros(3, np.float32), np.array([1.0, 0.5, 2.0], np.float32),
                       np.array([0, 0, 1, 3]), np.array([0, 0, 1], np.int32))
    assert decode(scores, inputs, DecodeSettings()) == [[1, 2]]
    # the names keep Pauline and Laurence apart even when "Laurence" links to "Pauline"
    assert decode_clusters(scores.single, scores.pair, scores.ptr, scores.ante, inputs.heads) == [[0, 1, 2]]
    # an offset for pronouns above the pair score leaves "she" alone
    assert decode(scores, inputs, DecodeSettings(link_offsets={"pronominal": 2.5})) == []
    forbidden = DecodeInputs(**{**vars(inputs), "binding": Binding.from_pairs(3, [(2, 1)])})
    assert decode(scores, forbidden, DecodeSettings()) == [[0, 2]]


def test_decoding_settings_are_checked():
    with pytest.raises(ValueError, match="unknown mention type"):
        DecodeSettings(link_offsets={"pronoun": 0.1})


def test_decoding_inputs_fingerprint_follows_what_the_rules_fingerprint_leaves_out():
    from dataclasses import replace

    from neuralcoref.core.decode.decoding import inputs_fingerprint
    from neuralcoref.lang import get_rules
    from neuralcoref.lang.base import labels

    en = get_rules("en")
    changed = replace(en, decoding_agreement=labels("number"))
    assert changed.fingerprint() == en.fingerprint()  # a model does not change with it...
    assert inputs_fingerprint(changed) != inputs_fingerprint(en)  # ...stored decode inputs do
    assert inputs_fingerprint(en) == inputs_fingerprint(get_rules("en"))
    assert inputs_fingerprint(replace(en, subject_salience=0)) != inputs_fingerprint(en)
    assert inputs_fingerprint(replace(en, thing_salience=0)) != inputs_fingerprint(en)


def test_decoding_inputs_fingerprint_follows_the_code(tmp_path, monkeypatch):
    # A change to the code that computes the inputs re-featurizes a training
    # cache, even between two commits of one version.
    import neuralcoref.core.decode.decoding as decoding
    from neuralcoref.lang import get_rules

    source = tmp_path / "aliases.py"
    source.write_text("RULE = 1\n")
    monkeypatch.setattr(decoding, "_SOURCES", (tmp_path,))
    before = decoding.inputs_fingerprint(get_rules("en"))
    assert decoding.inputs_fingerprint(get_rules("en")) == before
    source.write_text("RULE = 2\n")
    assert decoding.inputs_fingerprint(get_rules("en")) != before
    monkeypatch.undo()
    assert all((folder / "resolver.py").is_file() or (folder / "base.py").is_file()
               for folder in decoding._SOURCES)  # the real folders hold the code
