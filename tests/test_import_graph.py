"""The import graph: no circle joins modules of different packages, and no registry is in a circle
with what it lists (issue 22). lint-imports keeps the layers; this keeps what a layer map cannot see."""

import importlib

import grimp
import pytest


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("redactdesk", cache_dir=None)


def _package(graph, module):
    return module if graph.find_children(module) else module.rpartition(".")[0]


def test_no_import_circle_joins_modules_of_different_packages(graph):
    circles = set()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            if _package(graph, importer) != _package(graph, imported):
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is not None:
                    circles.add(" -> ".join((importer, *back)))
    assert sorted(circles) == []


@pytest.mark.parametrize("protocol, catalogue", [
    ("redactdesk.asr.base", "redactdesk.asr.backends"),
    ("redactdesk.audio.base", "redactdesk.audio.registry"),
    ("redactdesk.detect.sources", "redactdesk.detect.registry"),
])
def test_a_registry_is_in_no_circle_and_its_protocol_knows_no_implementation(graph, protocol, catalogue):
    for module in (protocol, catalogue):
        circle = [m for m in graph.find_modules_directly_imported_by(module)
                  if graph.find_shortest_chain(importer=m, imported=module) is not None]
        assert circle == [], module
    implementations = {entry[0] for entry in importlib.import_module(catalogue).BUILTIN.values()}
    assert implementations and (implementations | {catalogue}).isdisjoint(graph.find_upstream_modules(protocol))
