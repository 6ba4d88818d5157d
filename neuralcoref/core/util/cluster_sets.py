"""Sets of clusters as the decoding passes edit them: which cluster owns each
mention, and a union-find over mentions or clusters."""
from __future__ import annotations

from typing import Dict, List, Sequence


def owner_map(groups: Sequence[Sequence[int]]) -> Dict[int, int]:
    """The index of the group holding each mention (the last one, were a mention
    in two).

    groups (Sequence[Sequence[int]]): mention indices per group.
    RETURNS (Dict[int, int]): mention -> group index.
    """
    return {m: g for g, members in enumerate(groups) for m in members}


class UnionFind:
    """Disjoint sets over 0..n-1, with path halving.

    n (int): the number of elements.
    """

    def __init__(self, n: int):
        self.parent: List[int] = list(range(n))

    def find(self, x: int) -> int:
        """The root of ``x``'s set."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]
        return x

    def join(self, a: int, b: int) -> None:
        """Put ``a``'s set under ``b``'s root."""
        root_b = self.find(b)
        self.parent[self.find(a)] = root_b
