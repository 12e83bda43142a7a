"""No upstream twin. Build docs/data/go_symbols.json: the Go symbols the chapters link, and their lines.

The chapters link Go functions, methods, types and constants on GitHub. This script finds every
such link in docs/*.md, locates the symbol in the upstream source the port follows, and writes
one row per symbol: repository path, the ref read (tag or commit), first and last line, and the
permalink the pages must use. tests/docs/test_go_links.py checks the pages against that table
(CI runs the test, never this script).

Where the source comes from (no network is ever used):

* Staging repositories (client-go, apimachinery, apiserver, api, kubectl, controller-manager)
  are read at their tag v0.36.3 from git mirrors (the search tool's `fetch github:kubernetes/<repo>`,
  found under --mirrors). Each tag commit only bumps go.mod over the commit published from
  kubernetes/kubernetes 9419ebed (its `Kubernetes-commit:` trailer), which the script checks, so
  the same bytes sit at `kubernetes/kubernetes@v1.36.3:staging/src/k8s.io/<repo>/<path>` and the
  links go there with `#Lstart-Lend`.
* kubernetes/kubernetes files (pkg/controller, cmd/kube-controller-manager) are not in a mirror.
  They are read from the cache, `<cache>/kubernetes/<commit>/<path>`, filled by hand from the
  search tool's read_file (whole file, length checked against its total_chars). Only commits that
  shared/UPSTREAM.md allows are used, and a file is linked at the lines of the commit read
  (`blob/<commit>/<path>#L..`), with the file at v1.36.3 beside it on the page. A file with no
  modern copy is recorded as unpinned (start/end null, with the reason) and linked to the file.

Every run also copies the staging files it reads into `<cache>/staging/v0.36.3/...`, so later
runs work offline from the cache alone (no mirrors needed).

Usage:
    .venv/bin/python dev/go_symbols.py                 # write docs/data/go_symbols.json
    .venv/bin/python dev/go_symbols.py --check         # exit 1 if the table would change
    .venv/bin/python dev/go_symbols.py --fix-pages     # also point the page links at the lines
    options: --cache DIR (default ~/.cache/minikcm/go-symbols), --mirrors DIR (default /work/.mirror)

Locating a symbol: `func (r *Recv) Name(` / `func Name(` / `type Name ...` at column 0 through the
next `}` at column 0 (one line when the declaration closes on its own line); a constant or
variable is its own line, in or out of a `const (`/`var (` block.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TABLE = DOCS / "data" / "go_symbols.json"

KK = "https://github.com/kubernetes/kubernetes/blob/"
TAG = "v1.36.3"
STAGING_TAG = "v0.36.3"
KK_COMMIT_BEHIND_TAG = "9419ebed1fb4631efde758bd8395a33b2bf74ba7"
STAGING_REPOS = ("client-go", "apimachinery", "apiserver", "api", "kubectl", "controller-manager")

# kubernetes/kubernetes files and the commit whose content was read (shared/UPSTREAM.md order:
# 9419ebed, 2e090810, 008b3652, 95f08499; consistency.go has a single stored version, the file
# being new in 1.36). Files missing here have no modern copy that could be read.
KK_READ = {
    "pkg/controller/deployment/deployment_controller.go": "2e0908106e4420a601e50d6edfd41475de87a3e1",
    "pkg/controller/deployment/rolling.go": "95f08499d652a6211121d8af35f470609217c730",
    "pkg/controller/util/consistency/consistency.go": "d7ce957d8a8729e0e9c2e365288277d742491a5b",
    "pkg/controller/deployment/progress.go": "008b3652959ca58af8be3fb5b6ecfe9ae7638282",
    "pkg/controller/deployment/util/deployment_util.go": "95f08499d652a6211121d8af35f470609217c730",
    "pkg/controller/replicaset/replica_set.go": "2e0908106e4420a601e50d6edfd41475de87a3e1",
    "pkg/controller/statefulset/stateful_set_control.go": "008b3652959ca58af8be3fb5b6ecfe9ae7638282",
    "pkg/controller/statefulset/stateful_pod_control.go": "2e0908106e4420a601e50d6edfd41475de87a3e1",
    "pkg/controller/history/controller_history.go": "95f08499d652a6211121d8af35f470609217c730",
    "cmd/kube-controller-manager/app/controllermanager.go": "2e0908106e4420a601e50d6edfd41475de87a3e1",
    # UPSTREAM.md rule 3 (none of the four commits holds them; a modern copy stored under
    # kubernetes/kubernetes): controller_descriptor.go registers exactly the controllers the
    # port's 1.36 registry does, BuildController takes ctx and klog.FromContext; config.go
    # carries the 1.33+ ComponentGlobalsRegistry field.
    "cmd/kube-controller-manager/app/controller_descriptor.go": "898b9f800267a757615ecfb71fc377d04d996c6b",
    "cmd/kube-controller-manager/app/config/config.go": "7f5fa195436172c55bc0a7638dfb94549aa7e66b",
}
UNPINNED_REASON = (
    "no copy of this file at 9419ebed, 2e090810, 008b3652 or 95f08499 (nor another modern one) "
    "could be read; linked to the file at v1.36.3"
)

# Link texts that do not name the symbol they point at.
TEXT_ALIASES = {
    "kubectl 的判断": "StatefulSetStatusViewer.Status",
    "kubectl's check": "StatefulSetStatusViewer.Status",
}

LINK_RE = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\](?:\[([^\]]+)\]|\((https://github\.com/kubernetes/[^)\s]+)\))")
DEF_RE = re.compile(r"^\[([^\]]+)\]:\s*(\S+)\s*$", re.M)
URL_RE = re.compile(r"^https://github\.com/kubernetes/kubernetes/blob/([^/]+)/([^#]+?)(?:#L(\d+)(?:-L(\d+))?)?$")


@dataclass
class Link:
    page: str
    text: str
    label: str | None   # reference label, None for an inline link
    url: str
    start: int          # offset of the whole link in the page
    end: int


def page_links(path: Path, text: str | None = None) -> list[Link]:
    """All links of a page that resolve to a github.com/kubernetes/kubernetes blob URL."""
    text = path.read_text(encoding="utf-8") if text is None else text
    defs = {k.lower(): v for k, v in DEF_RE.findall(text)}
    out = []
    for m in LINK_RE.finditer(text):
        label, url = m.group(2), m.group(3)
        if label is not None:
            url = defs.get(label.lower())
        if url and url.startswith(KK):
            out.append(Link(path.name, m.group(1), label, url, m.start(), m.end()))
    return out


def symbol_of(text: str) -> str | None:
    """The Go symbol a link text names (`X.Y`, `pkg.F`, `T`), or None for file names and prose."""
    if text in TEXT_ALIASES:
        return TEXT_ALIASES[text]
    names = re.findall(r"`([^`]+)`", text)
    if not names:
        return None
    name = names[0].strip().removesuffix("()")
    if name.endswith(".go") or not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)?", name):
        return None
    return name


def symbols_of(text: str) -> list[str]:
    """Every symbol a text names when it lists several (`A`、`B`): the link spans them all."""
    if text in TEXT_ALIASES:
        return [TEXT_ALIASES[text]]
    first = symbol_of(text)
    if first is None:
        return []
    rest = [n for n in re.findall(r"`([^`]+)`", text)[1:] if re.fullmatch(r"[A-Za-z_]\w*", n)]
    if re.search(r"`[^`]+`\s*[、,]\s*`", text):
        return [first] + rest
    return [first]


def repo_path(url_path: str) -> tuple[str, str]:
    """(`kubernetes` or the staging repo, path inside it) for a k/k path."""
    m = re.match(r"staging/src/k8s\.io/([^/]+)/(.+)$", url_path)
    if m:
        return m.group(1), m.group(2)
    return "kubernetes", url_path


# --------------------------------------------------------------------------- locating

def locate(lines: list[str], symbol: str, package: str) -> tuple[int, int] | None:
    """1-based (start, end) of a symbol's declaration, or None."""
    parts = symbol.split(".")
    cands = []
    if len(parts) == 2:
        recv, name = parts
        for r in (recv, "Typed" + recv):  # client-go's generic twins carry a Typed prefix
            cands.append(re.compile(rf"^func \(\s*\w*\s*\*?{re.escape(r)}(\[[^\]]*\])?\s*\)\s+{re.escape(name)}\s*[(\[]"))
        if recv == package:
            parts = [name]
    if len(parts) == 1:
        name = parts[0]
        cands.append(re.compile(rf"^func {re.escape(name)}\s*[(\[]"))
        cands.append(re.compile(rf"^type {re.escape(name)}\b"))
        cands.append(re.compile(rf"^(const|var) {re.escape(name)}\b"))
        # a method named without its receiver (`renew` for LeaderElector.renew)
        cands.append(re.compile(rf"^func \(\s*\w*\s*\*?\w+(\[[^\]]*\])?\s*\)\s+{re.escape(name)}\s*[(\[]"))
    for rx in cands:
        for i, line in enumerate(lines):
            if rx.match(line):
                return i + 1, block_end(lines, i)
    if len(parts) == 1:  # a name inside a const/var/type block
        rx = re.compile(rf"^\t{re.escape(parts[0])}\b(\s|=)")
        inside = None
        for i, line in enumerate(lines):
            if re.match(r"^(const|var|type) \($", line):
                inside = True
            elif line.startswith(")"):
                inside = False
            elif inside and rx.match(line):
                return i + 1, i + 1 if not line.rstrip().endswith("{") else inner_end(lines, i)
    return None


