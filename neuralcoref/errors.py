"""Coded error messages, in the manner of spaCy's `errors.py`.

Every message says what went wrong and what to do. Codes are grouped by the
part of the project that raises them:

- E001-E049: CoNLL files and scoring
- E050-E099: mention extraction and language rules
- E100-E149: features, scorers and model folders
- E150-E199: the spaCy component and the convenience API
- E200-E249: training
"""


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):
            return msg
        return f"[{code}] {msg}"


class NeuralcorefError(ValueError):
    """Base class of the errors neuralcoref raises on bad input."""


class ConllFormatError(NeuralcorefError):
    """A CoNLL-2012 file is malformed; the message names the file and line."""

    def __init__(self, message: str, path: str = "<string>", line: int = 0):
        self.path = str(path)
        self.line = line
        super().__init__(f"{message} ({self.path}, line {line})")


class ModelLoadError(NeuralcorefError):
    """A model folder is missing, corrupted or does not match this version."""


class Errors(metaclass=ErrorsWithCodes):
    # CoNLL files and scoring
    E001 = ("Token line outside a document: add a '#begin document (ID); part NNN' "
            "line before it.")
    E002 = ("Document '{doc}' is not closed: add '#end document' after its last "
            "token line.")
    E003 = ("'#begin document' inside document '{doc}': close the previous "
            "document with '#end document' first.")
    E004 = ("Line has {found} columns where the document's first token line has "
            "{expected}: every token line of a document needs the same columns.")
    E005 = ("Mention of cluster {cluster} closes without having opened: check the "
            "coreference column (last) for a missing '({cluster}'.")
    E006 = ("Mention(s) of cluster(s) {clusters} open but never close in document "
            "'{doc}': check the coreference column for a missing '{example})'.")
    E007 = ("Cannot read coreference cell '{cell}': expected '-', or parts like "
            "'(3', '3)' or '(3)' joined by '|'.")
    E008 = "'#end document' without a matching '#begin document'."
    E009 = "File not found: {path}. Give a CoNLL-2012 file or a folder of them."
    E010 = ("No CoNLL-2012 documents found in {path}: files need '#begin document' "
            "lines (expected names ending in _conll, .conll or .gold_conll).")
    E011 = ("Document id and part '{key}' occur twice in {path}: each document "
            "part must be unique in a file.")
    E012 = ("Document '{key}' of the key has {key_tokens} tokens but the response "
            "has {response_tokens}: score a response written from the same key file.")
