"""The conformance kit (docs/CONFORMANCE.md): a catalogue of cases, one data file each
(``catalogue``), run against a client by a scripted server (``scripted``, ``run_client``) or
against a server by a probe (``probe``), and reported as text, JSON or JUnit XML (``report``).
Frames are read and written with the protocol package only; ``seat`` keeps one seat's view."""
