"""Every model of the tournament app, named here so that Django finds them and
`tournament.models` names each: this module only re-exports (docs/architecture.md).
The league's draws, rounds and byes and the desk's announcements are scoring's
(scoring/models/league.py)."""

from .accounts import (
    Invitation,
    LanguagePreference,
    OneTimeLink,
    PasswordResetRequest,
    SiteInvitation,
    SiteRole,
)
from .backups import Backup, BackupScope, SheetCopy
from .links import Link, LinkKind
from .persons import NamesakeSuggestion, Person, PersonChange, Seat
from .tournaments import (
    ROLE_CHOICES,
    STATUS_CHOICES,
    SUBSTITUTIONS_MAX,
    Membership,
    Player,
    Section,
    Substitution,
    Team,
    Tournament,
    account,
    site_time_zone,
    someone,
)

__all__ = [
    "ROLE_CHOICES",
    "STATUS_CHOICES",
    "SUBSTITUTIONS_MAX",
    "Backup",
    "BackupScope",
    "Invitation",
    "LanguagePreference",
    "Link",
    "LinkKind",
    "Membership",
    "NamesakeSuggestion",
    "OneTimeLink",
    "PasswordResetRequest",
    "Person",
    "PersonChange",
    "Player",
    "Seat",
    "Section",
    "SheetCopy",
    "SiteInvitation",
    "SiteRole",
    "Substitution",
    "Team",
    "Tournament",
    "account",
    "site_time_zone",
    "someone",
]
