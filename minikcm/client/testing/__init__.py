"""Port of k8s.io/client-go/testing: actions, the Fake and its reactors.

What a test puts in front of a clientset's transport to record its calls
(actions.py) and steer their answers (fake.py's reactor chain, fixture.py's
reactors and object tracker). Imported as a unit, as Go tests import
`k8s.io/client-go/testing`.
"""

from minikcm.client.testing.actions import (
    Action,
    CreateAction,
    DeleteAction,
    DeleteCollectionAction,
    GetAction,
    ListAction,
    ListRestrictions,
    PatchAction,
    UpdateAction,
    WatchAction,
    WatchRestrictions,
    extract_from_list_options,
    new_create_action,
    new_delete_action,
    new_delete_collection_action,
    new_get_action,
    new_get_subresource_action,
    new_list_action,
    new_patch_action,
    new_patch_subresource_action,
    new_update_action,
    new_update_subresource_action,
    new_watch_action,
)
from minikcm.client.testing.fake import (
    Fake,
    ReactionFunc,
    Reactor,
    ReactorTransport,
    WatchReactionFunc,
    WatchReactor,
)
from minikcm.client.testing.fixture import (
    SimpleReactor,
    SimpleWatchReactor,
    add_objects,
    default_watch_reactor,
    ensure_namespace,
    resource_covers,
)

__all__ = [
    "Action",
    "CreateAction",
    "DeleteAction",
    "DeleteCollectionAction",
    "Fake",
    "GetAction",
    "ListAction",
    "ListRestrictions",
    "PatchAction",
    "ReactionFunc",
    "Reactor",
    "ReactorTransport",
    "SimpleReactor",
    "SimpleWatchReactor",
    "UpdateAction",
    "WatchAction",
    "WatchReactionFunc",
    "WatchReactor",
    "WatchRestrictions",
    "add_objects",
    "default_watch_reactor",
    "ensure_namespace",
    "extract_from_list_options",
    "new_create_action",
    "new_delete_action",
    "new_delete_collection_action",
    "new_get_action",
    "new_get_subresource_action",
    "new_list_action",
    "new_patch_action",
    "new_patch_subresource_action",
    "new_update_action",
    "new_update_subresource_action",
    "new_watch_action",
    "resource_covers",
]
