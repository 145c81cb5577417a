"""The lab: measuring agents and games, honestly and reproducibly.

``runner`` plays duplicate deals (every deal in every seat rotation) in batches
on one of several backends (in-process, local worker processes, Ray) and
streams the rows to Parquet; ``arena`` reports agents' win rates, ratings and
an optional SPRT on top of it; ``simulate``, ``sweep``, ``skill`` and ``tune``
run design experiments, ``metrics`` measures them (docs/metrics.md) and
``report`` writes a self-contained HTML page. ``commands`` and
``design_commands`` add them to the command line. Like every layer above the
games, it knows a game only through the generic interface and the hook
modules in the game's own folder.
"""