def block_end(lines: list[str], i: int) -> int:
    """Line (1-based) closing the declaration starting at index i."""
    head = lines[i].rstrip()
    if not head.endswith(("{", "(", ",")):
        return i + 1
    group = re.match(r"^(const|var|type) \($", head) is not None
    for j in range(i + 1, len(lines)):
        if lines[j].startswith(")" if group else "}"):
            return j + 1
    return i + 1


def inner_end(lines: list[str], i: int) -> int:
    for j in range(i + 1, len(lines)):
        if lines[j].startswith("\t}"):
            return j + 1
    return i + 1


def package_of(lines: list[str]) -> str:
    for line in lines:
        if line.startswith("package "):
            return line.split()[1]
    return ""


# --------------------------------------------------------------------------- sources

class Sources:
    def __init__(self, cache: Path, mirrors: Path):
        self.cache, self.mirrors = cache, mirrors
        self.staging_info: dict[str, dict] = {}

    def staging_text(self, repo: str, path: str) -> str:
        cached = self.cache / "staging" / STAGING_TAG / repo / path
        git = self.mirrors / f"kubernetes+{repo}" / "repo"
        if git.exists():
            self.check_tag(repo, git)
            text = subprocess.run(["git", "-C", str(git), "show", f"{STAGING_TAG}:{path}"],
                                  check=True, capture_output=True, text=True).stdout
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(text, encoding="utf-8")
            return text
        if cached.exists():
            info = self.cache / "staging" / STAGING_TAG / f"{repo}.tag.json"
            if repo not in self.staging_info and info.exists():
                self.staging_info[repo] = json.loads(info.read_text(encoding="utf-8"))
            return cached.read_text(encoding="utf-8")
        raise SystemExit(f"no mirror of kubernetes/{repo} and no cached {cached}")

    def check_tag(self, repo: str, git: Path) -> None:
        """The tag adds only go.mod/go.sum to the commit published from k/k 9419ebed."""
        if repo in self.staging_info:
            return

        def run(*args: str) -> str:
            return subprocess.run(["git", "-C", str(git), *args], check=True,
                                  capture_output=True, text=True).stdout

        commit = run("rev-parse", f"{STAGING_TAG}^{{commit}}").strip()
        trailer = re.search(r"Kubernetes-commit: (\w+)", run("log", "-1", "--format=%B", f"{commit}^"))
        changed = sorted(set(run("diff", "--name-only", f"{commit}^", commit).split()))
        ok = bool(trailer) and trailer.group(1) == KK_COMMIT_BEHIND_TAG and set(changed) <= {"go.mod", "go.sum"}
        if not ok:
            raise SystemExit(f"kubernetes/{repo} {STAGING_TAG} is not k/k {KK_COMMIT_BEHIND_TAG} + go.mod: {changed}")
        self.staging_info[repo] = {"tag": STAGING_TAG, "commit": commit,
                                   "kubernetes_commit": KK_COMMIT_BEHIND_TAG, "tag_changes": changed}
        info = self.cache / "staging" / STAGING_TAG / f"{repo}.tag.json"
        info.parent.mkdir(parents=True, exist_ok=True)
        info.write_text(json.dumps(self.staging_info[repo]), encoding="utf-8")

    def kk_text(self, path: str) -> tuple[str, str] | None:
        commit = KK_READ.get(path)
        if commit is None:
            return None
        f = self.cache / "kubernetes" / commit / path
        if not f.exists():
            raise SystemExit(f"missing {f}: fill the cache from read_file(kubernetes/kubernetes, {path}, {commit})")
        return commit, f.read_text(encoding="utf-8")


