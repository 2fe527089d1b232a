"""The one exception the client raises: the API's error, or a transport failure given a code of its own."""
from __future__ import annotations

from typing import Optional


class CascadeError(Exception):
    """An error answer of `cascade serve`, or a request that never got one.

    ``code`` is the API's (``INVALID_INPUT``, ``NOT_FOUND``, ``UNAUTHORIZED``...) or, when no answer came,
    ``UNREACHABLE`` (nothing listens at the URL), ``TIMEOUT`` or ``BAD_RESPONSE`` (an answer that is not the API's
    JSON). ``field`` names the input at fault as the wire spells it (``as_of``), when there is one; ``status`` is
    the HTTP status, None when no answer came.
    """

    def __init__(self, code: str, message: str, field: Optional[str] = None, status: Optional[int] = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.status = status

    def __repr__(self) -> str:
        return f"CascadeError(code={self.code!r}, message={self.message!r}, field={self.field!r}, status={self.status!r})"
