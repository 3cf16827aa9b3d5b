"""The server's records (docs/RECORDS.md) and what is kept beside them: the journal of live
tables and the players' statistics and ratings (docs/PLAYERS.md). The live server
(``neveryu.server``'s own modules) writes them through ``writer`` and serves them through
``history_requests`` and ``player_requests``; the public names are ``neveryu.server``'s."""
