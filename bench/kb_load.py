"""How long a large knowledge base takes to load, and how much memory it takes.

    python bench/kb_load.py --entities 1000000 --folder /tmp/kb_1m

Builds a synthetic KB (``--entities`` entities, each with a two-word name and
its derived aliases: surname, acronym; one in ten with a disambiguator), writes
it, then loads it in a fresh process and prints the load time, the peak memory
of that process (VmHWM: its peak resident memory, and the part that importing
spaCy and numpy takes) and the time of 10,000 alias
lookups. The figures go in docs/experiments/2026-12-07-entity-linking.md.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

WORDS = ("north south east west river lake mount saint port new old great little upper lower "
         "green red black white stone wood field bridge castle hill vale haven ford brook").split()


def synthetic_records(n: int, seed: int = 0):
    from neuralcoref.artifacts.kb_build import EntityRecord

    rng = random.Random(seed)
    types = ("person", "place", "organization", "event", "object")
    for i in range(n):
        name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}{i % 997}"
        if i % 10 == 0:
            name += f" ({rng.choice(WORDS)})"
        yield EntityRecord(f"Q{i}", name, {}, float(rng.randint(0, 100)), types[i % len(types)],
                           f"synthetic entity {i}")


def build(n: int, folder: Path) -> float:
    from neuralcoref.artifacts.kb_build import build_kb

    start = time.perf_counter()
    build_kb(synthetic_records(n), meta={"name": f"synthetic-{n}"}, progress=True).to_disk(folder)
    return time.perf_counter() - start


LOAD_SCRIPT = """
import json, sys, time
def peak_mb():
    # VmHWM: this process's peak resident memory (ru_maxrss would carry the
    # building parent's peak over fork + exec).
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

start = time.perf_counter()
from neuralcoref.artifacts.kb import load_kb
imported = time.perf_counter()
imported_mb = peak_mb()
kb = load_kb(sys.argv[1])
loaded = time.perf_counter()
for i in range(10000):
    kb.candidates(f"North Stone{i % 997}")
lookups = time.perf_counter() - loaded
print(json.dumps({"entities": len(kb), "aliases": kb.n_aliases, "load_s": round(loaded - imported, 3),
                  "import_s": round(imported - start, 3), "lookups_10k_s": round(lookups, 3),
                  "peak_rss_mb": round(peak_mb(), 1), "rss_after_import_mb": round(imported_mb, 1)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=1_000_000)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/neuralcoref_kb_bench"))
    parser.add_argument("--reuse", action="store_true", help="load the folder as it is, without building")
    args = parser.parse_args()
    if not args.reuse:
        print(f"built {args.entities} entities in {build(args.entities, args.folder):.1f} s", file=sys.stderr)
    size_mb = sum(f.stat().st_size for f in args.folder.iterdir()) / 2**20
    # A fresh process, so that the peak memory is the load's, not the build's.
    out = subprocess.run([sys.executable, "-c", LOAD_SCRIPT, str(args.folder)], check=True,
                         capture_output=True, text=True).stdout
    print(json.dumps({**json.loads(out), "folder_mb": round(size_mb, 1)}))


if __name__ == "__main__":
    main()
