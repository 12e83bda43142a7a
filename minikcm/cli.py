"""No upstream twin. The `minikcm` command line.

Each sub-command is a thin shell over a module that does the work, so that what
the command runs is what the tests and the debugger run.

Start reading at: main.
"""

from __future__ import annotations

import argparse
import sys

from minikcm import __version__
from minikcm.upstream import KUBERNETES_VERSION


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="minikcm",
        description=f"A runnable Python port of kube-controller-manager at Kubernetes {KUBERNETES_VERSION}.",
    )
    parser.add_argument("--version", action="version",
                        version=f"minikcm {__version__} (ports Kubernetes {KUBERNETES_VERSION})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    version = sub.add_parser("version", help="print minikcm's version and the Kubernetes release it ports")
    version.set_defaults(func=cmd_version)
    return parser


def cmd_version(args: argparse.Namespace) -> int:
    print(f"minikcm {__version__}")
    print(f"ports Kubernetes {KUBERNETES_VERSION}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `minikcm` console script and of `python -m minikcm`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    return int(func(args))
