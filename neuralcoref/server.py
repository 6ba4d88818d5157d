"""``neuralcoref.server`` (documented public API): the REST server, implemented in
:mod:`neuralcoref.apps.server`."""
from .apps.server import create_app, serve

__all__ = ["create_app", "serve"]
