"""core/util/cached.py: functools.cached_property's behaviour, without its lock."""
from dataclasses import dataclass

from neuralcoref.core.util.cached import cached


@dataclass(frozen=True)
class _Frozen:
    n: int
    calls: list

    @cached
    def double(self) -> int:
        """Twice n."""
        self.calls.append(1)
        return 2 * self.n


def test_cached_computes_once_and_stores_in_the_instance():
    obj = _Frozen(3, [])
    assert obj.double == 6 and obj.double == 6
    assert obj.calls == [1]
    assert vars(obj)["double"] == 6


def test_cached_works_per_instance_and_keeps_the_docstring():
    a, b = _Frozen(1, []), _Frozen(5, [])
    assert (a.double, b.double) == (2, 10)
    assert isinstance(_Frozen.double, cached)
    assert _Frozen.double.__doc__ == "Twice n."
