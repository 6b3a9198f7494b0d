"""Opening an uploaded workbook: every hostile shape refused before it can cost the
server, with the limit in words; real files, the largest included, read as before."""

import io
import tracemalloc
import zipfile
import zlib

import openpyxl
import pytest
from defusedxml import DTDForbidden, EntitiesForbidden

from scoring.excel import paper
from tests import hostile_xlsx as hostile
from tests.spreadsheets import team_list_xlsx
from tournament.xlsx.read import (
    MB,
    XlsxLimits,
    XlsxRefused,
    archive_check,
    sheet_rows,
    workbook_open,
)

LIMITS = XlsxLimits()


def _read_all(content: bytes, limits: XlsxLimits = LIMITS) -> list[list[tuple]]:
    with workbook_open(content, limits) as workbook:
        return [list(sheet_rows(ws, limits)) for ws in workbook.worksheets]


@pytest.fixture
def no_openpyxl(monkeypatch):
    """openpyxl must not be asked to parse the file at all."""

    def refused(*args, **kwargs):
        raise AssertionError("openpyxl was given a hostile file")

    monkeypatch.setattr(openpyxl, "load_workbook", refused)


@pytest.mark.parametrize(
    ("build", "code", "words"),
    [
        (
            hostile.strings_bomb,
            "unpacks_too_large",
            "the file unpacks to more than 48 MB",
        ),
        (
            hostile.limit_bomb,
            "unpacks_too_large",
            "the file unpacks to more than 48 MB",
        ),
        (hostile.deep_xml, "xml_too_deep", "nests deeper than 64 levels"),
        (hostile.external_entity, "xml_declarations", "declares a DTD or entities"),
        (hostile.laughs, "xml_declarations", "declares a DTD or entities"),
        (hostile.lying_size, "damaged", "xl/worksheets/sheet1.xml cannot be read"),
        (hostile.many_parts, "too_many_parts", "more than 2,000 parts"),
        (hostile.many_worksheets, "too_many_worksheets", "more than 500 worksheets"),
    ],
)
def test_a_hostile_archive_is_refused_before_openpyxl_sees_it(
    no_openpyxl, build, code, words
):
    content = build()
    tracemalloc.start()
    with pytest.raises(XlsxRefused) as refused:
        _read_all(content)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert refused.value.code == code
    assert words in refused.value.message
    assert peak < 5 * MB  # nothing of what it unpacks to was held


@pytest.mark.parametrize(
    ("build", "code", "words"),
    [
        (
            hostile.dimension_bomb,
            "too_large_a_worksheet",
            "the worksheet 'Teams' declares 1,048,576 rows and 16,384 columns",
        ),
        (
            hostile.empty_rows_bomb,
            "too_many_rows",
            "the worksheet 'Teams' goes on past row 10,000 (blank rows count)",
        ),
        (
            hostile.wide_row,
            "too_many_columns",
            "row 3 of the worksheet 'Teams' reaches past column 100",
        ),
        (
            hostile.long_cell,
            "cell_too_long",
            "(row 2, column 1) holds more than 32,767 characters",
        ),
    ],
)
def test_a_hostile_worksheet_is_refused_while_it_is_read(build, code, words):
    content = build()
    tracemalloc.start()
    with pytest.raises(XlsxRefused) as refused:
        _read_all(content)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert (refused.value.code, words in refused.value.message) == (code, True)
    assert peak < 20 * MB


def test_each_limit_is_the_one_given():
    small = XlsxLimits(rows=3, columns=4, cell=5)
    rows = [["Edison Aces", "Jose", "Edison", "NJ", "USA"]]
    content = team_list_xlsx(rows).getvalue()
    with pytest.raises(XlsxRefused, match="declares 2 rows and 7 columns; a work"):
        _read_all(content, small)  # the dimension openpyxl wrote
    wide_enough = XlsxLimits(columns=7, cell=5)
    with pytest.raises(XlsxRefused, match=r"\(row 1, column 2\) holds more than 5 "):
        _read_all(content, wide_enough)  # "Captain"
    with pytest.raises(XlsxRefused, match="the file is larger than"):
        archive_check(content, XlsxLimits(upload=len(content) - 1))
    archive_check(content, XlsxLimits(upload=len(content)))
    many = team_list_xlsx(rows * 5).getvalue()
    with pytest.raises(XlsxRefused, match="declares 6 rows"):
        _read_all(many, XlsxLimits(rows=5))
    assert len(_read_all(many, XlsxLimits(rows=6))[0]) == 6
    # Without a declared dimension, the rows are counted as they come.
    undeclared = hostile.empty_rows_bomb()
    with pytest.raises(XlsxRefused, match="goes on past row 500 "):
        _read_all(undeclared, XlsxLimits(rows=500))


