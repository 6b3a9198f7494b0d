"""What a backup file may be before it is parsed (docs/backups.md, "Hostile files"):
its nesting counted by one scan (checked here against json's own reading of every
kind of value), its inflation measured in bounded steps, for a tournament's file and
the whole site's, on the command line as on the pages."""

from __future__ import annotations

import gzip
import json
import time
import tracemalloc
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.brackets.knockout import final_league
from tests.hostile_gzip import deep_line, gzip_bomb
from tests.hostile_xlsx import MB
from tournament.backups import archive, services, site
from tournament.backups.archive import BackupRefused, nests_deeper
from tournament.models import Tournament


def depth_of(value) -> int:
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    return 0


# Strings full of what could fool a scan: brackets, quotes, backslashes, escapes.
tricky = st.text(alphabet=st.sampled_from('[]{}"\\/ \nabcé\u0d15'), max_size=12)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(tricky, inner, max_size=4)
    ),
    max_leaves=60,
)


@settings(max_examples=400, deadline=None)
@given(values, st.booleans(), st.integers(0, 12))
def test_the_nesting_scan_agrees_with_json_on_every_value(value, ascii, limit):
    text = json.dumps(value, ensure_ascii=ascii).encode()
    assert json.loads(text) == value
    assert nests_deeper(text, limit) == (depth_of(value) > limit)


@given(st.integers(1, 300), st.integers(1, 80), st.integers(0, 90))
def test_deep_chains_side_by_side_are_counted(depth, times, limit):
    """Many chains of one depth: where the passes take out little, the runs count."""
    text = (b"[" * depth + b"]" * depth) * times
    assert nests_deeper(b"[" + text + b"]", limit) == (depth + 1 > limit)


def test_a_text_json_refuses_is_never_said_shallower_than_json_reads_it():
    assert nests_deeper(b"[" * 200_000, 64)  # never closed
    assert nests_deeper(b"[" * 65 + b"]]]]", 64)  # closed too often
    assert nests_deeper(b'"never closed' + b"[" * 100, 64) is False  # inside a string
    assert not nests_deeper(b'["\\\\", "\\"[[[[[", {"a": "]"}]', 2)
    assert nests_deeper(b'["\\\\", ["x"]]', 1)


def test_a_file_nested_200000_deep_is_refused_before_json_reads_it():
    with pytest.raises(BackupRefused, match="line 1 nests its brackets more than 64"):
        archive.file_read(deep_line())


@pytest.mark.django_db
def test_a_deep_line_behind_a_good_header_and_checksum_is_refused(settings):
    tournament, _ = final_league(2, 3, qualifiers=2, slug="deep-cup")
    content = services.backup_content(
        services.backup_take(tournament=tournament, reason="test")
    )
    head, _, _ = gzip.decompress(content).partition(b"\n")
    deep = b'{"tables": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    header = json.loads(head)
    header.update(
        lines=1,
        sha256=__import__("hashlib")
        .sha256((archive.digest(deep) + "\n").encode())
        .hexdigest(),
    )
    hostile = gzip.compress(json.dumps(header).encode() + b"\n" + deep + b"\n")
    with pytest.raises(BackupRefused, match="line 2 nests its brackets more than 64"):
        services.tournament_import(content=hostile, slug="deep-copy")
    settings.BACKUP_MAX_DEPTH = 100_001  # without the scan: json's RecursionError
    with pytest.raises(RecursionError):
        services.tournament_import(content=hostile, slug="deep-copy")
    assert not Tournament.objects.filter(slug="deep-copy").exists()


def test_a_bomb_is_refused_once_past_the_limit_holding_one_step():
    """The issue's file: 610 KB inflating to 600 MB. Refused at the pages' limit
    having held about one step (1 MB) of it: figures printed, memory asserted."""
    bomb = gzip_bomb(600 * MB)
    assert len(bomb) < 640 * 1024
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(BackupRefused) as refused:
        archive.file_read(bomb, setting="BACKUP_IMPORT_MAX_BYTES")
    took = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"\nbomb of {len(bomb)} bytes refused in {took:.3f} s, peak {peak / MB:.1f} MB"
    )
    assert str(refused.value) == (
        "the file inflates to more than 128 MB of text, the most a backup may hold "
        "here (BACKUP_IMPORT_MAX_BYTES)."
    )
    assert peak < 8 * MB


def test_the_steps_read_every_member_and_refuse_what_is_not_whole():
    members = gzip.compress(b"one\n") + gzip.compress(b"two\n" * 300_000)
    assert archive._inflate(members, 2 * MB) == b"one\n" + b"two\n" * 300_000
    with pytest.raises(BackupRefused, match="more than 1 MB"):
        archive._inflate(members, MB)
    with pytest.raises(BackupRefused, match="ends in the middle"):
        archive._inflate(members[:-5], 2 * MB)
    with pytest.raises(BackupRefused, match="not gzip-compressed"):
        archive._inflate(members + b"PK", 2 * MB)
    assert archive._inflate(b"", MB) == b""


@pytest.mark.django_db
def test_the_command_line_refuses_hostile_files_of_a_tournament_and_of_the_site(
    tmp_path, settings
):
    final_league(2, 3, qualifiers=2, slug="safe-cup")
    deep, bomb = tmp_path / "deep.json.gz", tmp_path / "bomb.json.gz"
    deep.write_bytes(deep_line())
    bomb.write_bytes(gzip_bomb(600 * MB))
    with pytest.raises(CommandError, match="line 1 nests its brackets more than 64"):
        call_command("restore", "--tournament", "safe-cup", deep, yes=True)
    with pytest.raises(CommandError, match=r"more than 512 MB .*BACKUP_MAX_BYTES"):
        call_command("restore", "--tournament", "safe-cup", bomb, yes=True)
    with pytest.raises(CommandError, match="nests its brackets more than 64 deep"):
        call_command("restore", deep, yes=True, stdout=StringIO())
    settings.BACKUP_SITE_MAX_BYTES = 256 * MB
    with pytest.raises(
        CommandError, match=r"more than 256 MB of text.*BACKUP_SITE_MAX_BYTES"
    ):
        call_command("restore", bomb, yes=True, stdout=StringIO())


@pytest.mark.django_db
def test_real_backups_nest_far_below_the_limit(tmp_path):
    """The documented figure: about 6 deep, a tenth of BACKUP_MAX_DEPTH."""
    tournament, _ = final_league(2, 3, qualifiers=2, slug="real-cup")
    content = services.backup_content(
        services.backup_take(tournament=tournament, reason="test")
    )
    for line in gzip.decompress(content).split(b"\n"):
        assert not nests_deeper(line, 7)
    path = tmp_path / "site.json.gz"
    site.backup_write(reason="test", path=path)
    assert not nests_deeper(gzip.decompress(path.read_bytes()), 7)
    assert site.backup_read(path)["format"] == site.FORMAT
