"""The rules-coverage pages ``docs/rules/GAME.md`` are true: generated from the catalogues and the tests.

Every rule of each game's ``engine/GAME/rulebook.toml`` has at least one test marked
``@pytest.mark.rule(GAME, ID)``, every such marker names a rule of the catalogue, every ``code``
entry resolves, the in-game help links only existing rules, and the page on disk is the rendering
(``saloon rules GAME`` rewrites it).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from saloon import rules_doc
from saloon.cli import main

GAMES = rules_doc.GAMES
MARKERS = rules_doc.find_markers()


@pytest.fixture(scope="module", params=GAMES)
def catalogue(request) -> rules_doc.Catalogue:
    return rules_doc.load_catalogue(request.param)


def test_every_game_has_a_catalogue():
    assert set(GAMES) == {p.parent.name for p in (rules_doc.ROOT / "engine").glob("*/game.py")}


def test_the_page_on_disk_is_the_rendering(catalogue):
    page = rules_doc.page_path(catalogue.game)
    assert page.is_file(), f"run `saloon rules {catalogue.game}`"
    assert page.read_text(encoding="utf-8") == rules_doc.render(catalogue, MARKERS), (
        f"{page} is stale: run `saloon rules {catalogue.game}`"
    )


def test_every_rule_has_a_test(catalogue):
    tested = {m.rule for m in MARKERS if m.game == catalogue.game}
    untested = [rule.id for rule in catalogue.rule if rule.id not in tested]
    assert not untested, f"{catalogue.game}: rules without a test: {untested}"


def test_every_marker_names_a_rule_of_the_catalogue(catalogue):
    ids = {rule.id for rule in catalogue.rule}
    unknown = [f"{m.test}: {m.rule}" for m in MARKERS if m.game == catalogue.game and m.rule not in ids]
    assert not unknown, f"{catalogue.game}: markers naming no rule: {unknown}"


def test_every_marker_names_a_game():
    assert {m.game for m in MARKERS} <= set(GAMES)


def test_every_code_entry_resolves(catalogue):
    for rule in catalogue.rule:
        assert rule.code or rule.kind != "rule", f"{catalogue.game}: {rule.id} names no code"
        for entry in rule.code:
            rules_doc.resolve(entry)  # raises ValueError naming the entry


def test_every_rule_id_in_the_help_exists(catalogue):
    ids = {rule.id for rule in catalogue.rule}
    linked = rules_doc.help_rule_ids(catalogue.game)
    assert linked, f"engine/{catalogue.game}/help.md links no rule"
    assert not [rule_id for rule_id in linked if rule_id not in ids]


def test_check_passes_for_every_game():
    for game in GAMES:
        assert rules_doc.check(game, markers=MARKERS) == []


def _fake_checkout(tmp_path: Path, test_source: str) -> Path:
    """A minimal checkout with one game's catalogue, help and one test file."""
    game_dir = tmp_path / "engine" / "deadwood1876"
    game_dir.mkdir(parents=True)
    (game_dir / "rulebook.toml").write_text(
        textwrap.dedent(
            """\
            game = "deadwood1876"
            title = "Deadwood 1876"
            rulebook = "deadwood1876.en.txt"

            [[rule]]
            id = "setup.deal"
            section = "SET UP 3"
            quote = "deal four face down to each player"
            code = ["engine.deadwood1876.rules.setup:set_up"]

            [[rule]]
            id = "turn.order"
            section = "HOW TO PLAY"
            quote = "Proceed clockwise."
            code = ["engine.deadwood1876.rules.turn:end_turn"]
            kind = "decision"
            reason = "because"
            """
        )
    )
    (game_dir / "help.md").write_text("Deal four. [rule: setup.deal]\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_fake.py").write_text(textwrap.dedent(test_source))
    return tmp_path


