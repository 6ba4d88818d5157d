"""The package version, in a module of its own so that any module can read it
without importing the package root (and what the root imports)."""
__version__ = "5.0.0.dev0"
