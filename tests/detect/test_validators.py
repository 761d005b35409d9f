"""Validators: each one's positives and its checksum (or structure) negatives."""

import pytest

from redactdesk.detect import validators as v


@pytest.mark.parametrize("digits", ["4111111111111111", "5500005555555559", "378282246310005", "6011000990139424"])
def test_card_positive(digits):
    assert v.is_card(digits)


@pytest.mark.parametrize("digits", ["4111111111111112", "411111111111", "41111111111111111111", "41111111x1111111"])
def test_card_negative(digits):
    assert not v.is_card(digits)


def test_iban():
    assert v.is_iban("ES91 2100 0418 4502 0005 1332")
    assert v.is_iban("GB29NWBK60161331926819")
    assert not v.is_iban("ES91 2100 0418 4502 0005 1333")  # check digits fail
    assert not v.is_iban("ES91")


def test_phone_region_aware():
    assert v.phone_check("2125551234", "US") == (True, True)
    assert v.phone_check("612345678", "ES")[0]
    assert not v.phone_check("612345678", "US")[0]
    assert v.phone_check("34612345678", "ES", plus=True)[0]
    assert v.phone_check("123", "US") == (False, False)


def test_ssn_and_routing():
    assert v.is_ssn("123456789")
    assert not v.is_ssn("000456789")  # area 000 is never issued
    assert not v.is_ssn("666456789")
    assert v.is_routing("011000015")
    assert not v.is_routing("011000016")


def test_spanish_ids():
    assert v.es_id_kind("12345678Z") == "DNI"
    assert v.es_id_kind("12345678A") is None  # wrong check letter
    assert v.es_id_kind("X1234567L") == "NIE"
    assert v.es_id_kind("X1234567A") is None
    assert v.es_id_kind("B12345674") == "CIF"
    assert v.es_id_kind("B12345675") is None


def test_ip_and_email():
    assert v.is_ip("192.168.1.1")
    assert not v.is_ip("192.168.1.300")
    assert v.is_email("john.smith@gmail.com")
    assert not v.is_email("john.smith@gmail.zzz")
    assert not v.is_email("john..smith@gmail.com")


def test_expiry_and_dates():
    assert v.parse_expiry(["04", "26"]) == (4, 2026)
    assert v.parse_expiry(["0426"]) == (4, 2026)
    assert v.parse_expiry(["12", "2027"]) == (12, 2027)
    assert v.parse_expiry(["13", "26"]) is None
    assert v.is_date(1985, 2, 28)
    assert not v.is_date(1985, 2, 30)
    assert v.full_year(85) == 1985 and v.full_year(5) == 2005
