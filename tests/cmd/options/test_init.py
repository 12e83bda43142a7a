"""The package exports of minikcm.cmd.options."""

import minikcm.cmd.options as package


def test_all_names_exist_once():
    assert len(set(package.__all__)) == len(package.__all__)
    assert all(hasattr(package, name) for name in package.__all__)
