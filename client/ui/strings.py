"""Every text of the terminal client, in English (``EN``) and Russian (``RU``), by key.

Keys are dotted: ``log.*`` the log's lines, ``why.*`` why only this now (moments.py), ``no.*`` why
a key did nothing, ``keys.*`` the key bar, ``form.*`` the new-table form, ``help.*`` the help
page. ``{name}`` and the like are filled in by texts.py; a key missing from ``RU`` falls back to
``EN``. Counted nouns (``n.*``) hold their forms split by ``|``: English one|many, Russian
one|few|many («1 карта | 2 карты | 5 карт»); verbs (``v.*``) agreeing with a list of names, one|many
(«выиграл | выиграли»). The words are docs/RULES.md's vocabulary.

The texts are two modules per language: ``strings_en`` and ``strings_ru`` (the screen's), and
``strings_en_log`` and ``strings_ru_log`` (the pages, the log, the recap, the notes at exit); the
line mode's own (client/plain/) are in ``strings_plain``, joined here.
"""

from __future__ import annotations

from .strings_en import EN as _EN
from .strings_en_log import EN_LOG
from .strings_plain import PLAIN_EN, PLAIN_RU
from .strings_ru import RU as _RU
from .strings_ru_log import RU_LOG

EN = {**_EN, **EN_LOG, **PLAIN_EN}
RU = {**_RU, **RU_LOG, **PLAIN_RU}

__all__ = ["EN", "RU"]