def test_markers_are_read_from_decorators_pytestmark_and_classes(tmp_path):
    root = _fake_checkout(
        tmp_path,
        """\
        import pytest
        from pytest import mark

        pytestmark = [pytest.mark.slow, pytest.mark.rule("deadwood1876", "turn.order")]

        @pytest.mark.parametrize("x", [1])
        @pytest.mark.rule("deadwood1876", "setup.deal")
        @mark.rule("wyatt_earp", "setup.deal")
        def test_one(x):
            pass

        class TestGroup:
            pytestmark = pytest.mark.rule("deadwood1876", "setup.deal")

            def test_two(self):
                pass

        def helper():
            pass
        """,
    )
    found = {(m.game, m.rule, m.test) for m in rules_doc.find_markers(root)}
    assert found == {
        ("deadwood1876", "turn.order", "test_fake.py::test_one"),
        ("deadwood1876", "setup.deal", "test_fake.py::test_one"),
        ("wyatt_earp", "setup.deal", "test_fake.py::test_one"),
        ("deadwood1876", "turn.order", "test_fake.py::TestGroup::test_two"),
        ("deadwood1876", "setup.deal", "test_fake.py::TestGroup::test_two"),
    }


def test_a_marker_without_literal_arguments_is_an_error(tmp_path):
    root = _fake_checkout(
        tmp_path,
        """\
        import pytest
        GAME = "deadwood1876"

        @pytest.mark.rule(GAME, "setup.deal")
        def test_one():
            pass
        """,
    )
    with pytest.raises(ValueError, match="two string literals"):
        rules_doc.find_markers(root)


def test_check_reports_untested_rules_unknown_markers_and_a_stale_page(tmp_path):
    root = _fake_checkout(
        tmp_path,
        """\
        import pytest

        @pytest.mark.rule("deadwood1876", "setup.deal")
        @pytest.mark.rule("deadwood1876", "setup.nothing")
        def test_one():
            pass
        """,
    )
    problems = rules_doc.check("deadwood1876", root)
    assert "test_fake.py::test_one: marks unknown rule deadwood1876:setup.nothing" in problems
    assert "deadwood1876: rule turn.order has no test" in problems
    assert any("is stale" in p for p in problems)
    cat = rules_doc.load_catalogue("deadwood1876", root)
    page = rules_doc.page_path("deadwood1876", root)
    page.parent.mkdir(parents=True)
    page.write_text(rules_doc.render(cat, rules_doc.find_markers(root)))
    assert not any("is stale" in p for p in rules_doc.check("deadwood1876", root))


def test_render_lists_rules_in_catalogue_order_with_tests_and_a_summary(tmp_path):
    root = _fake_checkout(
        tmp_path,
        """\
        import pytest

        @pytest.mark.rule("deadwood1876", "setup.deal")
        def test_one():
            pass
        """,
    )
    page = rules_doc.render(rules_doc.load_catalogue("deadwood1876", root), rules_doc.find_markers(root))
    assert "**2 entries: 1 rule, 1 decision, 0 data assumptions; 1 without a test.**" in page
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows[0].startswith("| `setup.deal` | SET UP 3 |") and "`test_fake.py::test_one`" in rows[0]
    assert rows[1].startswith("| `turn.order` |") and "**none**" in rows[1] and "decision: because" in rows[1]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('id = "Setup"', "bad rule id"),
        ('id = "setup.deal"\nkind = "decision"', "needs a reason"),
        ('id = "setup.deal"\nkind = "data"\nreason = "assumed"', "NOTES.md"),
    ],
)
def test_a_bad_catalogue_is_refused(tmp_path, text, error):
    game_dir = tmp_path / "engine" / "deadwood1876"
    game_dir.mkdir(parents=True)
    (game_dir / "rulebook.toml").write_text(
        f'game = "deadwood1876"\ntitle = "T"\nrulebook = "r"\n\n[[rule]]\n{text}\nsection = "S"\nquote = "Q"\n'
    )
    with pytest.raises(ValueError, match=error):
        rules_doc.load_catalogue("deadwood1876", tmp_path)


def test_resolve_names_module_and_attribute():
    assert rules_doc.resolve("saloon.rules_doc:Catalogue") is rules_doc.Catalogue
    for bad in ("saloon.rules_doc", "saloon.rules_doc:nothing", "saloon.nothing:render"):
        with pytest.raises(ValueError):
            rules_doc.resolve(bad)


def test_cli_rules_check(capsys):
    assert main(["rules", "--check", *GAMES]) == 0
    assert main(["rules", "no_such_game"]) == 2
    assert "no_such_game" in capsys.readouterr().err
