"""No upstream twin. A private CA and the serving certificate, after kubeadm's certs phase in small.

kubectl sends its bearer token only over TLS, so the front speaks HTTPS with a
certificate it makes itself: a CA (`ca.crt`, `ca.key`) on first start, and a
serving certificate (`apiserver.crt`, `apiserver.key`) signed by it for
127.0.0.1, ::1, localhost and the bind address. Clients trust the CA through
the kubeconfig's `certificate-authority-data`. Files live in one directory
(the data dir's `pki/`, or a temporary one), private keys with mode 0600.

Start reading at: ensure_certs.

Design notes: keys are ECDSA P-256 (fast to make, accepted by Go's and
Python's TLS). A CA found on disk is reused, so kubeconfigs stay valid across
restarts; the serving certificate is reissued whenever it does not cover the
hosts asked for or is within a day of expiring.
"""

from __future__ import annotations

import ipaddress
import os
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_VALIDITY = timedelta(days=3650)
SERVING_VALIDITY = timedelta(days=365)
RENEW_BEFORE = timedelta(days=1)
DEFAULT_HOSTS = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Certs:
    """Where the PEM files are, plus the CA certificate itself for kubeconfigs and clients."""

    directory: Path
    ca_file: Path
    cert_file: Path
    key_file: Path
    ca_pem: bytes


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(path, 0o600)


def _write_public(path: Path, data: bytes) -> None:
    """A certificate: readable by all, writable only by the owner (0644), whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(path, 0o644)


def _new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _san(hosts: list[str]) -> x509.SubjectAlternativeName:
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(names)


def new_ca(now: datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A self-signed CA certificate and its key."""
    key = _new_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "minikcm-ca")])
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5))
            .not_valid_after(now + CA_VALIDITY)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return cert, key


def new_serving_cert(ca: x509.Certificate, ca_key: ec.EllipticCurvePrivateKey, hosts: list[str],
                     now: datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A server certificate for `hosts` (IPs and DNS names), signed by the CA."""
    key = _new_key()
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "minikcm-apiserver")]))
            .issuer_name(ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5))
            .not_valid_after(now + SERVING_VALIDITY)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=True,
                                         content_commitment=False, data_encipherment=False,
                                         key_agreement=False, key_cert_sign=False, crl_sign=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(_san(hosts), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    return cert, key


def _load_ca(directory: Path, now: datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    ca_file, ca_key_file = directory / "ca.crt", directory / "ca.key"
    if not (ca_file.exists() and ca_key_file.exists()):
        return None
    try:
        cert = x509.load_pem_x509_certificate(ca_file.read_bytes())
        key = serialization.load_pem_private_key(ca_key_file.read_bytes(), password=None)
    except ValueError:
        return None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or cert.not_valid_after_utc <= now + RENEW_BEFORE:
        return None
    return cert, key


def _serving_cert_ok(directory: Path, ca: x509.Certificate, hosts: list[str], now: datetime) -> bool:
    cert_file, key_file = directory / "apiserver.crt", directory / "apiserver.key"
    if not (cert_file.exists() and key_file.exists()):
        return False
    try:
        cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (ValueError, x509.ExtensionNotFound):
        return False
    covered = {str(ip) for ip in san.get_values_for_type(x509.IPAddress)}
    covered |= set(san.get_values_for_type(x509.DNSName))
    wanted = {str(ipaddress.ip_address(h)) if _is_ip(h) else h for h in hosts}
    return (cert.issuer == ca.subject and wanted <= covered
            and cert.not_valid_after_utc > now + RENEW_BEFORE)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def ensure_certs(directory: Path, extra_hosts: list[str] | tuple[str, ...] = (),
                 now: datetime | None = None) -> Certs:
    """Make (or reuse) the CA and a serving certificate for the default hosts plus `extra_hosts`."""
    now = now or datetime.now(timezone.utc)
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(directory, 0o700)  # it holds private keys: a kept directory with a wider mode is narrowed
    for key_file in ("ca.key", "apiserver.key"):
        if (directory / key_file).exists():
            os.chmod(directory / key_file, 0o600)
    hosts = list(dict.fromkeys([*DEFAULT_HOSTS, *extra_hosts]))
    loaded = _load_ca(directory, now)
    if loaded is None:
        ca, ca_key = new_ca(now)
        _write_public(directory / "ca.crt", ca.public_bytes(serialization.Encoding.PEM))
        _write_private(directory / "ca.key", _key_pem(ca_key))
        for stale in ("apiserver.crt", "apiserver.key"):
            (directory / stale).unlink(missing_ok=True)
    else:
        ca, ca_key = loaded
    if not _serving_cert_ok(directory, ca, hosts, now):
        cert, key = new_serving_cert(ca, ca_key, hosts, now)
        _write_private(directory / "apiserver.key", _key_pem(key))
        _write_public(directory / "apiserver.crt", cert.public_bytes(serialization.Encoding.PEM))
    return Certs(directory, directory / "ca.crt", directory / "apiserver.crt", directory / "apiserver.key",
                 (directory / "ca.crt").read_bytes())


def server_ssl_context(certs: Certs) -> ssl.SSLContext:
    """The server side: TLS 1.2+, HTTP/1.1 offered over ALPN (so Go clients do not try HTTP/2)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certs.cert_file, certs.key_file)
    context.set_alpn_protocols(["http/1.1"])
    return context


def client_ssl_context(ca_pem: bytes) -> ssl.SSLContext:
    """A client context that trusts only the minikcm CA (hostname checked)."""
    context = ssl.create_default_context(cadata=ca_pem.decode("ascii"))
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context
