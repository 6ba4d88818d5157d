"""``neuralcoref.records`` (documented public API): coreference as JSON records,
implemented in :mod:`neuralcoref.apps.records`."""
from .apps.records import doc_record, span_record

__all__ = ["doc_record", "span_record"]
