"""BLAS runs on one thread around a short batch's products, and gets its setting back."""
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from neuralcoref.core.util.threads import SMALL_BATCH_MENTIONS, one_blas_thread


def _blas_threads():
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def two_threads():
    if not _blas_threads():
        pytest.skip("numpy has no BLAS that threadpoolctl sees")
    with threadpool_limits(limits=2, user_api="blas"):
        if max(_blas_threads()) < 2:
            pytest.skip("BLAS runs on one thread here")
        yield


def test_threads_one_blas_thread_within_and_restored(two_threads):
    before = _blas_threads()
    with one_blas_thread(5):
        assert set(_blas_threads()) == {1}
        with one_blas_thread(5):  # nested: the outer block restores
            pass
        assert set(_blas_threads()) == {1}
    assert _blas_threads() == before


def test_threads_large_batch_keeps_the_setting(two_threads):
    before = _blas_threads()
    with one_blas_thread(SMALL_BATCH_MENTIONS + 1):
        assert _blas_threads() == before


def test_threads_restored_after_an_error(two_threads):
    before = _blas_threads()
    with pytest.raises(ValueError):
        with one_blas_thread(1):
            raise ValueError
    assert _blas_threads() == before


def test_threads_concurrent_callers_restore_once(two_threads):
    before = _blas_threads()
    barrier = threading.Barrier(4)

    def work():
        with one_blas_thread(3):
            barrier.wait()
            np.ones((8, 8), np.float32) @ np.ones((8, 8), np.float32)
            barrier.wait()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _blas_threads() == before


def test_resolver_scores_on_one_blas_thread(two_threads, nlp_coref, monkeypatch):
    from neuralcoref.core.scoring import scoring

    seen = []
    original = scoring.Scorers.mention_parts

    def spy(self, *args, **kwargs):
        seen.append(_blas_threads())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(scoring.Scorers, "mention_parts", spy)
    doc = nlp_coref("My sister has a dog. She loves him.")
    assert seen and set(seen[0]) == {1}
    assert doc._.has_coref is not None
    assert max(_blas_threads()) >= 2
