"""A Python client for Cascade's HTTP API (``cascade serve``): standard library only, Python 3.9 and later.

    from cascade_memory import Client
    memory = Client("http://127.0.0.1:7373", token="...")
    memory.remember("The deploy freeze starts on Friday.", topic="ops.releases")
    for hit in memory.search("when is the freeze?", k=3).hits:
        print(hit.score, hit.text)
"""
from .client import CLEAR, NOT_CLIENT_OPERATIONS, OPERATIONS, Client
from .errors import CascadeError
from .types import *  # noqa: F401,F403  (the answer types, for annotations)
from .types import __all__ as _types

__version__ = "0.1.0"
__all__ = ["Client", "CascadeError", "CLEAR", "OPERATIONS", "NOT_CLIENT_OPERATIONS", *_types]
