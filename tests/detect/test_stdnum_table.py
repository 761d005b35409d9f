"""The bundled table of python-stdnum's formats: what the probes find, read instead of probing."""

import json
import subprocess
import sys

from redactdesk.detect import stdnum_catalog as sc


def test_the_bundled_table_is_what_the_probes_find_for_the_pinned_stdnum():
    """A new python-stdnum, or a change to the probes, and the table must be written again
    (``python -m redactdesk.detect.stdnum_catalog --write``)."""
    rows = sc.bundled_formats()
    assert rows is not None, "no bundled table for the installed python-stdnum"
    assert rows == sc.probe_formats()


def test_the_catalog_reads_the_table_and_imports_a_module_only_when_tried():
    code = ("import sys; from redactdesk.detect import stdnum_catalog as sc\n"
            "sc.probe_formats = None\n"  # a catalog that probed would fail here
            "cat = sc.catalog(); assert len(cat.formats) > 150\n"
            "assert 'stdnum.pl.pesel' not in sys.modules\n"
            "(f,) = [f for f in sc.formats_for('44051401359') if f.name == 'pl.pesel']\n"
            "assert f.is_valid('44051401359') and 'stdnum.pl.pesel' in sys.modules\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_a_table_of_another_stdnum_or_damaged_is_not_read(tmp_path):
    good = json.loads(sc.table_path().read_text(encoding="utf-8"))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**good, "stdnum": "0.1"}), encoding="utf-8")
    assert sc.bundled_formats(other) is None
    older = tmp_path / "older.json"
    older.write_text(json.dumps({**good, "table_version": sc.TABLE_VERSION - 1}), encoding="utf-8")
    assert sc.bundled_formats(older) is None
    cut = tmp_path / "cut.json"
    cut.write_text(sc.table_path().read_text(encoding="utf-8")[:5000], encoding="utf-8")
    assert sc.bundled_formats(cut) is None
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({**good, "formats": [{**good["formats"][0], "digit": ["8"]}]}), encoding="utf-8")
    assert sc.bundled_formats(odd) is None
    assert sc.bundled_formats(tmp_path / "missing.json") is None
    assert sc.bundled_formats(sc.table_path()) == good["formats"]


def test_a_module_that_cannot_be_imported_validates_nothing():
    f = sc.IdFormat("xx.gone", "Gone (a removed format)", "NATIONAL_ID", "stdnum.xx_not_there",
                    frozenset({8}), frozenset(), frozenset())
    assert f.is_valid("12345678") is False and f.formatted("12345678") is None
