"""The site's people on its own pages (issue 41): its administrators invite tournament
creators and administrators by a one-time link, and withdraw that; whoever may create
a tournament is offered "New tournament" on the home page, and nobody else is."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import member
from tournament.accounts.selectors import site_role_of
from tournament.accounts.services import site_role_grant
from tournament.domain.types import Role
from tournament.models import Membership, SiteInvitation, Tournament

pytestmark = pytest.mark.django_db
SITE = "/site/"
STRONG = "Kerala-Cards-2026"
NEW = {
    "name": "Onam Cup",
    "slug": "",
    "ruleset": "international",
    "players_per_team": "3",
    "league_rounds": "8",
    "league_deals": "18",
    "qualifiers": "24",
    "substitutions_allowed": "1",
}


@pytest.fixture
def root(db):
    """The first administrator, as production makes it: manage.py createsuperuser."""
    return get_user_model().objects.create_superuser("root", "root@example.org", STRONG)


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def invite(client: Client, expect: str, **fields) -> str:
    """Make an invitation on the site page; the link it shows once."""
    body = {"action": "invite", "invite-role": "creator", "invite-days": 7}
    body |= {f"invite-{k}": v for k, v in fields.items()}
    page = client.post(SITE, body, follow=True).content.decode()
    assert expect in page, page
    link = re.search(r'id="new-link"[^>]*value="([^"]+)"', page)
    assert link, page
    return link.group(1).removeprefix("http://testserver")


def test_an_invited_creator_creates_a_tournament(
    root, tournament, django_capture_on_commit_callbacks
):
    # The co-organizer of the issue: a role in a tournament creates none.
    co = member(tournament, Role.ORGANIZER, "co-org")
    before = signed_in(co)
    assert "New tournament" not in before.get("/").content.decode()
    refused = before.get("/tournaments/new/")
    assert refused.status_code == 403
    assert "a site administrator invites you as one" in refused.content.decode()
    assert 'href="/site/"' not in before.get("/").content.decode()

    admin = signed_in(root)
    assert 'href="/site/"' in admin.get("/").content.decode()  # the header's link
    with django_capture_on_commit_callbacks(execute=True):
        path = invite(
            admin, "The invitation is made", name="Bindu", email="bindu@example.org"
        )
    assert path.startswith("/site/invitations/")
    assert len(mail.outbox) == 1 and path in mail.outbox[0].body
    assert path.rsplit("/", 2)[1] not in SiteInvitation.objects.get().key_digest
    listed = admin.get(SITE).content.decode()
    assert path not in listed  # shown once
    assert "Bindu" in listed and "waiting" in listed

    stranger = Client()
    offer = stranger.get(path).content.decode()
    assert (
        "You may create tournaments on this site, and you become the organizer of "
        "each tournament you create. Invited by root." in offer
    )
    accepted = stranger.post(
        path,
        {"username": "bindu", "password": STRONG, "password_again": STRONG},
        follow=True,
    )
    page = accepted.content.decode()
    assert "Welcome: you may create tournaments now." in page
    assert "New tournament" in page  # the home page offers it
    assert 'href="/site/"' not in page  # a creator administers nothing
    made = stranger.post("/tournaments/new/", NEW, follow=True)
    assert "Onam Cup is created and you are its organizer" in made.content.decode()
    bindu = get_user_model().objects.get(username="bindu")
    assert Membership.objects.filter(
        user=bindu, role="organizer", tournament__slug="onam-cup"
    ).exists()
    # Once only.
    again = Client().get(path)
    assert again.status_code == 410 and "accepted already" in again.content.decode()
    assert "accepted" in admin.get(SITE).content.decode()
    # The co-organizer accepts an administrator's invitation with the own account.
    second = invite(admin, "The invitation is made", role="administrator")
    welcome = before.post(second, follow=True).content.decode()
    assert "you administer the site now" in welcome
    assert site_role_of(co) == "administrator"
    assert before.get("/tournaments/new/").status_code == 200
    assert before.get(SITE).status_code == 200
    assert 'href="/site/"' in before.get("/").content.decode()  # in the header now


def test_the_site_page_in_malayalam(root):
    admin = signed_in(root, "ml")
    page = admin.get(SITE).content.decode()
    assert 'lang="ml"' in page
    for words in (
        "സൈറ്റ് അഡ്മിനിസ്ട്രേഷൻ",
        "ക്രിയേറ്റർമാരും അഡ്മിനിസ്ട്രേറ്റർമാരും",
        "ഒരാളെ ക്ഷണിക്കുക",
        "സൂപ്പർയൂസർ",
    ):
        assert words in page, words
    assert "Creators and administrators" not in page
    path = invite(admin, "ലിങ്ക്", role="administrator", name="Anil")
    listed = admin.get(SITE).content.decode()
    assert "സൈറ്റ് അഡ്മിനിസ്ട്രേറ്റർ" in listed and "Anil" in listed
    stranger = Client(HTTP_ACCEPT_LANGUAGE="ml")
    offer = stranger.get(path).content.decode()
    assert "ഈ ടൂർണമെന്റ് സൈറ്റിന്റെ അഡ്മിനിസ്ട്രേറ്ററായി" in offer
    assert "ക്ഷണിച്ചത്: root." in offer
    welcome = stranger.post(
        path,
        {"username": "anil", "password": STRONG, "password_again": STRONG},
        follow=True,
    ).content.decode()
    assert "സ്വാഗതം: നിങ്ങൾ ഇപ്പോൾ സൈറ്റിന്റെ അഡ്മിനിസ്ട്രേറ്റർ ആണ്" in welcome
    assert "പുതിയ ടൂർണമെന്റ്" in stranger.get("/").content.decode()
    # A refusal in Malayalam: a superuser's standing is not withdrawn here.
    refused = admin.post(
        SITE, {"action": "remove", "row": root.pk}, follow=True
    ).content.decode()
    assert "സൂപ്പർയൂസർ ആണ്" in refused
    # And the creation refusal for someone with no standing.
    nobody = signed_in(get_user_model().objects.create_user("nobody"), "ml")
    assert "ക്രിയേറ്ററായി ക്ഷണിക്കും" in nobody.get("/tournaments/new/").content.decode()


def test_an_administrator_withdraws_invitations_and_standing(root):
    admin = signed_in(root)
    path = invite(admin, "The invitation is made", name="Late")
    invitation = SiteInvitation.objects.get()
    done = admin.post(
        SITE, {"action": "withdraw", "row": invitation.pk}, follow=True
    ).content.decode()
    assert "The invitation is withdrawn" in done
    gone = Client().get(path)
    assert gone.status_code == 410
    assert "A site administrator withdrew this invitation." in gone.content.decode()

    creator = get_user_model().objects.create_user("maker", password=STRONG)
    site_role_grant(user=creator, role="creator")
    theirs = signed_in(creator)
    assert "New tournament" in theirs.get("/").content.decode()
    listed = admin.get(SITE).content.decode()
    assert "maker" in listed and "Tournament creator" in listed
    assert "Withdraw the standing of root" not in listed  # a superuser stays one
    done = admin.post(
        SITE, {"action": "remove", "row": creator.pk}, follow=True
    ).content.decode()
    assert "maker no longer creates tournaments" in done
    assert "New tournament" not in theirs.get("/").content.decode()
    assert theirs.get("/tournaments/new/").status_code == 403
    assert theirs.get("/import/").status_code == 403
    # Nothing else answers to them: the site page is the administrators'.
    assert theirs.get(SITE).status_code == 403


def test_the_site_keeps_an_administrator(db):
    """Without a superuser, the last administrator cannot withdraw the own standing."""
    only = get_user_model().objects.create_user("only", password=STRONG)
    site_role_grant(user=only, role="administrator")
    client = signed_in(only)
    refused = client.post(
        SITE, {"action": "remove", "row": only.pk}, follow=True
    ).content.decode()
    assert "the site keeps at least one administrator" in refused
    assert site_role_of(only) == "administrator"


def test_an_expired_or_unknown_site_link_says_so(root):
    admin = signed_in(root)
    path = invite(admin, "The invitation is made")
    SiteInvitation.objects.update(
        created_at=timezone.now() - timedelta(days=8),
        expires_at=timezone.now() - timedelta(minutes=1),
    )
    expired = Client().post(
        path, {"username": "late", "password": STRONG, "password_again": STRONG}
    )
    assert expired.status_code == 410
    assert "ask a site administrator for a new one" in expired.content.decode()
    # The time it expired names its zone (the site's), as the pages do.
    assert re.search(
        r"expired on \d+ \w+ \d{4} \d\d:\d\d UTC;", expired.content.decode()
    )
    assert not get_user_model().objects.filter(username="late").exists()
    assert Client().get("/site/invitations/not-a-key/").status_code == 404


def test_a_taken_username_or_a_held_standing_is_refused(root):
    admin = signed_in(root)
    path = invite(admin, "The invitation is made")
    refused = Client().post(
        path, {"username": "ROOT", "password": STRONG, "password_again": STRONG}
    )
    assert refused.status_code == 400
    assert "the username ROOT is taken" in refused.content.decode().replace(
        "The username", "the username"
    )
    # A superuser accepting a creator's link: an administrator already.
    answer = admin.post(path, follow=True).content.decode()
    assert "root is a site administrator already" in answer
    assert SiteInvitation.objects.get().accepted_at is None


def test_the_demo_organizer_may_create_tournaments():
    from tournament.demo import demo_load

    demo_load()
    organizer = get_user_model().objects.get(username="organizer")
    client = signed_in(organizer)
    assert "New tournament" in client.get("/").content.decode()
    assert client.get("/tournaments/new/").status_code == 200
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("language", ["en", "ml"])
def test_the_invitation_mail_names_the_zone_of_its_time(
    root, settings, language, django_capture_on_commit_callbacks
):
    # Issue 41 (words 2): "before 03 Dec 2026 09:41" said no zone.
    settings.TIME_ZONE = "America/New_York"
    admin = signed_in(root, language)
    body = {"action": "invite", "invite-role": "creator", "invite-days": 7}
    body |= {"invite-name": "Bindu", "invite-email": "bindu@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        admin.post(SITE, body, follow=True)
    (sent,) = mail.outbox
    expires = SiteInvitation.objects.get().expires_at.astimezone(
        ZoneInfo("America/New_York")
    )
    said = f"{expires:%d %b %Y %H:%M} {expires:%Z} (America/New_York)"
    assert f"before {said}:" in sent.body
    assert re.search(r"before \d\d \w\w\w \d{4} \d\d:\d\d E[SD]T ", sent.body)


def test_a_mail_in_utc_says_utc_once(
    root, settings, django_capture_on_commit_callbacks
):
    settings.TIME_ZONE = "UTC"
    with django_capture_on_commit_callbacks(execute=True):
        invite(signed_in(root), "The invitation is made", email="bindu@example.org")
    (sent,) = mail.outbox
    assert re.search(r"before \d\d \w\w\w \d{4} \d\d:\d\d UTC:", sent.body)
