"""Port of k8s.io/client-go/tools/cache/event_handler_name.go.

A readable name for an event handler, used in the names of the shared
informer's per-handler sync trackers and in log lines. For a handler made of
plain functions (ResourceEventHandlerFuncs) the name is where those functions
live, for example `minikcm.sim.kubelet.Kubelet` when all three are methods of
one Kubelet; for any other handler it is the handler's class.

Start reading at: name_for_handler.

Differs from Go:
- Names come from `__module__` and `__qualname__` (Go: the package path and
  the runtime's function names). A function defined inside another one has
  the qualifier of that outer function: the `.<locals>` part is dropped, as
  Go's `.funcN` suffix is.
- We never call `repr` on a handler or its functions: a bound method's repr
  calls its owner's `__repr__`, which may read fields not set yet while the
  owner is still being built.
- The last resort (Go: `%T`) is the handler's class name; for None that is
  `NoneType` (Go: `<nil>`).
"""

from __future__ import annotations

from typing import Any

from minikcm.tools.cache.controller import ResourceEventHandlerDetailedFuncs, ResourceEventHandlerFuncs

LOCALS = ".<locals>"  # what Python puts between an outer function and a function defined in it


def name_for_handler(handler: Any) -> str:
    """Port of nameForHandler (event_handler_name.go).

    ResourceEventHandlerFuncs (and the Detailed variant) are named after
    their functions (see name_for_functions); any other handler after its
    class, module included: `minikcm.controller.replicaset.replica_set.ReplicaSetController`.
    """
    name = ""
    if handler is not None:
        if isinstance(handler, ResourceEventHandlerFuncs | ResourceEventHandlerDetailedFuncs):
            name = name_for_handler_funcs(handler)
        else:
            name = qualified_name(type(handler))
    if name == "":  # Go: the deferred last resort, Sprintf("%T")
        name = type(handler).__qualname__
    return name


def name_for_handler_funcs(funcs: ResourceEventHandlerFuncs | ResourceEventHandlerDetailedFuncs) -> str:
    """Port of nameForHandlerFuncs (event_handler_name.go): the name of its three functions."""
    return name_for_functions(funcs.add_func, funcs.update_func, funcs.delete_func)


def name_for_functions(*fs: Any) -> str:
    """Port of nameForFunctions (event_handler_name.go).

    When every function given lives in the same place (one class, one module,
    one outer function), that place is the name; otherwise the full names
    joined by `+`. None entries are skipped.
    Example: two methods of `pkg.Kubelet` give `pkg.Kubelet`; a method of
    `pkg.A` and a function `pkg.f` give `pkg.A.on_add+pkg.f`.
    """
    qualifier = ""
    single_qualifier = True
    names: list[str] = []
    for f in fs:
        if f is None:
            continue
        name = name_for_function(f)
        if name == "":
            continue
        names.append(name)
        new_qualifier = name
        index = new_qualifier.rfind(".")
        if index > 0:
            new_qualifier = new_qualifier[:index]
        new_qualifier = new_qualifier.removesuffix(LOCALS)
        if qualifier == "":
            qualifier = new_qualifier
        elif qualifier != new_qualifier:
            single_qualifier = False
    if single_qualifier:
        return qualifier
    return "+".join(names)


def name_for_function(f: Any) -> str:
    """Port of nameForFunction (event_handler_name.go): `module.qualname` of a function or method.

    A callable without a qualified name of its own (a callable object, a
    functools.partial) is named after its class.
    """
    qualname = getattr(f, "__qualname__", None) or getattr(f, "__name__", None)
    if not isinstance(qualname, str):
        return qualified_name(type(f))
    module = getattr(f, "__module__", None)
    return f"{module}.{qualname}" if isinstance(module, str) and module else qualname


def qualified_name(cls: type) -> str:
    """No upstream twin: `module.QualName` of a class (Go: the type's package path and name)."""
    return f"{cls.__module__}.{cls.__qualname__}" if cls.__module__ else cls.__qualname__
