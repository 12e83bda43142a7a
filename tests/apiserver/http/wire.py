"""Helpers for the HTTP front tests: calling the REST handler in-process, and HTTPS calls to a served front."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from minikcm.apiserver.http.handlers import Request, Response, RESTHandler, WatchStream

TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
AGGREGATED = ("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
              "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json")


def call(handler: RESTHandler, method: str, url: str, body: Any = None, *,
         content_type: str = "application/json", accept: str | None = None) -> Response | WatchStream:
    """One request through RESTHandler.handle; `body` may be bytes, str, or a JSON value."""
    parts = urlsplit(url)
    if body is None:
        raw = b""
    elif isinstance(body, bytes):
        raw = body
    elif isinstance(body, str):
        raw = body.encode()
    else:
        raw = json.dumps(body).encode()
    headers = {"Content-Type": content_type}
    if accept is not None:
        headers["Accept"] = accept
    return handler.handle(Request(method, parts.path, parse_qs(parts.query, keep_blank_values=True),
                                  headers, raw))


def body_of(response: Response | WatchStream) -> Any:
    assert isinstance(response, Response), response
    return json.loads(response.body)


class HTTPSClient:
    """Raw HTTPS requests to a served front (http.client, trusting the generated CA)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.context = handle.ssl_context()

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                token: str | None = "default") -> tuple[int, http.client.HTTPMessage, bytes]:
        conn = http.client.HTTPSConnection(self.handle.host, self.handle.port, context=self.context, timeout=10)
        all_headers = {}
        if token == "default":
            token = self.handle.token
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def json(self, method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        status, _, data = self.request(method, path, body, **kw)
        return status, json.loads(data)
