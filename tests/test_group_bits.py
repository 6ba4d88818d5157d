"""GroupBits decides as cluster_passes.compatible does, from sums kept per group."""
import numpy as np
import pytest

from neuralcoref.core.decode.cluster_passes import compatible
from neuralcoref.core.decode.group_bits import GroupBits


@pytest.mark.parametrize("seed", range(5))
def test_group_bits_agree_with_compatible(seed):
    rng = np.random.default_rng(seed)
    n = 60
    # Few distinct values, so that both answers occur often.
    names = rng.choice(np.array([0, 1, 2, 3, 4, 1 << 63], dtype=np.uint64), size=n)
    masks = rng.choice(np.array([0, 1, 2, 3, 5, 1 << 31], dtype=np.uint32), size=(n, 2))
    answers = set()
    for with_names, with_masks in ((True, True), (True, False), (False, True), (False, False)):
        bits = GroupBits(masks if with_masks else None, names if with_names else None)
        for _ in range(200):
            left = rng.choice(n, size=rng.integers(0, 5), replace=False).tolist()
            right = rng.choice(n, size=rng.integers(1, 5), replace=False).tolist()
            expected = compatible(left, right, masks if with_masks else None, names if with_names else None)
            assert bits.compatible(bits.of(left), bits.of(right)) == expected, (left, right)
            # A member leaving a group: its row subtracted from the group's sums.
            if left:
                rest = bits.of(left) - bits.of(left[:1])
                assert bits.compatible(rest, bits.of(right)) == compatible(
                    left[1:], right, masks if with_masks else None, names if with_names else None)
            answers.add(expected)
    assert answers == {True, False}
