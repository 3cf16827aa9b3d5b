"""The full-screen terminal client (prompt-toolkit): ``model`` (a pure reducer of protocol
messages), ``controller`` (what keys mean), ``layout``, ``keys``, ``texts``, ``net`` (trio as a
guest on prompt-toolkit's loop), ``session`` (the session kept, for both faces of the client) and
``app`` (all of it together). Each of them that grew has parts named after it (``model_deal``,
``controller_actions``, ``layout_log``, ``net_link``...), one module a job."""
