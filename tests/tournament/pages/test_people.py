"""People by the site's own pages: invitations by link, roles, passwords."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import TeamFactory, UserFactory
from tournament.models import Invitation, Membership

pytestmark = pytest.mark.django_db
PEOPLE = "/t/spring-open/people/"
STRONG = "Kerala-Cards-2026"


@pytest.fixture
def desk(organizer, sections):
    client = Client()
    client.force_login(organizer)
    return client


def invite(desk, **fields) -> str:
    """Make an invitation on the people page; the link it shows once."""
    body = {"action": "invite", "invite-role": "scorer", "invite-days": 7}
    body |= {f"invite-{k}": v for k, v in fields.items()}
    answer = desk.post(PEOPLE, body, follow=True)
    page = answer.content.decode()
    assert "The invitation is made" in page, page
    link = re.search(r'id="new-link"[^>]*value="([^"]+)"', page)
    assert link, page
    return link.group(1)


def test_a_new_scorer_accepts_by_choosing_a_login(
    desk, tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        link = invite(desk, name="Bindu", email="bindu@example.org")
    assert link.startswith("http://testserver/invitations/")
    # The link is shown once: the next visit no longer has it.
    assert link not in desk.get(PEOPLE).content.decode()
    assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    stored = Invitation.objects.get()
    assert link.rsplit("/", 2)[1] not in stored.key_digest  # only a digest is kept

    path = link.removeprefix("http://testserver")
    stranger = Client()
    page = stranger.get(path).content.decode()
    assert "Spring Open" in page and "scorer" in page
    refused = stranger.post(
        path, {"username": "bindu", "password": STRONG, "password_again": "other"}
    )
    assert refused.status_code == 400
    assert "The two passwords differ." in refused.content.decode()
    assert not get_user_model().objects.filter(username="bindu").exists()

    accepted = stranger.post(
        path,
        {"username": "bindu", "password": STRONG, "password_again": STRONG},
        follow=True,
    )
    assert "Welcome: you are a scorer of Spring Open now." in accepted.content.decode()
    user = get_user_model().objects.get(username="bindu")
    assert user.check_password(STRONG)
    assert Membership.objects.filter(user=user, role="scorer").exists()
    assert accepted.wsgi_request.user == user  # signed in at once
    # Once only: a second opening says so and gives nothing.
    again = Client().get(path)
    assert again.status_code == 410
    assert "accepted already" in again.content.decode()
    listed = desk.get(PEOPLE).content.decode()
    assert "accepted" in listed and "bindu" in listed


def test_an_existing_user_accepts_a_captaincy_with_the_own_account(desk, team):
    link = invite(desk, role="captain", team=team.pk)
    jose = UserFactory(username="jose")
    client = Client()
    client.force_login(jose)
    path = link.removeprefix("http://testserver")
    assert "Accept as jose" in client.get(path).content.decode()
    client.post(path)
    membership = Membership.objects.get(user=jose)
    assert (membership.role, membership.team) == ("captain", team)


def test_a_captaincy_names_a_team_without_a_captain(desk, team, captain):
    page = desk.post(
        PEOPLE, {"action": "invite", "invite-role": "captain", "invite-days": 7}
    ).content.decode()
    assert "a captain&#x27;s role names the team" in page
    page = desk.post(
        PEOPLE,
        {
            "action": "invite",
            "invite-role": "captain",
            "invite-team": team.pk,
            "invite-days": 7,
        },
    ).content.decode()
    assert "Edison Aces has a captain already" in page
    assert not Invitation.objects.exists()


def test_a_withdrawn_or_expired_invitation_gives_nothing(desk, sections):
    withdrawn = invite(desk).removeprefix("http://testserver")
    desk.post(
        PEOPLE, {"action": "withdraw", "row": Invitation.objects.get().pk}, follow=True
    )
    answer = Client().post(
        withdrawn, {"username": "x1", "password": STRONG, "password_again": STRONG}
    )
    assert answer.status_code == 410 and "withdrew" in answer.content.decode()

    expired = invite(desk, days=1).removeprefix("http://testserver")
    Invitation.objects.filter(withdrawn_at__isnull=True).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    answer = Client().post(
        expired, {"username": "x2", "password": STRONG, "password_again": STRONG}
    )
    assert answer.status_code == 410 and "expired" in answer.content.decode()
    assert Client().get("/invitations/not-a-key/").status_code == 404
    assert not get_user_model().objects.filter(username__in=["x1", "x2"]).exists()


def test_a_weak_password_or_taken_username_is_refused_naming_the_field(desk, organizer):
    path = invite(desk).removeprefix("http://testserver")
    weak = Client().post(
        path, {"username": "newbie", "password": "123", "password_again": "123"}
    )
    assert weak.status_code == 400 and "too short" in weak.content.decode()
    taken = Client().post(
        path, {"username": "ORG", "password": STRONG, "password_again": STRONG}
    )
    assert "the username ORG is taken" in taken.content.decode()
    assert Invitation.objects.get().accepted_at is None


def test_roles_are_given_by_username_and_removed(desk, sections):
    UserFactory(username="anil")
    page = desk.post(
        PEOPLE,
        {"action": "role", "role-username": "anil", "role-role": "scorer"},
        follow=True,
    ).content.decode()
    assert "anil has the role Scorer now." in page
    membership = Membership.objects.get(user__username="anil")
    page = desk.post(
        PEOPLE, {"action": "remove", "row": membership.pk}, follow=True
    ).content.decode()
    assert "anil no longer has the role Scorer." in page
    # A new username needs an invitation: the page never takes a password.
    page = desk.post(
        PEOPLE, {"action": "role", "role-username": "nobody", "role-role": "scorer"}
    ).content.decode()
    assert "there is no user nobody" in page


def test_the_last_organizer_stays(desk, organizer):
    own = Membership.objects.get(user=organizer)
    page = desk.post(PEOPLE, {"action": "remove", "row": own.pk}, follow=True)
    assert "keeps at least one organizer" in page.content.decode()
    assert Membership.objects.filter(pk=own.pk).exists()


@pytest.mark.parametrize(
    "body",
    [
        {"action": "remove", "row": "abc"},
        {"action": "withdraw", "row": "-1"},
        {"action": "unknown", "row": "1"},
    ],
)
def test_bad_buttons_change_nothing(desk, body):
    page = desk.post(PEOPLE, body, follow=True).content.decode()
    assert "Choose" in page
    assert Membership.objects.count() == 1


def test_only_organizers_see_the_people(client, scorer, tournament):
    client.force_login(scorer)
    assert client.get(PEOPLE).status_code == 403


def test_everyone_changes_the_own_password(scorer):
    scorer.set_password("pw-for-tests-56")
    scorer.save()
    client = Client()
    client.force_login(scorer)
    answer = client.post(
        "/accounts/password/",
        {
            "old_password": "pw-for-tests-56",
            "new_password1": STRONG,
            "new_password2": STRONG,
        },
        follow=True,
    )
    assert "Password changed" in answer.content.decode()
    scorer.refresh_from_db()
    assert scorer.check_password(STRONG)


def test_a_forgotten_password_is_reset_by_mail(scorer):
    scorer.email = "scorer@example.org"
    scorer.save()
    client = Client()
    client.post("/accounts/password/reset/", {"email": "scorer@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(
        r"http://testserver(/accounts/password/reset/\S+)", mail.outbox[0].body
    )
    assert link
    form = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": STRONG, "new_password2": STRONG},
        follow=True,
    )
    assert "Password saved" in done.content.decode()
    scorer.refresh_from_db()
    assert scorer.check_password(STRONG)


def test_a_team_of_another_tournament_cannot_be_named(desk, tournament):
    other = TeamFactory(name="Far Away")
    assert other.tournament != tournament
    answer = desk.post(
        PEOPLE,
        {
            "action": "invite",
            "invite-role": "captain",
            "invite-team": other.pk,
            "invite-days": 7,
        },
    )
    assert answer.status_code == 400
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_the_invitation_mail_names_the_tournaments_zone(
    organizer, tournament, language, django_capture_on_commit_callbacks
):
    tournament.time_zone = "Asia/Kolkata"
    tournament.save(update_fields=["time_zone"])
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(organizer)
    body = {"action": "invite", "invite-role": "scorer", "invite-days": 7}
    body |= {"invite-email": "bindu@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        desk.post(PEOPLE, body, follow=True)
    (sent,) = mail.outbox
    assert re.search(
        r"before \d\d \w\w\w \d{4} \d\d:\d\d IST \(Asia/Kolkata\):", sent.body
    )


# Words (issue 41, words 3): a role is one label, capitalised, on the People tab and
# in the invitation form; the welcome is a sentence for each role.


@pytest.mark.parametrize(
    ("language", "organizer_word", "scorer_word"),
    [("en", "Organizer", "Scorer"), ("ml", "സംഘാടകൻ", "സ്കോറർ")],
)
def test_the_people_tab_labels_roles_as_its_form_does(
    organizer, tournament, sections, language, organizer_word, scorer_word
):
    from tests.factories import member
    from tournament.domain.types import Role

    member(tournament, Role.SCORER, "suja")
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(organizer)
    page = desk.get(PEOPLE).content.decode()
    roles = re.search(r'aria-labelledby="roles-heading">.*?</table>', page, re.S)
    cells = re.findall(r"<tr><td>[^<]+</td><td>([^<]*)</td>", roles.group(0))
    assert organizer_word in cells and scorer_word in cells
    assert "organizer" not in cells and "scorer" not in cells
    form = re.search(r'<select name="invite-role"[^>]*>.*?</select>', page, re.S)
    offered = re.findall(r"<option [^>]*>([^<]+)</option>", form.group(0))
    assert organizer_word in offered and scorer_word in offered
    assert "Co-organizer" not in offered


@pytest.mark.parametrize(
    ("language", "role", "said"),
    [
        ("en", "organizer", "Welcome: you are an organizer of Spring Open now."),
        ("en", "scorer", "Welcome: you are a scorer of Spring Open now."),
        ("en", "captain", "Welcome: you are the captain of Kochi in Spring Open now."),
        ("ml", "organizer", "സ്വാഗതം: നിങ്ങൾ ഇപ്പോൾ Spring Open-ന്റെ ഒരു സംഘാടകനാണ്."),
        ("ml", "scorer", "സ്വാഗതം: നിങ്ങൾ ഇപ്പോൾ Spring Open-ന്റെ ഒരു സ്കോററാണ്."),
        (
            "ml",
            "captain",
            "സ്വാഗതം: നിങ്ങൾ ഇപ്പോൾ Spring Open-ൽ Kochi-ന്റെ ക്യാപ്റ്റനാണ്.",
        ),
    ],
)
def test_the_welcome_says_the_role_in_a_sentence(
    organizer, tournament, sections, language, role, said
):
    from tournament.accounts.services import invitation_create

    team = (
        TeamFactory(section=sections["tri"], name="Kochi")
        if role == "captain"
        else None
    )
    made = invitation_create(
        tournament=tournament, user=organizer, role=role, team=team
    )
    accepted = Client(HTTP_ACCEPT_LANGUAGE=language).post(
        f"/invitations/{made.key}/",
        {"username": f"new-{role}", "password": STRONG, "password_again": STRONG},
        follow=True,
    )
    assert said in accepted.content.decode()


def test_a_role_given_is_said_by_its_label_in_malayalam(organizer, sections):
    UserFactory(username="anil")
    desk = Client(HTTP_ACCEPT_LANGUAGE="ml")
    desk.force_login(organizer)
    page = desk.post(
        PEOPLE,
        {"action": "role", "role-username": "anil", "role-role": "organizer"},
        follow=True,
    ).content.decode()
    assert "anil-ന് ഇപ്പോൾ സംഘാടകൻ എന്ന ചുമതലയുണ്ട്." in page


@pytest.mark.parametrize(
    ("language", "too_short", "help_text"),
    [
        (
            "en",
            "This password is too short. It must contain at least 8 characters.",
            "Your password must contain at least 8 characters.",
        ),
        (
            "ml",
            "ഈ പാസ്‌വേഡ് വളരെ ചെറുതാണ്. അതിൽ കുറഞ്ഞത് 8 അക്ഷരങ്ങൾ വേണം.",
            "നിങ്ങളുടെ പാസ്‌വേഡിൽ കുറഞ്ഞത് 8 അക്ഷരങ്ങൾ വേണം.",
        ),
    ],
)
def test_a_too_short_password_is_refused_in_the_pages_language(
    scorer, language, too_short, help_text
):
    """Issue 52: Django's Malayalam has no "too short"; the site's catalogue does, so
    a Malayalam page never refuses a password in English."""
    scorer.set_password("pw-for-tests-56")
    scorer.save()
    client = Client()
    client.force_login(scorer)
    client.cookies["django_language"] = language
    form = client.get("/accounts/password/").content.decode()
    assert help_text in form
    answer = client.post(
        "/accounts/password/",
        {
            "old_password": "pw-for-tests-56",
            "new_password1": "k7#q",
            "new_password2": "k7#q",
        },
    )
    said = answer.content.decode()
    assert too_short in said
    assert language == "en" or "too short" not in said
    scorer.refresh_from_db()
    assert scorer.check_password("pw-for-tests-56")
