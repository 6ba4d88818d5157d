"""Smoke test of an installed neuralcoref, run by .ci/run from outside the source
tree in a fresh virtual environment where the package comes from the built wheel."""
import subprocess
import sys
from pathlib import Path

import neuralcoref
from neuralcoref import Coref
from neuralcoref.artifacts.model_dir import read_config, shipped_model_path

SOURCE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
TEXT = "Anna bought a bike. She rides it to work."


def check(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"smoke test failed: {what}")
    print(f"ok: {what}")


package = Path(neuralcoref.__file__).resolve().parent
check(SOURCE is None or SOURCE not in package.parents, f"neuralcoref imported from the wheel ({package})")
check(Path(sys.prefix) in package.parents, "installed in this virtual environment")
model = shipped_model_path("en")
check(package in model.parents and read_config(model).lang == "en",
      "the shipped model 'en' found through package data")
coref = Coref()
result = coref.predict(TEXT)[0]
check(["Anna", "She"] in result.get_clusters(), f"Coref resolves a text: {result.get_clusters()}")
pipe = coref.nlp.get_pipe("neuralcoref")
data = pipe.to_bytes()
copy = type(pipe)(coref.nlp.vocab, model="en_fast").from_bytes(data)
check(copy.to_bytes() == data, "the component's to_bytes / from_bytes round trip")
out = subprocess.run(["neuralcoref", "resolve", TEXT], capture_output=True, text=True)
check(out.returncode == 0 and "Anna: ['Anna', 'She']" in out.stdout, "the console script resolves a text")
