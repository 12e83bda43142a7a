"""Port of k8s.io/client-go/kubernetes/fake/clientset_generated.go.

The clientset controller tests start from. `new_simple_clientset(objs...)` is
an `InProcessClientset` over a fresh embedded API server seeded with `objs`,
with client-go testing's `Fake` in front: tests steer it with
`cs.fake.prepend_reactor(...)` and assert on `cs.fake.actions()`.

Start reading at: new_simple_clientset.

Not ported: the Clientset struct (the in-process clientset with a Fake attached
plays it), Discovery(), Tracker() (the server is `cs.server`),
NewClientset and its field-managed tracker. IsWatchListSemanticsUnSupported is
the clientset's own method (True whenever a Fake is attached, see typed.Clientset).
Differs from Go: the store is the real embedded server, so seeded objects are
defaulted and validated (see testing.fixture.add_objects).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from minikcm.apiserver.server import APIServer
from minikcm.client.inprocess import InProcessClientset
from minikcm.client.testing.fake import Fake
from minikcm.client.testing.fixture import add_objects

if TYPE_CHECKING:
    from minikcm.clock import Clock


def new_simple_clientset(*objects: Any, clock: Clock | None = None,
                         rng: random.Random | None = None) -> InProcessClientset:
    """Port of NewSimpleClientset (kubernetes/fake/clientset_generated.go).

    An `InProcessClientset` over a fresh embedded API server holding `objects`
    (models or wire dicts), with a `Fake` attached: `cs.fake.prepend_reactor(...)`
    injects failures, `cs.fake.actions()` lists the calls made. Seeding goes to
    the server directly, so it records no actions. `clock` and `rng` go to the
    server; without `rng` a fixed seed is used, so generated uids and names
    repeat from run to run.

    Differs from Go: the store is the real embedded server (see add_objects).
    """
    server = APIServer(clock=clock, rng=rng if rng is not None else random.Random(0))
    add_objects(server, objects)
    return InProcessClientset(server, fake=Fake())
