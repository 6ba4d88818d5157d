"""``python -m neuralcoref.train ...``: the same as ``neuralcoref train ...``."""
import sys

from neuralcoref.apps.cli import main

if __name__ == "__main__":
    sys.argv.insert(1, "train")
    main()
