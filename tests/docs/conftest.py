"""Fixtures for the reading-site tests: the project root, the hook module, one strict build."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@dataclass(frozen=True)
class BuiltSite:
    """A finished `mkdocs build --strict` run."""

    dir: Path       # the site folder (Chinese at the top, English under en/)
    output: str     # everything mkdocs printed


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def hooks() -> ModuleType:
    """docs/hooks.py, imported the way mkdocs imports it (a file, not a package)."""
    spec = importlib.util.spec_from_file_location("minikcm_docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """Build the whole site once per test session, strictly, into a temporary folder."""
    site_dir = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    output = done.stdout + done.stderr
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed ({done.returncode}):\n{output}")
    return BuiltSite(dir=site_dir, output=output)
