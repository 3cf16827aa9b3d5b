"""Benchmarks of neveryu (``scripts/bench``; docs/BENCHMARKS.md).

One module per measurement: ``engine_speed`` (deals per second, one process), ``floor`` (a bare
trio server with the same framing), ``latency`` (the same measurement through the real server),
``capacity`` (N bot clients in a separate process, ``loadgen``), ``soak``; ``stats``,
``procstat``, ``wire``, ``client``, ``player`` and ``fanout`` are the shared helpers,
``__main__`` the command line (``runner``: one function per section), ``markdown`` turns a
``--json`` result into the tables of docs/BENCHMARKS.md, ``compare`` interleaves several servers.
"""
