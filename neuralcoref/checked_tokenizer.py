"""The pipeline's tokenizer behind neuralcoref's text check.

spaCy's tokenizer fails on a lone surrogate with a bare UnicodeEncodeError, before
any component sees a Doc. When the neuralcoref component is added, the pipeline's
tokenizer is wrapped so that ``nlp(text)`` and ``nlp.pipe(texts)`` refuse such a
text with E171 (which says how to decode the input), as every other entry point
does. Everything else (settings, special cases, serialization, pickling) goes to
the tokenizer itself.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from .validation import check_text


class CheckedTokenizer:
    """A tokenizer that checks each text (E171, E172) before tokenizing it.

    tokenizer (Callable[[str], Doc]): the pipeline's tokenizer.
    """

    def __init__(self, tokenizer: Callable[[str], Any]):
        object.__setattr__(self, "tokenizer", tokenizer)

    def __call__(self, text: str) -> Any:
        return self.tokenizer(check_text(text))

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Any]:
        """Docs of ``texts``, each checked first."""
        checked = (check_text(text) for text in texts)
        inner = getattr(self.tokenizer, "pipe", None)  # a custom tokenizer may have none
        return inner(checked, batch_size=batch_size) if inner else map(self.tokenizer, checked)

    def __getattr__(self, name: str) -> Any:
        if name == "tokenizer":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.tokenizer, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.tokenizer, name, value)  # nlp.tokenizer.infix_finditer = ... changes the tokenizer

    def __reduce__(self) -> Any:
        return (CheckedTokenizer, (self.tokenizer,))


def check_tokenizer(nlp: Any) -> None:
    """Wrap ``nlp.tokenizer`` in a CheckedTokenizer, once."""
    if not isinstance(nlp.tokenizer, CheckedTokenizer):
        nlp.tokenizer = CheckedTokenizer(nlp.tokenizer)
