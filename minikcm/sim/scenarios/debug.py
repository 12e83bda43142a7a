"""No upstream twin. `minikcm demo run --break SYMBOL`: stop in pdb the first time a function runs.

`resolve_symbol` turns a dotted name (`minikcm.tools.leaderelection.LeaderElector.try_acquire_or_renew`)
into the function it names, by importing the longest module prefix and walking
the rest as attributes; an unknown name raises `UnknownSymbolError` with the
closest public functions and methods of the package. `FirstCallBreak` runs a
scenario and hands the first frame of that function to pdb.

Start reading at: resolve_symbol, then FirstCallBreak.trace.

Design notes: nothing is wrapped or patched (STYLE.md section 6). We keep the
function's code object and install a trace function (`sys.settrace`) that only
looks at "call" events and declines every other frame, so no line is traced
until the target is entered. On that first call it gives the frame to
`pdb.Pdb.set_trace`, which stops at the function's first line. When the learner
continues, pdb removes all tracing (no breakpoints are set), so the rest of the
scenario runs at full speed. The fake clock cannot move while pdb waits: only
the driver moves it, and the driver is paused in the same thread.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import pdb
import pkgutil
import sys
import types
from collections.abc import Callable
from typing import Any


class UnknownSymbolError(LookupError):
    """`resolve_symbol` could not find a function by that name; the message lists close matches."""


def resolve_symbol(symbol: str, package: str = "minikcm") -> types.FunctionType:
    """The function a dotted name points at: `module.function` or `module.Class.method`.

    Static and class methods, properties (their getter) and classes (their
    `__init__`) are accepted too.
    Raises:
        UnknownSymbolError: nothing by that name, or not a Python function;
            the message suggests public symbols of `package` that are close.
    """
    parts = symbol.split(".")
    if not symbol or not all(p.isidentifier() for p in parts):
        raise UnknownSymbolError(unknown_symbol_message(symbol, package, "is not a dotted Python name"))
    module, rest = import_longest_prefix(parts)
    if module is None:
        raise UnknownSymbolError(unknown_symbol_message(symbol, package, "names no importable module"))
    obj: Any = module
    for i, name in enumerate(rest):
        try:
            obj = inspect.getattr_static(obj, name)
        except AttributeError:
            owner = ".".join(parts[:len(parts) - len(rest) + i])
            raise UnknownSymbolError(unknown_symbol_message(
                symbol, package, f"{owner} has no attribute {name!r}")) from None
    func = function_of(obj)
    if func is None:
        raise UnknownSymbolError(unknown_symbol_message(
            symbol, package, f"is a {type(obj).__name__}, not a Python function"))
    return func


def import_longest_prefix(parts: list[str]) -> tuple[types.ModuleType | None, list[str]]:
    """Import the longest leading part of `parts` that is a module; return it with the remaining names.

    Raises: ImportError from inside a module that exists but fails to import.
    """
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            return importlib.import_module(name), parts[i:]
        except ModuleNotFoundError as err:
            missing = err.name or ""
            if missing != name and not name.startswith(missing + "."):
                raise  # the module exists but imports something missing: a real error
    return None, parts


def function_of(obj: Any) -> types.FunctionType | None:
    """The Python function behind `obj` (a function, method, descriptor or class), or None."""
    if isinstance(obj, (staticmethod, classmethod, types.MethodType)):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = obj.fget
    elif inspect.isclass(obj):
        obj = vars(obj).get("__init__")
    return obj if isinstance(obj, types.FunctionType) else None


def unknown_symbol_message(symbol: str, package: str, why: str) -> str:
    close = close_symbols(symbol, public_symbols(package))
    lines = [f"unknown symbol {symbol!r}: {why}"]
    if close:
        lines.append("close matches:")
        lines += [f"  {c}" for c in close]
    else:
        lines.append(f"no close match among the public functions and methods of {package}")
    return "\n".join(lines)


def public_symbols(package: str = "minikcm") -> list[str]:
    """Dotted names of every public function, class and method defined in `package`, sorted.

    Imports every module of the package; a module that fails to import is skipped.
    """
    root = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(root.__path__, package + ".", onerror=ignore)]
    symbols: list[str] = []
    for module_name in sorted(set(names)):
        if module_name.rsplit(".", 1)[-1] == "__main__":
            continue
        try:
            module = importlib.import_module(module_name)
        except Exception:  # an unimportable module offers no suggestions; the rest still do
            continue
        symbols += module_symbols(module)
    return sorted(symbols)


def module_symbols(module: types.ModuleType) -> list[str]:
    """The public functions and classes defined in `module` (not imported into it), with their methods."""
    out = []
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if isinstance(obj, types.FunctionType):
            out.append(f"{module.__name__}.{name}")
        elif inspect.isclass(obj):
            out.append(f"{module.__name__}.{name}")
            out += [f"{module.__name__}.{name}.{attr}" for attr, member in vars(obj).items()
                    if (not attr.startswith("_") or attr == "__init__") and function_of(member) is not None]
    return out


def ignore(name: str) -> None:
    """walk_packages' onerror: a package that fails to import is skipped."""


