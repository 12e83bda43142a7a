"""Exercise p5/hash_controller_revision: write hash_controller_revision (minikcm.controller.history.controller_history).

Go twin: HashControllerRevision in pkg/controller/history/controller_history.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

The checker sets your function in place of the port's
`hash_controller_revision` for the duration of the check, so every
ControllerRevision the running port makes (new_controller_revision, and the
renaming after a name collision) is named `<set>-<your hash>`. The table
rows include the golden hashes of upstream's compatibility test; then the
statefulset-partition scenario runs a template change and a rollout, and the
checker compares the names of the revisions it made with the port's.
"""

from __future__ import annotations

from kubernetes.client import V1ControllerRevision

from minikcm.controller.controller_utils import safe_encode_string
from minikcm.controller.history.controller_history import fnv1_32, raw_data


def hash_controller_revision(revision: V1ControllerRevision, probe: int | None) -> str:
    """Port of HashControllerRevision: the safe-encoded FNV-1 hash of the data, plus the probe.

    With a probe (the collision count) its decimal text is hashed after the
    data, so collision count 0 hashes `...}` + `0`. The 32-bit sum is written in
    decimal and mapped through safe_encode_string (no vowels, no 0/1/3):
    upstream's 1.34 compatibility revision hashes to `776999688b`.
    """
    # Hints:
    # - raw_data(revision) gives the bytes Go hashes (keys sorted, `<` escaped), not
    #   json.dumps(revision.data).
    # - fnv1_32(data) is 32-bit FNV-1; fnv1_32(more, h) keeps hashing from sum h.
    # - A probe of None adds nothing; 0 is a probe too (its text is "0").
    # - The result is safe_encode_string(str(sum)). The revision number is not hashed.
    raise NotImplementedError("exercise: write hash_controller_revision")
