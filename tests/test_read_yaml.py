"""Bundled YAML read with libyaml's safe loader gives what yaml.safe_load gives, and stays safe."""

import pytest
import yaml

from redactdesk.resources import read_yaml, resources_dir


def test_every_bundled_yaml_reads_as_yaml_safe_load_reads_it():
    files = sorted(resources_dir().rglob("*.yaml"))
    assert len(files) >= 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert read_yaml(text) == yaml.safe_load(text), path.name


def test_a_yaml_that_asks_for_python_objects_is_refused():
    with pytest.raises(yaml.YAMLError):
        read_yaml("!!python/object/apply:os.system ['echo no']")