def close_symbols(symbol: str, candidates: list[str], n: int = 6) -> list[str]:
    """Up to `n` candidates close to `symbol`, closest first.

    The pool: whole names that are close, names with the same last part, and
    names whose last part is close; ranked by how similar the whole name is.
    For a module or class given where a function was wanted, its members come first.
    """
    members = [c for c in candidates if c.startswith(symbol + ".")]
    if members:
        return sorted(members, key=lambda c: (c.count("."), c))[:n]
    tail = symbol.rsplit(".", 1)[-1]
    by_tail: dict[str, list[str]] = {}
    for c in candidates:
        by_tail.setdefault(c.rsplit(".", 1)[-1], []).append(c)
    pool = set(difflib.get_close_matches(symbol, candidates, n=2 * n, cutoff=0.6))
    pool.update(by_tail.get(tail, []))
    for close_tail in difflib.get_close_matches(tail, list(by_tail), n=3, cutoff=0.75):
        pool.update(by_tail[close_tail])
    return sorted(pool, key=lambda c: (-similarity(symbol, c), c))[:n]


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


class FirstCallBreak:
    """Runs a callable and stops in pdb the first time `code` (a function's code object) is entered.

    With `nth` > 1 it stops at the nth call instead (`--hit N`: the site's replays
    give N for the step shown, counting every call from the start of the build).
    `on_hit(frame)` is called just before pdb takes over (to print where and
    when we stopped). `hit` says afterwards whether the function ever ran (that often).
    Thread: the caller's only (sys.settrace is per thread).
    """

    def __init__(self, code: types.CodeType, on_hit: Callable[[types.FrameType], None] | None = None,
                 debugger: pdb.Pdb | None = None, nth: int = 1) -> None:
        self.code = code
        self.on_hit = on_hit
        self.debugger = debugger
        self.nth = nth
        self.calls = 0
        self.hit = False

    def run(self, fn: Callable[[], Any]) -> Any:
        """Call `fn` under the first-call trace; tracing ends when `fn` returns, hit or not."""
        sys.settrace(self.trace)
        try:
            return fn()
        finally:
            sys.settrace(None)

    def trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        """The global trace function: decline every frame but the first call of `code`."""
        if event != "call" or frame.f_code is not self.code or self.hit:
            return None
        self.calls += 1
        if self.calls < self.nth:
            return None
        self.hit = True
        sys.settrace(None)
        if self.on_hit is not None:
            self.on_hit(frame)
        debugger = self.debugger if self.debugger is not None else pdb.Pdb()
        debugger.set_trace(frame)  # stops at the function's first line
        return debugger.trace_dispatch
