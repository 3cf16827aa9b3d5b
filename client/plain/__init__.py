"""The line mode (``neveryu play --plain``, ``neveryu join --plain``): the game as appended lines
and typed commands, for screen readers, braille displays, slow links and scripts.

It runs on the full-screen client's own layers: the network side (client/ui/net.py), the model
(client/ui/model.py), the controller's actions and refusals (client/ui/controller.py) and the
texts (client/ui/texts.py and its catalogue). The parts, one job each:

- ``words``: the texts as the line mode reads them: cards as words or codes, lines a speech
  synthesizer reads well, pages as lines;
- ``commands``: a typed line as a command (unique prefixes, short forms), cards and ranks;
- ``answers``: the questions (``hand``, ``pile``, ``who``, ``last``, ``time``, ``legal``,
  ``tables``...) answered in sentences;
- ``narrator``: what to say after each message: the log's new lines, chat, the turn, the timers;
- ``actions``: the commands that act (lay, calls, the lobby), each refusal in one line;
- ``session``: the loop: the connection, the input (a prompt, or lines from a pipe), the output;
- ``replay``: a recorded deal stepped through line by line.
"""

from __future__ import annotations
