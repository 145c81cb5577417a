"""The built-in games by command-line name: where each one's state class lives.

A plain table, importing nothing: the registry (decklab.engine.registry) reads
it and imports a game's module only when that game is asked for, so the
registry and the games never import each other.
"""

GAMES: dict[str, str] = {
    "facade": "decklab.games.facade.state:FacadeState",
    "lonely-face": "decklab.games.lonely_face.state:LonelyFaceState",
    "cabin": "decklab.games.cabin.state:CabinState",
    "corporation": "decklab.games.corporation.state:CorporationState",
    "notorious": "decklab.games.notorious.state:NotoriousState",
}
