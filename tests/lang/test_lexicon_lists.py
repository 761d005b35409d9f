"""The detection lexicons' word lists hold words: YAML reads an unquoted "on", "off", "yes" or "no" as a
boolean, and the word then silently left its list ("on" was missing from ``name_lead_words``, so "olive
garden on" stayed an organisation's last word)."""

from pathlib import Path

import pytest
import yaml

_RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "detect"
_FLAGS = {"month_abbreviations"}  # a setting, true or false by design


def _booleans(node, path):
    if isinstance(node, bool):
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, bool):
                yield f"{path}/<key {key}>"
            elif key not in _FLAGS:
                yield from _booleans(value, f"{path}/{key}")
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from _booleans(value, f"{path}[{k}]")


@pytest.mark.parametrize("name", ["lexicon_en.yaml", "lexicon_es.yaml", "structures.yaml"])
def test_no_word_of_a_list_is_read_as_a_boolean(name):
    with (_RESOURCES / name).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert list(_booleans(data, name)) == []

