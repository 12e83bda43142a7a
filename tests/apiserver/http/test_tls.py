"""Tests for minikcm.apiserver.http.tls: the generated CA and serving certificate."""

from __future__ import annotations

import os
import socket
import stat
import threading

from cryptography import x509

from minikcm.apiserver.http import tls


def sans(cert_file) -> set[str]:
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(ip) for ip in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))


def test_certs_are_made_with_private_keys(tmp_path):
    certs = tls.ensure_certs(tmp_path / "pki")
    for key in (certs.key_file, tmp_path / "pki" / "ca.key"):
        assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert sans(certs.cert_file) == {"127.0.0.1", "::1", "localhost"}
    assert certs.ca_pem == certs.ca_file.read_bytes()


def test_ca_is_reused_and_serving_cert_reissued_for_new_hosts(tmp_path):
    first = tls.ensure_certs(tmp_path)
    cert_bytes = first.cert_file.read_bytes()
    again = tls.ensure_certs(tmp_path)
    assert (again.ca_pem, again.cert_file.read_bytes()) == (first.ca_pem, cert_bytes)
    widened = tls.ensure_certs(tmp_path, ["10.0.0.7"])
    assert widened.ca_pem == first.ca_pem
    assert "10.0.0.7" in sans(widened.cert_file)


def test_a_broken_ca_is_replaced(tmp_path):
    first = tls.ensure_certs(tmp_path)
    (tmp_path / "ca.crt").write_text("garbage")
    second = tls.ensure_certs(tmp_path)
    assert second.ca_pem != first.ca_pem
    x509.load_pem_x509_certificate(second.ca_pem)


def test_a_client_trusting_the_ca_completes_a_handshake(tmp_path):
    certs = tls.ensure_certs(tmp_path)
    server_context = tls.server_ssl_context(certs)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept_one() -> None:
        conn, _ = listener.accept()
        with server_context.wrap_socket(conn, server_side=True) as tls_conn:
            tls_conn.sendall(b"hi")

    thread = threading.Thread(target=accept_one, daemon=True)
    thread.start()
    client_context = tls.client_ssl_context(certs.ca_pem)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        with client_context.wrap_socket(sock, server_hostname="127.0.0.1") as tls_sock:
            assert tls_sock.recv(2) == b"hi"
            assert tls_sock.selected_alpn_protocol() in (None, "http/1.1")
    thread.join(5)
    listener.close()
