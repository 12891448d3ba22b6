"""The engine: game state, decisions, chance and views, driven by a ruleset."""
