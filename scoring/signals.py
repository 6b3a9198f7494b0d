"""What a score sheet tells the apps that build on it (brackets), inside the same
transaction. Apps depend one way (brackets -> scoring), so the sheet announces and the
bracket listens; a receiver that raises a ConflictError refuses the whole write.
"""

from django.dispatch import Signal

# Sent after a sheet locks (both captains, or an organizer, confirmed it).
# Arguments: match, user.
sheet_locked = Signal()

# Sent before a confirmed sheet is unlocked; a receiver may refuse by raising.
# Arguments: match, user, reason, reset_next (the organizer also resets the match the
# winner went on to).
sheet_reopening = Signal()

# Sent while the tournament workbook is built, for its Bracket sheet. Arguments:
# tournament. A receiver answers (rows, note): the rows in workbook.BRACKET_COLUMNS'
# order, and a line for the sheet's title block.
export_bracket = Signal()

# Sent by a single sheet's pages when its round holds more than one kind of match (the
# final's round holds the second runner-up match too), to name the sheet's own match.
# Arguments: match. A receiver answers the match's name as marked words ("Final,
# game 2", "Second runner-up match"), or None.
match_named = Signal()

# Sent by the venue screen once the knockout is seeded, for its bracket and podium
# views and the names of the final's sheets. Arguments: tournament. A receiver
# answers a domain.desk.ScreenBracket (plain values), or None before seeding.
screen_bracket = Signal()
