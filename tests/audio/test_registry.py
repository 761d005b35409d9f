"""The masker catalogue: built-ins by name in a fixed order, plug-ins beside them, readable refusals."""

import numpy as np
import pytest

from redactdesk.audio import MaskError, get_masker, masker_names, register_masker, registry


class _Flat:
    name = "flat"
    description = "a constant level (test plug-in)"

    def available(self):
        return True, "ready"

    def validate(self, params):
        return dict(params or {})

    def prepare(self, source, ranges, params):
        return [None for _ in ranges]

    def apply(self, segment, rng, offset, state, rate):
        return np.full_like(segment, 0.25)


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", {})


def test_builtins_are_listed_first_in_their_order_and_a_plugin_after_them(clean_registry):
    register_masker(_Flat())
    assert masker_names() == ["silence", "beep", "noise", "distort", "voice", "flat"]
    assert get_masker("flat").name == "flat"


def test_a_builtin_is_one_instance_made_on_first_ask(clean_registry):
    assert get_masker("beep") is get_masker("beep")
    assert get_masker("beep").name == "beep"


def test_an_unknown_method_is_refused_with_the_known_ones(clean_registry):
    with pytest.raises(MaskError, match="unknown masking method 'warble'; use one of silence, beep"):
        get_masker("warble")


def test_the_voice_fallback_is_looked_up_in_the_catalogue(clean_registry):
    voice = get_masker("voice")
    if not voice.available()[0]:
        pytest.skip("espeak-ng is not installed")
    register_masker(_Flat())
    params = voice.validate({"fallback": "flat"})
    assert params["fallback"] == "flat" and params["_fallback_params"] == {}
