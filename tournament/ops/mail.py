"""Mail: invitations and password resets (docs/people.md, "Mail"), sent by the worker
and never written whole into a log (docs/security.md, "Logs").

- With EMAIL_URL set, a request only queues its mail (tournament/ops/queue.py) and the
  worker sends it: a slow mail server holds no web worker, and a password reset
  answers as fast for an address that has an account as for one that has none,
  since the worker, not the request, looks the account up and makes its link.
- Production with no EMAIL_URL (DJANGO_DEBUG false) has no mail: `NotSent` writes
  one log line a message, its subject and how many it was for, never its body,
  which holds the link; nothing is queued, so no link leaves the request either.
  The pages that would mail say so: an invitation's link is shown to the one who
  made it, to hand over; the password reset page says to ask a site administrator.
- The embedded default (DEBUG on, `make run`) prints each mail whole on the console,
  its link to follow, and does not cut it: that console is one person's own
  machine, and following the link is how an invitation or a reset is tried there.
  Production never falls back to it (tournament/config/settings.py).
"""

from __future__ import annotations

import logging
from functools import partial

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from tournament.ops.queue import task_send_on_commit

NOT_SENT = "tournament.ops.mail.NotSent"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
logger = logging.getLogger(__name__)


class NotSent(BaseEmailBackend):
    """The mail backend of a production site with no EMAIL_URL: sends nothing, and
    says so in one line a message, without its body."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            logger.warning(
                "mail not sent: no EMAIL_URL (%s recipient(s), subject %r)",
                len(message.recipients()),
                message.subject,
            )
        return 0


def mail_works() -> bool:
    """Whether this site sends mail (else its pages say that nothing is sent)."""
    return settings.EMAIL_BACKEND != NOT_SENT


def mail_on_console() -> bool:
    """Whether this site prints its mail on its console instead of sending it (the
    embedded default): its pages say where the mail is, not that it is on its way."""
    return settings.EMAIL_BACKEND == CONSOLE


# An invitation form's e-mail field, on a site with no mail.
ADDRESS_KEPT_ONLY = gettext_lazy(
    "This site sends no e-mail: the address is only kept with the invitation"
)
# The same, on a site that prints its mail on its console.
ADDRESS_ON_CONSOLE = gettext_lazy(
    "Optional: this site prints the mail to it in the terminal that runs the site, "
    "without sending it"
)


def invitation_address_help() -> str | None:
    """An invitation form's words under its e-mail field where the site does not
    send mail (None: the field's own, that the link is sent there)."""
    if mail_on_console():
        return str(ADDRESS_ON_CONSOLE)
    if not mail_works():
        return str(ADDRESS_KEPT_ONLY)
    return None


def invitation_sent_words(address: str) -> str:
    """What an invitation page says of the mail of a new invitation to `address`."""
    if mail_on_console():
        return gettext(
            "This site prints its mail in the terminal that runs it, without sending "
            "it: the mail to %(email)s is there; hand the link over yourself."
        ) % {"email": address}
    if mail_works():
        return gettext("It is sent to %(email)s.") % {"email": address}
    return gettext(
        "This site sends no e-mail: nothing was sent to %(email)s; hand the link "
        "over yourself."
    ) % {"email": address}


@shared_task(name="tournament.mail_send", ignore_result=True)
def mail_send(subject: str, body: str, to: list[str]) -> None:
    """Send one plain-text mail, from DEFAULT_FROM_EMAIL."""
    send_mail(subject, body, None, to)


def mail_send_on_commit(*, subject: str, body: str, to: list[str], missed: str) -> None:
    """Have the worker send a mail once the transaction commits; with no mail on the
    site, write its "not sent" line here instead (the body never leaves)."""
    if not mail_works():
        transaction.on_commit(partial(send_mail, subject, body, None, to))
        return
    task_send_on_commit(mail_send, subject, body, to, missed=missed)
