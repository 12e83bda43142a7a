"""The package exports of minikcm.cmd.controller_manager."""

import minikcm.cmd.controller_manager as package


def test_all_names_exist_once():
    assert len(set(package.__all__)) == len(package.__all__)
    assert all(hasattr(package, name) for name in package.__all__)
