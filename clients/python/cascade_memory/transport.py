"""HTTP with the standard library: one request, its headers (token, namespace), JSON both ways, and every failure
as a CascadeError. Streaming answers (JSONL) are read a line at a time."""
from __future__ import annotations

import contextlib
import http.client
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, Mapping, Optional

from .errors import CascadeError

USER_AGENT = "cascade-memory-python/0.1.0"


class Transport:
    def __init__(self, url: str, token: Optional[str], namespace: Optional[str], timeout: float) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CascadeError("INVALID_INPUT", f"url: {url!r} is not an http(s) URL such as http://127.0.0.1:7373", field="url")
        self.url = url.rstrip("/")
        self.token = token
        self.namespace = namespace
        self.timeout = timeout

    def json(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None) -> Any:
        """The parsed JSON answer of one request."""
        with self._failures(method, path):
            with self._open(method, path, query, body) as response:
                raw, status = response.read(), response.status
        try:
            return json.loads(raw)
        except ValueError:
            raise CascadeError("BAD_RESPONSE", f"{method} {path}: the answer is not JSON: {raw[:80]!r}", status=status) from None

    def lines(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None) -> Iterator[Dict[str, Any]]:
        """Each line of a JSONL answer, parsed, read as the server sends it (the whole answer is never held). The
        request is made here, so a refused one raises before the first line is asked for."""
        with self._failures(method, path):
            response = self._open(method, path, query, None)
        return self._read_lines(response, method, path)

    def _read_lines(self, response: Any, method: str, path: str) -> Iterator[Dict[str, Any]]:
        try:
            # the server stops a stream it cannot finish (a store error mid-way) by cutting the connection
            with self._failures(method, path):
                for number, line in enumerate(response, start=1):
                    if line.strip():
                        try:
                            record = json.loads(line)
                        except ValueError:
                            raise CascadeError("BAD_RESPONSE", f"{method} {path}: line {number} is not JSON: {line[:80]!r}", status=response.status) from None
                        yield record
        finally:
            response.close()

    def _open(self, method: str, path: str, query: Optional[Mapping[str, Any]], body: Any) -> Any:
        url = self.url + path
        pairs = _query_pairs(query or {})
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.namespace is not None:
            headers["X-Cascade-Namespace"] = self.namespace
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            return urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=self.timeout)
        except urllib.error.HTTPError as err:
            raise _api_error(err, method, path) from None

    @contextlib.contextmanager
    def _failures(self, method: str, path: str) -> Iterator[None]:
        """Whatever goes wrong below HTTP, as a CascadeError with a code of its own."""
        try:
            yield
        except (socket.timeout, TimeoutError):
            raise CascadeError("TIMEOUT", f"{method} {path}: no answer from {self.url} within {self.timeout:g} s") from None
        except urllib.error.URLError as err:
            if isinstance(err.reason, (socket.timeout, TimeoutError)):
                raise CascadeError("TIMEOUT", f"{method} {path}: no answer from {self.url} within {self.timeout:g} s") from None
            raise CascadeError("UNREACHABLE", f"cannot reach {self.url} ({err.reason}): is `cascade serve` running there?") from None
        except (http.client.HTTPException, ConnectionError) as err:
            raise CascadeError("BAD_RESPONSE", f"{method} {path}: the connection to {self.url} broke off ({err.__class__.__name__})") from None


def _query_pairs(query: Mapping[str, Any]) -> list:
    """Query parameters without the absent ones; a list repeats its parameter; booleans as true/false."""
    pairs = []
    for name, value in query.items():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v is not None:
                pairs.append((name, ("true" if v else "false") if isinstance(v, bool) else str(v)))
    return pairs


def _api_error(err: urllib.error.HTTPError, method: str, path: str) -> CascadeError:
    raw = err.read()
    err.close()
    try:
        problem = json.loads(raw)["error"]
        return CascadeError(str(problem["code"]), str(problem["message"]), problem.get("field"), err.code)
    except (ValueError, KeyError, TypeError):
        return CascadeError("BAD_RESPONSE", f"{method} {path}: HTTP {err.code} without the API's error body: {raw[:80]!r}", status=err.code)
