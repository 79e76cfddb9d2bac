"""Built-in detectors arrive through the same entry-point group a plugin uses."""

from __future__ import annotations

from importlib import metadata

from receiptgate.claims.detectors import builtin
from receiptgate.claims.detectors.base import (
    ENTRY_POINT_GROUP,
    DetectorRegistry,
    load_plugin_detectors,
)


def test_when_the_package_is_installed_then_the_builtin_set_is_an_entry_point() -> None:
    eps = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert "builtin" in eps
    assert eps["builtin"].load() is builtin.register_detectors


def test_when_plugins_load_then_every_builtin_detector_is_registered_once() -> None:
    registry = DetectorRegistry()
    load_plugin_detectors(registry)
    ids = registry.ids()
    assert len(ids) == len(set(ids))
    assert {
        "system_state",
        "entity_name",
        "existence",
        "operational_status",
        "capability",
        "self_referential",
        "quantity",
        "action",
        "verification_label",
        "attribution",
    } <= set(ids)