def collect(pages: list[Path]) -> dict[tuple[str, tuple[str, ...]], set[str]]:
    """(k/k path, symbols) -> pages linking it."""
    wanted: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for page in pages:
        for link in page_links(page):
            m = URL_RE.match(link.url)
            if not m:
                continue
            syms = symbols_of(link.text)
            if syms:
                wanted.setdefault((m.group(2), tuple(syms)), set()).add(page.name)
    return wanted


def build(cache: Path, mirrors: Path) -> dict:
    src = Sources(cache, mirrors)
    rows, files = [], {}
    pages = sorted(DOCS.glob("*.md"))
    for (path, syms), used in sorted(collect(pages).items()):
        repo, inner = repo_path(path)
        key = f"{path}:{'+'.join(syms)}"
        row = {"key": key, "symbol": "+".join(syms), "path": path, "pages": sorted(used)}
        if repo != "kubernetes":
            text = src.staging_text(repo, inner)
            ref, read_from = TAG, f"kubernetes/{repo}@{STAGING_TAG}:{inner}"
        else:
            got = src.kk_text(path)
            if got is None:
                rows.append(row | {"ref": None, "start": None, "end": None, "read_from": None,
                                   "url": f"{KK}{TAG}/{path}", "unpinned": UNPINNED_REASON})
                continue
            ref, text = got
            read_from = f"kubernetes/kubernetes@{ref}:{path}"
        files[read_from] = hashlib.sha256(text.encode()).hexdigest()
        lines = text.split("\n")
        pkg = package_of(lines)
        spans = [locate(lines, s, pkg) for s in syms]
        if any(s is None for s in spans):
            rows.append(row | {"ref": ref, "start": None, "end": None, "read_from": read_from,
                               "url": f"{KK}{TAG}/{path}", "unpinned": f"symbol not found in {read_from}"})
            continue
        start, end = min(s[0] for s in spans), max(s[1] for s in spans)
        anchor = f"#L{start}" if start == end else f"#L{start}-L{end}"
        row |= {"ref": ref, "start": start, "end": end, "read_from": read_from,
                "url": f"{KK}{ref}/{path}{anchor}"}
        if ref != TAG:
            row["file_at_tag"] = f"{KK}{TAG}/{path}"
        rows.append(row)
    return {
        "about": "Go symbols linked by the chapters; written by dev/go_symbols.py, checked by tests/docs/test_go_links.py",
        "tag": TAG,
        "staging": src.staging_info,
        "files_read": dict(sorted(files.items())),
        "symbols": rows,
    }


