"""A language redactdesk has no lexicon for is a user's error: one line, exit 2, no traceback."""

from redactdesk.detect.errors import UnsupportedLanguageError as DetectsUnsupported
from redactdesk.lang.errors import UnsupportedLanguageError


def test_detect_raises_the_same_error_it_always_named():
    assert DetectsUnsupported is UnsupportedLanguageError and issubclass(UnsupportedLanguageError, ValueError)


def test_cli_prints_an_unsupported_language_as_a_user_error(tmp_path, monkeypatch, capsys):
    from redactdesk.cli import commands_project
    from redactdesk.cli.main import main
    from redactdesk.lang.lexicon import load_lexicon

    def list_in_an_unknown_language(args):
        load_lexicon("fr")

    monkeypatch.setattr(commands_project, "cmd_list", list_in_an_unknown_language)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("REDACTDESK_TRACEBACK", raising=False)
    assert main(["list", str(tmp_path / "p.rdproj")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("redactdesk: error: ") and "supported: en, es" in err and "Traceback" not in err
