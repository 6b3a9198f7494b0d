"""Workbooks, with no Django in what writes them: typed text kept as text (`write`), an
uploaded workbook opened safely (`read`) within the site's limits (`uploads`)."""
