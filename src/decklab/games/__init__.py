"""The five games, one folder each, registered by their command-line names."""

from decklab.engine.registry import register

register("facade", "decklab.games.facade.state:FacadeState")
register("lonely-face", "decklab.games.lonely_face.state:LonelyFaceState")
register("cabin", "decklab.games.cabin.state:CabinState")
register("corporation", "decklab.games.corporation.state:CorporationState")
register("notorious", "decklab.games.notorious.state:NotoriousState")