def test_a_file_over_the_upload_limit_is_refused_by_its_size():
    with pytest.raises(XlsxRefused, match="the file is larger than 5 MB") as refused:
        archive_check(b"PK" + b"\0" * (5 * MB), LIMITS)
    assert refused.value.code == "file_too_large"


def test_a_part_compressed_past_the_ratio_is_refused():
    # 40 MB of one letter: within the sizes, but a thousand to one.
    part = hostile.bomb(b"<worksheet>", b"D", b"</worksheet>", unpacked=12 * MB)
    content = hostile.with_named({hostile.SHEET: part})
    with pytest.raises(XlsxRefused, match="is compressed more than 100 to 1"):
        archive_check(content, LIMITS)


def test_a_part_past_its_own_limit_is_refused_with_its_name():
    part = hostile.bomb(b"<worksheet>", b"E", b"</worksheet>", unpacked=3 * MB)
    content = hostile.with_named({hostile.SHEET: part})
    with pytest.raises(XlsxRefused, match=r"\(xl/worksheets/sheet1.xml\) unpacks to"):
        archive_check(content, XlsxLimits(part=2 * MB, ratio=10_000))


def test_too_many_shared_strings_are_refused():
    strings = "".join(f"<si><t>{n}</t></si>" for n in range(11))
    content = hostile.with_named(
        {hostile.SHARED: f"<sst {hostile.MAIN}>{strings}</sst>".encode()}
    )
    with pytest.raises(XlsxRefused, match="more than 10 shared strings"):
        archive_check(content, XlsxLimits(strings=10))
    archive_check(content, XlsxLimits(strings=11))


def test_not_a_zip_and_a_broken_zip_are_refused_as_such():
    with pytest.raises(XlsxRefused, match=r"not an \.xlsx workbook"):
        _read_all(b"Team,Captain\nA,B\n")
    good = team_list_xlsx(hostile.TEAMS).getvalue()
    with pytest.raises(XlsxRefused, match=r"not an \.xlsx workbook"):
        _read_all(good[: len(good) // 2])


def test_the_bombs_are_real():
    """What the guard refuses would unpack to what it says, CRC and all: streamed
    here for the 122 MB ones, sampled for the 5 GB one."""
    for build in (hostile.strings_bomb, hostile.many_strings_bomb):
        with zipfile.ZipFile(io.BytesIO(build())) as archive:
            info = archive.getinfo(hostile.SHARED)
            total = 0
            with archive.open(info) as stream:  # zipfile checks the CRC at the end
                while chunk := stream.read(4 * MB):
                    total += len(chunk)
            assert total == info.file_size > 120 * MB
    limit = hostile.limit_bomb()
    with zipfile.ZipFile(io.BytesIO(limit)) as archive:
        unpacked = sum(i.file_size for i in archive.infolist())
        with archive.open(hostile.SHEET) as stream:
            assert stream.read(20 * MB).count(b"B") > 19 * MB
    assert len(limit) <= 5 * MB and unpacked > 900 * len(limit)


def test_crc32_combine_is_zlibs():
    for a, b in [(b"", b"x"), (b"56", b"card game"), (b"a" * 1000, b"b" * 70_000)]:
        combined = hostile.crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b))
        assert combined == zlib.crc32(a + b)


def test_openpyxl_itself_never_expands_an_entity():
    """Behind the guard, openpyxl parses with defusedxml: an external entity naming a
    file of the server is refused, not read, even if the guard were gone."""
    assert openpyxl.DEFUSEDXML is True
    for content in (hostile.external_entity(), hostile.laughs()):
        with pytest.raises(ValueError, match="could not read strings") as refused:
            openpyxl.load_workbook(io.BytesIO(content), read_only=True)
        assert isinstance(refused.value.__cause__, EntitiesForbidden | DTDForbidden)


def test_the_largest_real_files_pass():
    """A 2,000-team list, and a round of 250 paper score sheets."""
    rows = [
        [f"Team {n}", f"Captain {n}", "Edison", "NJ", "USA", f"P{n}b", f"P{n}c"]
        for n in range(2000)
    ]
    read = _read_all(team_list_xlsx(rows).getvalue())
    assert len(read[0]) == 2001 and read[0][2000][0] == "Team 1999"
    sheets = [
        (
            paper.MatchHeading(
                "Kerala International", 1000 + n, 3, "league", 4, n + 1, "A", "B", 18
            ),
            [],
            [],
        )
        for n in range(250)
    ]
    with workbook_open(paper.score_sheet_build(sheets), LIMITS) as workbook:
        assert len(workbook.worksheets) == 250
        assert all(
            len(list(sheet_rows(ws, LIMITS))) < 100 for ws in workbook.worksheets
        )
