"""The statistics' words as the pages show them, in the visitor's language
(docs/glossary.md): the columns of the figures and the records' titles (the
penalties' names are in scoring/words.py). The pure module and the API name them in
English."""

from django.utils.translation import gettext_lazy

from ..domain import statistics as stats

FIGURE_COLUMNS = (
    (stats.SortKey.DECLARED, gettext_lazy("Declared")),
    (stats.SortKey.MADE, gettext_lazy("Made")),
    (stats.SortKey.DEFEATED, gettext_lazy("Defeated")),
    (stats.SortKey.MADE_PERCENT, gettext_lazy("Made %")),
    (stats.SortKey.AVERAGE_VALUE, gettext_lazy("Avg value")),
    # Contracts made doubled or redoubled, named as the workbook names them: under
    # 56 International a double adds to the stakes, it does not multiply them, so not
    # "×2", "×4" (issue 41).
    (stats.SortKey.DOUBLED_MADE, gettext_lazy("Doubled, made")),
    (stats.SortKey.REDOUBLED_MADE, gettext_lazy("Redoubled, made")),
    (stats.SortKey.MADE_56, gettext_lazy("56 made")),
)
# The records' titles as the pages show them (the pure module names them in English
# for the API and the workbook).
RECORD_TITLES = {
    stats.RecordKind.HIGHEST_MATCH_TOTAL: gettext_lazy("Highest match total"),
    stats.RecordKind.BIGGEST_MARGIN: gettext_lazy("Biggest winning margin"),
    stats.RecordKind.MOST_56_MADE: gettext_lazy("Most 56 contracts made by a player"),
    stats.RecordKind.MOST_56_MADE_TEAM: gettext_lazy(
        "Most 56 contracts made by a team"
    ),
    stats.RecordKind.LONGEST_RUN: gettext_lazy("Longest run of contracts made"),
}
