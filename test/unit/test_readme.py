"""The README stays what a newcomer needs: at most 150 lines, every page of docs/ in its Docs
table, every file it links to present, no commit hashes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_readme_is_short():
    assert len(README.splitlines()) <= 150


def test_docs_table_lists_every_page():
    listed = set(re.findall(r"\]\((docs/[^)]+\.md)\)", README))
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert pages <= listed, f"pages missing from the README's Docs table: {sorted(pages - listed)}"


def test_links_resolve():
    for target in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / target).exists(), target


def test_no_commit_hashes():
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", README)
