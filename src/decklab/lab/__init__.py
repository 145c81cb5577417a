"""The lab: measuring agents against each other, honestly.

``arena`` plays duplicate deals (every deal in every seat rotation) in worker
processes and reports win rates and scores with intervals, Bradley–Terry
ratings and an optional SPRT; ``commands`` adds ``decklab bots`` and
``decklab arena`` to the command line. Like every layer above the games, it
knows a game only through the generic interface.
"""
