"""The one refusal every layer of the server raises: :class:`ServiceError`.

It lives apart from the service so that the table's rules (:mod:`.table`), the hub
and the HTTP layer can raise or translate it without importing the service.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request: a code for programs, a message for people, an HTTP status.

    The message never names a hidden card: it comes from the engine's
    explanations (which use only what the seat may see) or from the server.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        """Seconds after which asking again may succeed (sent as ``Retry-After``)."""


def not_found(table_id: str) -> ServiceError:
    return ServiceError("not_found", f"no table {table_id!r}", 404)
