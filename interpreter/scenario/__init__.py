"""Scenario tests written as YAML: set up a position, act, expect outcomes.

``load`` reads and checks a scenario file, ``run`` plays its scenarios against the
engine's sandbox. Nothing here knows a game: every name comes from the file and is
checked against the ruleset it names.
"""
