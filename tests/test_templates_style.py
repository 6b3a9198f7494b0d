"""The templates' lines are at most 160 characters, so a template can be read without
scrolling sideways. A long line is broken only where the break does not show: between
the attributes of a tag, next to a block element's tag, where a space already stood in
the output (whatever template tags stand between), inside a `{% comment %}`, or
inside the body of a `{% blocktranslate trimmed %}` (trimmed joins its lines with one
space, so a body with no whitespace at its ends keeps its msgid). Never inside a
`{% %}` or `{{ }}` tag: Django reads neither across lines. Tests that read a page's
raw HTML keep some lines whole (an `<option>`'s text, a row they match exactly)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
LIMIT = 160

# Lines that have no such break yet: one long run of inline text or of template tags
# (a sentence in `{% translate %}`, a chain of `{% if %}` in a sentence). Each count
# may only go down: a file listed here gains no new long line, and when its lines are
# shortened the test asks for the count to be lowered.
WAITING = {
    "_languages.html": 1,
    "brackets/_bracket.html": 4,
    "brackets/_season_rows.html": 2,
    "scoring/_day.html": 1,
    "scoring/_desk.html": 5,
    "scoring/_export_job.html": 1,
    "scoring/_link_team_live.html": 3,
    "scoring/_match_live.html": 1,
    "scoring/_rating.html": 1,
    "scoring/_round.html": 1,
    "scoring/_score_app.html": 1,
    "scoring/_scoreboard.html": 7,
    "scoring/_screen.html": 5,
    "scoring/_screen_side.html": 1,
    "scoring/_standings.html": 4,
    "scoring/_team_live.html": 2,
    "scoring/_where.html": 2,
    "scoring/draw.html": 1,
    "scoring/link_cards.html": 1,
    "scoring/link_team.html": 1,
    "scoring/links.html": 1,
    "scoring/matches.html": 1,
    "scoring/person.html": 2,
    "scoring/player.html": 1,
    "scoring/print.html": 1,
    "scoring/standings.html": 1,
    "scoring/statistics.html": 1,
    "scoring/team.html": 3,
    "tournament/_invitation_cells.html": 1,
    "tournament/_knockout_size.html": 1,
    "tournament/detail.html": 2,
    "tournament/import.html": 1,
    "tournament/invitation.html": 1,
    "tournament/registration.html": 5,
    "tournament/settings.html": 2,
    "tournament/site_invitation.html": 1,
    "tournament/teams.html": 2,
}


def _long_lines() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(TEMPLATES.rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(TEMPLATES).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > LIMIT:
                found.setdefault(name, []).append(
                    f"templates/{name}:{number} ({len(line)} characters)"
                )
    return found


def test_no_template_line_is_over_160_characters():
    found = _long_lines()
    over = [
        where
        for name, lines in found.items()
        if len(lines) > WAITING.get(name, 0)
        for where in lines
    ]
    assert not over, "template lines over 160 characters:\n" + "\n".join(over)


def test_the_waiting_list_shrinks_with_the_templates():
    found = _long_lines()
    stale = {
        name: (count, len(found.get(name, [])))
        for name, count in WAITING.items()
        if len(found.get(name, [])) < count
    }
    assert not stale, f"lower WAITING to what is left (listed, left): {stale}"
