"""Fixtures for the reading-site tests: the project root, the hook module, one strict build."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
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


# ---------------------------------------------------------------------------
# The browser tests' shared pieces (test_browser.py, test_replay_browser.py): the built
# site served on 127.0.0.1 (random port) and Debian's chromium driven by Playwright.
# Never `playwright install`: a module using `browser` skips only when /usr/bin/chromium
# is absent and CI is unset; a chromium that is present but cannot start fails.

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib name)
        pass


@pytest.fixture(scope="module")
def base_url(built_site) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(built_site.dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="docs/http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {CHROMIUM} is missing (.ci/run installs chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium fonts-noto-cjk)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        pytest.fail(f"playwright is not installed ({err}); `make test` installs the test extra")
    with sync_playwright() as playwright:
        # A broken chromium raises here, which fails every test that uses it.
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
