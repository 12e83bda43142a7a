"""No upstream twin. The HTTPS front of the embedded API server: what kubectl and client libraries talk to.

kube-apiserver's HTTP layer (apiserver/pkg/endpoints, discovery, OpenAPI, the
table printers, authentication, serving certificates) shrunk to what kubectl
and the official Python client need, in front of `minikcm.apiserver.server.APIServer`.
A request flows: server (TLS, token, body cap) -> routes (which resource) ->
handlers (decode, field validation, one APIServer call) -> a JSON, Table or
watch-stream response. `serve` starts it all in a background thread.
"""
