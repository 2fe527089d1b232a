"""The server the tests talk to: `cascade serve` started by test/python-client.test.ts (npm test), which passes its
URL and token. Its clock is fixed (--now), so times in the answers are known."""
from __future__ import annotations

import os

from cascade_memory import Client

NOW = "2026-06-20T09:00:00Z"
# namespaces are named for this run too, so the tests can run again against the same server
RUN = str(os.getpid())


def server() -> tuple:
    url, token = os.environ.get("CASCADE_URL"), os.environ.get("CASCADE_TOKEN")
    if not url or not token:
        raise RuntimeError(
            "set CASCADE_URL and CASCADE_TOKEN to a `cascade --now 2026-06-20T09:00:00Z serve --token T` with a fresh store "
            "(npm test does: test/python-client.test.ts)"
        )
    return url, token


def client(namespace: str) -> Client:
    """A strict client (an answer field the dataclasses do not know fails the test) in a namespace of its own."""
    url, token = server()
    return Client(url, token=token, namespace=f"{namespace}_{RUN}", strict=True)
