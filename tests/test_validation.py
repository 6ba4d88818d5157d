"""One validation module: each checker on good and bad values, then one error code
per condition at every entry point (component, Coref, server, batch runner, CLI).

E170: a bad setting value; E171: a text with a lone surrogate; E172: a text that
is not a string; E173: a setting name that does not exist.
"""
import importlib.util
import json
from fractions import Fraction

import numpy as np
import pytest
import spacy
from spacy.util import ConfigValidationError
from typer.testing import CliRunner

from neuralcoref.api import Coref
from neuralcoref.apps.batch import resolve_jsonl, resolve_records
from neuralcoref.apps.cli import app
from neuralcoref.apps.server import parse_request
from neuralcoref.apps.server_limits import ServerLimits, make_limits
from neuralcoref.component import NeuralCoref
from neuralcoref.errors import NeuralcorefError
from neuralcoref.validation import (CorefSettings, check_bool, check_choice, check_float, check_int, check_known,
                                    check_text, check_with, word_lists, words)

needs_fastapi = pytest.mark.skipif(importlib.util.find_spec("fastapi") is None,
                                   reason="the REST server needs fastapi: pip install 'neuralcoref[serve]'")


def raises(code: str, says: str = ""):
    """pytest.raises for a NeuralcorefError of ``code`` whose message then has ``says``."""
    return pytest.raises(NeuralcorefError, match=rf"^\[{code}\] .*{says}")


# The checkers

@pytest.mark.parametrize("value,minimum,expected", [(0, 0, 0), (3, 1, 3), (np.int64(7), 1, 7), (-2, -5, -2)],
                         ids=["zero", "positive", "numpy", "negative-bound"])
def test_validation_check_int_passes(value, minimum, expected):
    result = check_int("n", value, minimum)
    assert result == expected and type(result) is int


@pytest.mark.parametrize("value", [True, False, 2.0, 2.5, "2", None, -1, float("nan"), [1]],
                         ids=["true", "false", "float-integral", "float", "string", "none", "below", "nan", "list"])
def test_validation_check_int_refuses(value):
    with raises("E170", r"Setting 'n' of the owner is .*: expected an integer >= 0\.$"):
        check_int("n", value, 0, "the owner")


def test_validation_check_int_null_and_maximum():
    assert check_int("n", None, 0, none_means="the model's setting") is None
    with raises("E170", "expected an integer >= 0, or null for the model's setting"):
        check_int("n", True, 0, none_means="the model's setting")
    assert check_int("port", 65535, 0, maximum=65535) == 65535
    with raises("E170", r"Setting 'port' .* is 65536: expected an integer within \[0, 65535\]"):
        check_int("port", 65536, 0, maximum=65535)


@pytest.mark.parametrize("value,expected", [(0, 0.0), (1, 1.0), (0.25, 0.25), (np.float32(0.5), 0.5),
                                            (Fraction(1, 4), 0.25)],
                         ids=["int-zero", "int-one", "float", "numpy", "fraction"])
def test_validation_check_float_passes(value, expected):
    result = check_float("g", value, 0.0, 1.0)
    assert result == expected and type(result) is float


@pytest.mark.parametrize("value", [True, False, -0.1, 1.5, float("nan"), float("inf"), "0.5", None],
                         ids=["true", "false", "below", "above", "nan", "inf", "string", "none"])
def test_validation_check_float_refuses(value):
    with raises("E170", r"Setting 'g' of neuralcoref is .*: expected a number within \[0, 1\]\.$"):
        check_float("g", value, 0.0, 1.0)


def test_validation_check_float_exclusive_minimum():
    assert check_float("timeout", 0.001, 0, above=True) == 0.001
    for value in (0, 0.0, -3):
        with raises("E170", "expected a number of seconds > 0"):
            check_float("timeout", value, 0, above=True, what="a number of seconds")
    with raises("E170", "expected a number <= 3"):
        check_float("x", 4, maximum=3)


def test_validation_check_bool():
    assert check_bool("store_scores", True) is True and check_bool("store_scores", False) is False
    for value in (1, 0, "yes", None, np.bool_(True)):
        with raises("E170", "Setting 'store_scores' .*expected true or false"):
            check_bool("store_scores", value)


