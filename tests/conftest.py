"""Shared by every test: the server checks the wire types of every message it sends (it does
not in production; server/_connection.py, ``CHECK_SENT``). Set here, at import, so servers the
tests start in this process or in a child process both do."""

import os

os.environ["NEVERYU_CHECK_SENT"] = "1"