# --------------------------------------------------------------------------- page rewrite

def label_for(base: str, symbol: str) -> str:
    return f"{base}-{symbol.replace('.', '-').replace('+', '-')}"


def fix_page(page: Path, table: dict) -> int:
    """Point each symbol link at its row's URL; k/k rows read at a commit get their own reference
    label and the file at v1.36.3 beside them. Returns the number of links changed."""
    by_key = {(r["path"], r["symbol"]): r for r in table["symbols"]}
    text = page.read_text(encoding="utf-8")
    defs = {k.lower(): (k, v) for k, v in DEF_RE.findall(text)}
    new_defs: dict[str, str] = {}
    changed = 0
    out, last = [], 0
    for link in page_links(page, text):
        m = URL_RE.match(link.url)
        syms = symbols_of(link.text)
        row = by_key.get((m.group(2), "+".join(syms))) if m and syms else None
        if row is None or row["url"] == link.url:
            continue
        out.append(text[last:link.start])
        last = link.end
        if link.label is None:
            out.append(f"[{link.text}]({row['url']})")
        elif row.get("file_at_tag"):
            # the file-level label (the one whose URL is the file at the tag) names the family
            base = next((k for k, v in defs.values() if v == row["file_at_tag"]), link.label)
            name = row["symbol"].split(".")[-1]
            lab = label_for(base, name)
            taken = {k.lower(): k for k in [*(k for k, _ in defs.values()), *new_defs]}
            if lab.lower() in taken and taken[lab.lower()] != lab:  # labels ignore case
                lab += "-unexported" if name[:1].islower() else "-exported"
            new_defs[lab] = row["url"]
            tag_label = base if defs.get(base.lower(), ("", ""))[1] == row["file_at_tag"] else None
            beside = f"<sup>[{TAG}][{tag_label}]</sup>" if tag_label else f"<sup>[{TAG}]({row['file_at_tag']})</sup>"
            following = text[link.end:link.end + 40]
            out.append(f"[{link.text}][{lab}]" + ("" if following.startswith("<sup>") else beside))
        else:
            if new_defs.get(link.label, row["url"]) != row["url"]:
                raise SystemExit(f"{page.name}: label [{link.label}] names two symbols; give each its own")
            new_defs[link.label] = row["url"]
            out.append(text[link.start:link.end])
        changed += 1
    out.append(text[last:])
    text = "".join(out)
    for lab, url in new_defs.items():
        if lab.lower() in defs:
            text = re.sub(rf"^\[{re.escape(defs[lab.lower()][0])}\]:\s*\S+\s*$", f"[{lab}]: {url}", text, flags=re.M)
        else:
            base = lab.rsplit("-", 1)[0]
            anchor = re.search(rf"^\[{re.escape(base)}\]:.*$", text, flags=re.M | re.I)
            if anchor and not re.search(rf"^\[{re.escape(lab)}\]:", text, flags=re.M | re.I):
                text = text[:anchor.end()] + f"\n[{lab}]: {url}" + text[anchor.end():]
            defs[lab.lower()] = (lab, url)
    if changed:
        page.write_text(text, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache/minikcm/go-symbols")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--fix-pages", action="store_true")
    args = ap.parse_args(argv)
    table = build(args.cache, args.mirrors)
    body = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    if args.check:
        same = TABLE.exists() and TABLE.read_text(encoding="utf-8") == body
        print("up to date" if same else f"{TABLE} would change")
        return 0 if same else 1
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text(body, encoding="utf-8")
    pinned = sum(r["start"] is not None for r in table["symbols"])
    print(f"{TABLE.relative_to(ROOT)}: {len(table['symbols'])} symbols, {pinned} with lines")
    if args.fix_pages:
        for page in sorted(DOCS.glob("*.md")):
            n = fix_page(page, table)
            if n:
                print(f"  {page.name}: {n} links updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