def test_validation_check_choice():
    assert check_choice("log_level", "info", ("info", "debug")) == "info"
    assert check_choice("mode", 1, (1, 2)) == 1
    with raises("E170", r"expected one of 'info', 'debug'\.$"):
        check_choice("log_level", "loud", ("info", "debug"))
    with raises("E170", "Setting 'mode' .* is True: expected one of 1, 2"):
        check_choice("mode", True, (1, 2))  # True == 1, but is not the choice 1
    assert check_choice("flag", True, (True, "auto")) is True
    assert check_choice("flag", "auto", (True, "auto")) == "auto"


def test_validation_check_with():
    assert check_with("blacklist", ("a", "b"), words, "a list of words") == ["a", "b"]
    assert check_with("conv_dict", None, word_lists, "a mapping", none_means="none") is None
    with raises("E170", r"Setting 'blacklist' .* is 'ab': expected a list of words \(str is not a list\)"):
        check_with("blacklist", "ab", words, "a list of words")
    with raises("E170", r"expected a mapping \(the words of 'Angela': 1 is not a string\)"):
        check_with("conv_dict", {"Angela": ["woman", 1]}, word_lists, "a mapping")
    with raises("E170", r"Setting 'conv_dict' .* is None: expected a mapping \(NoneType is not a mapping\)"):
        check_with("conv_dict", None, word_lists, "a mapping")  # null only passes when it means something


def test_validation_long_value_is_cut():
    with raises("E170") as err:
        check_int("n", "x" * 10_000)
    assert len(str(err.value)) < 200 and "..." in str(err.value)


def test_validation_check_known():
    check_known({"max_texts": 3}, ["max_texts", "timeout"], "the server")
    with raises("E173", r"Unknown setting 'max_txts' of the server: the settings are max_texts, timeout\.$"):
        check_known({"max_texts": 3, "max_txts": 3}, ["max_texts", "timeout"], "the server")


def test_validation_check_text():
    assert check_text("") == "" and check_text("Anna \U0001F600 left.") == "Anna \U0001F600 left."
    with raises("E171", r"The text 2 holds a lone surrogate \(U\+D800\) at character 5: .*errors='replace'"):
        check_text("Anna \ud800 left.", " 2")
    with raises("E171", r"The text holds a lone surrogate \(U\+DC80\) at character 0"):
        check_text("\udc80")
    with raises("E172", "The text of line 4 is bytes, not a string"):
        check_text(b"Anna left.", " of line 4")
    with raises("E172", "The text is NoneType"):
        check_text(None)


# One code per condition at every entry point

def test_validation_component_settings(handmade_model):
    vocab = spacy.blank("en").vocab
    for setting, value in (("greedyness", True), ("greedyness", "0.5"), ("max_dist", True),
                           ("max_dist_nominal", 2.0), ("top_antecedents", False), ("store_scores", 1),
                           ("blacklist", "you"), ("conv_dict", {"Anna": "woman"})):
        with raises("E170", f"Setting '{setting}' of neuralcoref is "):
            NeuralCoref(vocab, model=str(handmade_model), settings=CorefSettings(**{setting: value}))
    with raises("E170", "Setting 'max_dist' of neuralcoref is -1"):
        spacy.blank("en").add_pipe("neuralcoref", config={"model": str(handmade_model), "max_dist": -1})


def test_validation_component_config_types_are_spacys(handmade_model):
    # Through nlp.add_pipe, spaCy checks the factory's argument types first: a
    # bool for an int is refused before the component is built.
    with pytest.raises(ConfigValidationError, match="max_dist"):
        spacy.blank("en").add_pipe("neuralcoref", config={"model": str(handmade_model), "max_dist": True})


def test_validation_component_keeps_checked_values(handmade_model):
    settings = CorefSettings(greedyness=1, max_dist=np.int64(4), blacklist=("you",), conv_dict={"Anna": ("woman",)})
    pipe = NeuralCoref(spacy.blank("en").vocab, model=str(handmade_model), settings=settings)
    assert pipe.cfg["greedyness"] == 1.0 and type(pipe.cfg["max_dist"]) is int
    assert pipe.cfg["blacklist"] == ["you"] and pipe.cfg["conv_dict"] == {"Anna": ["woman"]}
    json.dumps(pipe.cfg)  # what to_disk writes


