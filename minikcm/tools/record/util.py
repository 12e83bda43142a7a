"""Port of k8s.io/client-go/tools/record/util/util.go.

Three small helpers the recorder and its sink writer share: which event types
are allowed, whether a write failed because the event is gone, and how an
Event gets its name.

Start reading at: generate_event_name.

Differs from Go: the uuid fallback of generate_event_name draws from an
injected `random.Random` when one is given, so deterministic runs name their
events the same way every time.
"""

from __future__ import annotations

import random
import uuid

from minikcm.apimachinery import errors
from minikcm.apimachinery.validation import name_is_dns_subdomain

EVENT_TYPE_NORMAL = "Normal"  # Go: corev1.EventTypeNormal
EVENT_TYPE_WARNING = "Warning"  # Go: corev1.EventTypeWarning


def validate_event_type(event_type: str) -> bool:
    """Port of ValidateEventType (record/util/util.go): only Normal and Warning."""
    return event_type in (EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING)


def is_key_not_found_error(err: BaseException | None) -> bool:
    """Port of IsKeyNotFoundError (record/util/util.go): a StatusError with code 404."""
    return isinstance(err, errors.StatusError) and err.code == 404


def generate_event_name(ref_name: str, unix_nano_: int, rng: random.Random | None = None) -> str:
    """Port of GenerateEventName (record/util/util.go): `<ref_name>.<hex nanos>`, or a uuid.

    An object name can make that an invalid Event name (too long, or empty
    making it start with a dot); then a random uuid4 is used instead.
    """
    name = f"{ref_name}.{unix_nano_:x}"
    if name_is_dns_subdomain(name, False):
        rng = rng if rng is not None else random.Random()
        name = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    return name
