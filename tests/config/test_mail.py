"""Mail (issue 51, "Secrets in the log"; tournament/ops/mail.py): production with no
EMAIL_URL sends none and says so in one log line without the mail's body, and its
pages say so too; a password reset and an invitation are mailed by the worker, so
that a request for an address with an account does the same work as one without.
What the log of each real process holds: tests/config/test_logs_processes.py."""

from __future__ import annotations

import logging
import re

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.config.test_settings import PRODUCTION, _manage
from tournament.config.celery import app
from tournament.models import Invitation, PasswordResetRequest
from tournament.ops.mail import NOT_SENT, mail_send
from tournament.web.security import password_reset_mail

RESET = "/accounts/password/reset/"
PEOPLE = "/t/spring-open/people/"


@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({}, "tournament.ops.mail.NotSent"),  # production, no EMAIL_URL
        (
            {"EMAIL_URL": "smtp+tls://u:p@mail.example.org:587"},
            "django.core.mail.backends.smtp.EmailBackend",
        ),
        ({"DJANGO_DEBUG": "true"}, "django.core.mail.backends.console.EmailBackend"),
    ],
)
def test_production_never_prints_mail_on_the_console(env, backend, tmp_path):
    code = "from django.conf import settings as s; print(s.EMAIL_BACKEND)"
    result = _manage(
        "shell",
        "-v",
        "0",
        "-c",
        code,
        env=PRODUCTION | {"FIFTYSIX_VAR_DIR": str(tmp_path)} | env,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [backend]


@pytest.fixture
def no_mail(settings):
    settings.EMAIL_BACKEND = NOT_SENT


@pytest.fixture
def queued(monkeypatch):
    """The calls that queue the mail's tasks, as with a real broker; none runs."""
    calls: list[tuple[str, tuple]] = []
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    for task in (mail_send, password_reset_mail):
        monkeypatch.setattr(
            task,
            "apply_async",
            lambda args, name=task.name, **options: calls.append((name, tuple(args))),
        )
    return calls


@pytest.mark.django_db
def test_with_no_mail_the_reset_page_says_to_ask_an_administrator(
    no_mail, owner, queued
):
    visitor = Client()
    for answer in (
        visitor.get(RESET),
        visitor.post(RESET, {"email": "owner@example.org"}),
    ):
        assert answer.status_code == 200
        page = answer.content.decode()
        assert "This site sends no e-mail" in page
        assert "Ask a site administrator to set a new password for you." in page
        assert 'name="email"' not in page  # no form that would send nothing
    assert not queued and not mail.outbox
    assert not PasswordResetRequest.objects.exists()


@pytest.mark.django_db
def test_with_no_mail_an_invitation_says_its_link_is_to_hand_over(
    no_mail, organizer, sections, queued, caplog, django_capture_on_commit_callbacks
):
    desk = Client()
    desk.force_login(organizer)
    assert "the address is only kept with the invitation" in (
        desk.get(PEOPLE).content.decode()
    )
    body = {"action": "invite", "invite-role": "scorer", "invite-days": 7}
    body |= {"invite-email": "bindu@example.org"}
    with (
        caplog.at_level(logging.WARNING, logger="tournament.ops.mail"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        page = desk.post(PEOPLE, body, follow=True).content.decode()
    assert (
        "This site sends no e-mail: nothing was sent to bindu@example.org; hand the "
        "link over yourself." in page
    )
    link = re.search(r'id="new-link"[^>]*value="([^"]+)"', page).group(1)
    key = link.rstrip("/").rsplit("/", 1)[1]
    assert Invitation.objects.get().email == "bindu@example.org"
    assert not queued and not mail.outbox  # the link left for nowhere
    (line,) = [
        r.getMessage() for r in caplog.records if r.name == "tournament.ops.mail"
    ]
    assert line == (
        "mail not sent: no EMAIL_URL (1 recipient(s), subject 'Invitation: Spring "
        "Open')"
    )
    assert key[:8] not in caplog.text


@pytest.mark.django_db
def test_an_invitation_is_mailed_by_the_worker(
    organizer, sections, queued, django_capture_on_commit_callbacks
):
    desk = Client()
    desk.force_login(organizer)
    body = {"action": "invite", "invite-role": "scorer", "invite-days": 7}
    body |= {"invite-email": "bindu@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        page = desk.post(PEOPLE, body, follow=True).content.decode()
    assert "It is sent to bindu@example.org." in page
    assert not mail.outbox  # not by the request
    ((name, args),) = queued
    link = re.search(r'id="new-link"[^>]*value="([^"]+)"', page).group(1)
    assert name == "tournament.mail_send"
    assert args[0] == "Invitation: Spring Open" and link in args[1]
    assert args[2] == ["bindu@example.org"]
    mail_send.apply(args)  # the worker's part
    (sent,) = mail.outbox
    assert sent.to == ["bindu@example.org"] and link in sent.body


@pytest.mark.django_db
def test_a_reset_does_the_same_work_whether_or_not_the_address_has_an_account(
    owner, queued
):
    """The time an answer takes told whether an address has an account (5 ms
    apart): the request now makes the same queries and queues the same task for
    both, and the worker finds the account and makes its link."""
    done = {}
    for address in ("owner@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as queries:
            answer = Client(HTTP_ACCEPT_LANGUAGE="ml").post(RESET, {"email": address})
        assert answer.status_code == 302
        done[address] = [
            re.sub(r"'[^']*'|\b\d+\b", "?", query["sql"]) for query in queries
        ]
    assert done["owner@example.org"] == done["nobody@example.org"]
    assert not mail.outbox
    # The address, the site's host, whether it is HTTPS, the visitor's language.
    assert queued == [
        ("tournament.password_reset_mail", (address, "testserver", False, "ml"))
        for address in ("owner@example.org", "nobody@example.org")
    ]

    for _, args in queued:  # the worker's part
        password_reset_mail.apply(args)
    (sent,) = mail.outbox
    assert sent.to == ["owner@example.org"]
    assert "ഈ ലിങ്ക് തുറക്കുക:" in sent.body  # in the language the visitor asked in
    path = re.search(r"http://testserver(/accounts/password/reset/\S+)", sent.body)
    assert Client().get(path.group(1)).status_code == 302  # a working link


@pytest.mark.django_db
def test_with_mail_on_the_console_the_pages_say_where_it_is_not_that_it_was_sent(
    settings, organizer, sections, owner, django_capture_on_commit_callbacks
):
    """The embedded default (`make run`) prints mail in its terminal: the invitation
    and the reset pages say that it is there, never that it is on its way."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    desk = Client()
    desk.force_login(organizer)
    form = desk.get(PEOPLE).content.decode()
    assert "this site prints the mail to it in the terminal" in form
    assert "the link is sent there" not in form
    asked = Client().get(RESET).content.decode()
    assert "prints the mail with a link to choose a new password" in asked
    assert "is sent there" not in asked
    body = {"action": "invite", "invite-role": "scorer", "invite-days": 7}
    body |= {"invite-email": "bindu@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        page = desk.post(PEOPLE, body, follow=True).content.decode()
    assert "This site prints its mail in the terminal that runs it" in page
    assert "It is sent to" not in page
    reset = Client().post(RESET, {"email": "owner@example.org"}, follow=True)
    said = reset.content.decode()
    assert "its link to choose a new password is there" in said
    assert "is on its way" not in said
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    said = Client().get(reset.redirect_chain[-1][0]).content.decode()
    assert "is on its way" in said