def test_validation_api_texts(nlp_coref):
    coref = Coref.__new__(Coref)  # the shared pipeline, not a second one loaded
    coref.nlp = nlp_coref
    with raises("E171", r"The text 1 holds a lone surrogate \(U\+DFFF\) at character 3"):
        coref.predict(["Anna left.", "Tom\udfff left."])
    with raises("E171", "The text 0 holds"):
        coref.predict("\ud800")
    with raises("E172", "The text 1 is int"):
        coref.predict(["Anna left.", 3])
    with raises("E172", "The text 0 is NoneType"):
        coref.predict(None)
    texts = (t for t in ["Anna said she left."])  # a generator is read once
    assert coref.predict(texts)[0].get_clusters() == [["Anna", "she"]]


def test_validation_batch_settings(nlp_coref, tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text('{"text": "Anna left."}\n')
    for name, value in (("batch_size", 0), ("batch_size", True), ("n_process", 1.0)):
        with raises("E170", f"Setting '{name}' of batch processing is {value!r}"):
            resolve_jsonl(data, tmp_path / "out.jsonl", nlp=nlp_coref, **{name: value})
        with raises("E170", f"Setting '{name}' of batch processing"):
            resolve_records([], nlp_coref, **{name: value})  # at once, not at the first record
    assert not (tmp_path / "out.jsonl").exists()


def test_validation_batch_input(nlp_coref):
    items = [(1, '{"text": "Anna \\ud800 left."}'), (2, {"text": "Tom\udc80"}), (3, '{"text": "Bo left."}')]
    first, second, third = resolve_records(items, nlp_coref, path="in.jsonl")
    assert first["coref_error"].startswith("[E171] The text of line 1 of in.jsonl holds a lone surrogate (U+D800)")
    assert second["coref_error"].startswith("[E171] The text of line 2 of in.jsonl holds a lone surrogate (U+DC80)")
    assert third["coref"] is not None
    with raises("E171", "line 1 of in.jsonl"):
        list(resolve_records(items, nlp_coref, path="in.jsonl", strict=True))


def test_validation_server_limits():
    for name, value in (("max_texts", True), ("max_texts", 0), ("timeout", True), ("timeout", 0),
                        ("worker_memory_mb", 1.5)):
        with raises("E170", f"Setting '{name}' of the server is {value!r}"):
            ServerLimits(**{name: value})
    with raises("E173", "Unknown setting 'max_txts' of the server"):
        make_limits({"max_txts": 3})
    assert make_limits({"timeout": 2}).timeout == 2


@needs_fastapi
def test_validation_server_settings(nlp_coref):
    from neuralcoref.apps.server import create_app

    for name, value in (("workers", True), ("batch_size", 0)):
        with raises("E170", f"Setting '{name}' of the server is {value!r}"):
            create_app(nlp_coref, **{name: value})


@needs_fastapi
def test_validation_serve_checks_before_loading(monkeypatch):
    pytest.importorskip("uvicorn")
    from neuralcoref.apps import server

    def no_load(*args, **kwargs):
        raise AssertionError("the pipeline was loaded before the settings were checked")

    monkeypatch.setattr(server, "create_app", no_load)
    with raises("E170", "Setting 'port' of the server is 70000"):
        server.serve(port=70000)
    with raises("E170", "Setting 'log_level' of the server is 'loud': expected one of 'critical'"):
        server.serve(log_level="loud")
    with raises("E173", "Unknown setting 'max_txts' of the server: the settings are model, spacy_model"):
        server.serve(max_txts=3)
    with raises("E173", "Unknown setting 'nlp' of the server"):  # serve loads its own pipeline
        server.serve(nlp=None)


def test_validation_server_request():
    with pytest.raises(NeuralcorefError, match=r"^\[E171\] The text 1 of 'texts' holds a lone surrogate") as err:
        parse_request(b'{"texts": ["Anna left.", "Tom \\udc80"]}')
    assert err.value.status == 422
    with raises("E171", r"The text holds a lone surrogate \(U\+D800\) at character 0"):
        parse_request(b'{"text": "\\ud800"}')


def test_validation_cli(tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text('{"text": "Anna left."}\n')
    result = CliRunner().invoke(app, ["batch", "--input", str(data), "--output", str(tmp_path / "out.jsonl"),
                                      "--batch-size", "0", "--no-progress"])
    assert result.exit_code == 1
    assert "[E170] Setting 'batch_size' of batch processing is 0: expected an integer >= 1." in result.output
