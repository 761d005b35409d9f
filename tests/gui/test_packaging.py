"""Packaging files are well-formed and point at things that exist."""

from __future__ import annotations

import configparser
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "packaging"


def test_desktop_entry_has_the_required_keys():
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(PKG / "org.redactdesk.RedactDesk.desktop", encoding="utf-8")
    entry = cp["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Exec"].startswith("redactdesk gui")
    assert entry["Icon"] == "org.redactdesk.RedactDesk"
    assert "application/x-redactdesk-project" in entry["MimeType"]


def test_metadata_and_mime_files_are_valid_xml():
    meta = ET.parse(PKG / "org.redactdesk.RedactDesk.metainfo.xml").getroot()
    assert meta.findtext("id") == "org.redactdesk.RedactDesk"
    assert meta.find("launchable").text == "org.redactdesk.RedactDesk.desktop"
    mime = ET.parse(PKG / "redactdesk-mime.xml").getroot()
    ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
    assert mime.find(f"{ns}mime-type/{ns}glob").get("pattern") == "*.rdproj"


def test_spec_compiles_and_names_existing_files():
    source = (PKG / "redactdesk.spec").read_text(encoding="utf-8")
    compile(source, "redactdesk.spec", "exec")
    for name in ("redactdesk_entry.py", "redactdesk.svg", "redactdesk-256.png"):
        assert name in source and (PKG / name).exists()
    assert (ROOT / "resources" / "taxonomy.yaml").exists()


def test_app_id_matches_the_desktop_file():
    from redactdesk.gui.app import APP_ID

    assert (PKG / f"{APP_ID}.desktop").exists()
