"""Exercise p5/get_parent_name_and_ordinal: write get_parent_name_and_ordinal (minikcm.controller.statefulset.stateful_set_utils).

Go twin: getParentNameAndOrdinal in pkg/controller/statefulset/stateful_set_utils.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

The checker sets your function in place of the port's
`get_parent_name_and_ordinal` for the duration of the check. Everything the
StatefulSet controller knows about a pod's place in its set goes through it:
get_ordinal (which member is this? which are condemned?), get_parent_name,
is_member_of and identity_matches. Then it runs a table of pod names, then
the statefulset-ordered scenario, where the controller must create web-0 to
web-4 in order and delete web-4, web-3, web-2 in that order.
"""

from __future__ import annotations

from kubernetes.client import V1Pod

from minikcm.controller.statefulset.stateful_set_utils import STATEFUL_POD_REGEX, _name


def get_parent_name_and_ordinal(pod: V1Pod) -> tuple[str, int]:
    """Port of getParentNameAndOrdinal: ("web", 3) for pod "web-3"; ("", -1) when the name has no ordinal.

    An ordinal too large for int32 gives the parent with ordinal -1, as Go.
    """
    # Hints:
    # - The pod's name is _name(pod). A member is named `<parent>-<ordinal>`, and the
    #   parent may itself contain dashes (`my-web-12` is member 12 of `my-web`).
    # - STATEFUL_POD_REGEX is `(.*)-([0-9]+)$`; STATEFUL_POD_REGEX.search(name) gives the
    #   parent as group(1) and the digits as group(2) (or write your own split).
    # - No match: ("", -1). Digits that do not fit a signed 32-bit int (2**31 and up):
    #   the parent, with ordinal -1.
    raise NotImplementedError("exercise: write get_parent_name_and_ordinal")
