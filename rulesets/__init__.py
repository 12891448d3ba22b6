"""The bundled rulesets, installed with the package as ``tabletop_rulesets``.

Nothing here is code: each folder is a ruleset (``ruleset.yaml`` and its files). This
file only makes the folder a package, so that a normal ``pip install`` ships the
games and ``rules play rococo`` finds them (``interpreter/load/search.py``).
"""
