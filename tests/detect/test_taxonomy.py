"""The bundled taxonomy loads, and every category detection can propose is in it."""

import pytest
import yaml

from redactdesk.resources import load_taxonomy, resource

REQUIRED = ("PERSON ORGANIZATION ADDRESS CITY COUNTRY POSTCODE DATE DATE_OF_BIRTH MONTH PHONE EMAIL URL USERNAME "
            "PASSWORD CREDIT_CARD CARD_EXPIRY CVV BANK_ACCOUNT IBAN ROUTING SSN ES_ID PASSPORT IP_ADDRESS "
            "GENERIC_ID PRODUCT MONEY AGE SPELLED_LETTERS").split()


def test_taxonomy_loads_with_risk_scores_and_styles():
    tax = load_taxonomy()
    assert set(REQUIRED) <= set(tax.ids())
    for cat in tax:
        assert 0 <= cat.risk <= 5
        assert cat.identifier in ("direct", "quasi")
        assert cat.colour.startswith("#") and len(cat.colour) == 7
        assert cat.substitution and cat.label
    assert tax.get("PERSON").risk == 5 and tax.partial_score("PERSON") == 3  # names round up (seed 002)
    assert tax.partial_score("EMAIL") == 1
    assert sorted(tax.keys) == list(range(1, 10))


def test_detection_categories_are_in_the_taxonomy():
    from redactdesk.detect.registry import get_source, source_names

    ids = set(load_taxonomy().ids())
    for name in source_names():
        assert get_source(name).categories <= ids, name


def test_bad_taxonomy_file(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump({"version": 1}), encoding="utf-8")
    with pytest.raises(ValueError, match="no 'categories'"):
        load_taxonomy(str(p))
    p.write_text(yaml.safe_dump({"categories": [{"id": "A"}, {"id": "A"}]}), encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate"):
        load_taxonomy(str(p))
    assert resource("taxonomy.yaml").exists()
