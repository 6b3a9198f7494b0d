"""A refusal's words (tournament/domain/errors.py): English for the API, and the
marked template with its values for a page to translate (tournament/words.py)."""

from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.errors import RuleError, Words, filled, marked, marked_plural


def test_marked_words_keep_their_template_and_say_their_english():
    error = RuleError(
        "value_out_of_range",
        marked("a contract is %(least)s to %(most)s; %(value)s cannot be bid."),
        field="value",
        value=60,
        least=28,
        most=56,
    )
    assert error.message == "a contract is 28 to 56; 60 cannot be bid."
    assert error.template.startswith("a contract is %(least)s")
    assert error.params == {"value": 60, "least": 28, "most": 56}


def test_values_only_the_sentence_needs_stay_out_of_the_parameters():
    """filled() fills some holes and leaves the rest, in their own conversion, for
    the error's parameters: the API's parameters are not crowded with phrases."""
    error = RuleError(
        "x",
        filled(marked("a %(one)s b %(two)r c %(three)s"), one=1),
        two="t",
        three=3,
    )
    assert error.message == "a 1 b 't' c 3"
    assert error.params == {"two": "t", "three": 3}
    assert error.fills == {"one": 1}


def test_a_refusal_named_on_another_field_keeps_its_words_and_values():
    error = RuleError(
        "x",
        filled(marked("%(field)s: %(one)s and %(two)s"), one="a"),
        field="state",
        two="b",
    )
    moved = error.at("captain.state")
    assert moved.message == "captain.state: a and b"
    assert (moved.template, moved.fills, moved.params) == (
        error.template,
        {"one": "a"},
        {"two": "b"},
    )
    plain = RuleError("y", "as it is", field="name").at("team.name")
    assert (plain.message, plain.field, plain.template) == (
        "as it is",
        "team.name",
        None,
    )


def test_a_phrase_inside_a_refusal_is_words_too():
    phrase = filled(marked("%(count)s teams"), count=5)
    error = RuleError("x", marked("move %(excess)s"), excess=phrase)
    assert error.message == "move 5 teams"
    assert isinstance(error.params["excess"], Words)
    assert error.params["excess"].template == "%(count)s teams"


def test_plain_words_are_said_as_they_are():
    error = RuleError("x", "100% plain, %(not)s a template")
    assert error.message == "100% plain, %(not)s a template"
    assert error.template is None and error.words == error.message


@given(st.text(alphabet=st.characters(blacklist_characters="%"), max_size=40))
def test_any_text_marked_is_its_own_english(text):
    assert marked(text) == text == RuleError("x", marked(text)).message


@given(st.integers(min_value=0, max_value=10_000))
def test_words_that_change_with_a_number_say_its_english_form(rows):
    """marked_plural (pure): the English form for the number, both forms kept for a
    page to say in its own language; moved to another field, they stay."""
    error = RuleError(
        "import_refused",
        marked_plural(
            "%(rows)s row is wrong; no team was created",
            "%(rows)s rows are wrong; no team was created",
            rows,
        ),
        rows=rows,
    )
    word = "row is" if rows == 1 else "rows are"
    assert error.message == f"{rows} {word} wrong; no team was created"
    assert error.plural is not None and error.plural[2] == rows
    moved = error.at("file")
    assert (moved.message, moved.plural, moved.field) == (
        error.message,
        error.plural,
        "file",
    )


def test_a_page_says_the_plural_its_language_has(settings):
    from django.utils import translation

    from tournament.words import refusal

    for rows, english, malayalam in (
        (1, "1 row is wrong", "1 വരി തെറ്റാണ്"),
        (3, "3 rows are wrong", "3 വരികൾ തെറ്റാണ്"),
    ):
        error = RuleError(
            "import_refused",
            marked_plural(
                "%(rows)s row is wrong; no team was created",
                "%(rows)s rows are wrong; no team was created",
                rows,
            ),
            rows=rows,
        )
        with translation.override("en"):
            assert refusal(error).startswith(english)
        with translation.override("ml"):
            assert refusal(error).startswith(malayalam)
