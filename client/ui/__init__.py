"""The full-screen terminal client (prompt-toolkit): ``model`` (a pure reducer of protocol
messages), ``controller`` (what keys mean), ``layout``, ``keys``, ``texts``, ``net`` (trio as a
guest on prompt-toolkit's loop) and ``app`` (all of it together)."""
