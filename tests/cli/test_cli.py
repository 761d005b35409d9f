"""The `redactdesk` command: clear errors and the simulate contract's options reach their parser."""

from redactdesk.cli.main import main


def test_not_a_project_is_a_clear_error(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("hello")
    assert main(["list", str(f)]) == 2
    assert "not a redactdesk project" in capsys.readouterr().err


def test_simulate_takes_its_own_options(tmp_path, capsys):
    # --help of the simulate parser (not the top-level one) proves the options reach it
    try:
        main(["simulate", "--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    assert "--train" in out and "--strategy" in out


def test_init_import_list_round_trip(tmp_path, capsys):
    from redactdesk.resources import samples_dir

    proj = tmp_path / "p.rdproj"
    assert main(["init", str(proj)]) == 0
    sample = samples_dir() / "call_en_1000.flac"
    assert main(["import", str(proj), str(sample), "--transcript", str(sample.with_suffix(".json"))]) == 0
    assert main(["list", str(proj)]) == 0
    out = capsys.readouterr().out
    assert "call_en_1000" in out and "imported call_en_1000: 202 words" in out
