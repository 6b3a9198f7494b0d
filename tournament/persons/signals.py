"""What a change of people or of played sheets tells the apps above (scoring's
ratings), in its transaction: the tournament layer may not import them
(docs/architecture.md)."""

from django.dispatch import Signal

# Sent when what every rating is made of changed at once: a merge or a split moved
# seats between people, a tournament was restored or imported. The ratings are
# computed again from the sheets, after the commit. Arguments: none.
ratings_stale = Signal()
