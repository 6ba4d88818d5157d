"""``neuralcoref.batch`` (documented public API): batch processing of JSON lines,
implemented in :mod:`neuralcoref.apps.batch`."""
from .apps.batch import (BatchStats, get_pipeline, resolve_bag, resolve_jsonl, resolve_jsonl_dask,
                         resolve_records)

__all__ = ["BatchStats", "get_pipeline", "resolve_bag", "resolve_jsonl", "resolve_jsonl_dask",
           "resolve_records"]
