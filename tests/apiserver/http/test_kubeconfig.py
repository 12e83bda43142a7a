"""Tests for minikcm.apiserver.http.kubeconfig: content, mode 0600, atomic replacement."""

from __future__ import annotations

import base64
import os
import stat

import yaml
from kubernetes import config

from minikcm.apiserver.http import kubeconfig


def test_written_kubeconfig_is_private_and_loadable(tmp_path):
    path = tmp_path / "nested" / "kubeconfig"
    doc = kubeconfig.build_kubeconfig("https://127.0.0.1:6443", b"PEM DATA", "tok")
    kubeconfig.write_kubeconfig(path, doc)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    loaded = yaml.safe_load(path.read_text())
    assert loaded["current-context"] == "minikcm"
    assert base64.b64decode(loaded["clusters"][0]["cluster"]["certificate-authority-data"]) == b"PEM DATA"
    assert loaded["contexts"][0]["context"]["namespace"] == "default"
    contexts, active = config.list_kube_config_contexts(config_file=str(path))
    assert active["name"] == "minikcm"


def test_rewrite_replaces_atomically_and_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "kubeconfig"
    path.write_text("old")
    os.chmod(path, 0o644)
    kubeconfig.write_kubeconfig(path, kubeconfig.build_kubeconfig("https://x", b"ca", "t"))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["kubeconfig"]
