"""Every text of the terminal client, in English (``EN``) and Russian (``RU``), by key.

Keys are dotted: ``log.*`` the log's lines, ``why.*`` why only this now (moments.py), ``no.*`` why
a key did nothing, ``keys.*`` the key bar, ``form.*`` the new-table form, ``help.*`` the help
page. ``{name}`` and the like are filled in by texts.py; a key missing from ``RU`` falls back to
``EN``. Counted nouns (``n.*``) hold their forms split by ``|``: English one|many, Russian
one|few|many («1 карта | 2 карты | 5 карт»). The words are docs/RULES.md's vocabulary.

The texts are one module per language: ``strings_en`` and ``strings_ru``.
"""

from __future__ import annotations

from .strings_en import EN
from .strings_ru import RU

__all__ = ["EN", "RU"]
