"""tabletop-rules: a rules-as-data interpreter for board and card games.

Data flows one way: YAML files are loaded (``interpreter.load``), checked
(``interpreter.check``), compiled (``interpreter.language``) into an immutable
``Ruleset``, which the engine runs.
"""

__version__ = "0.1.0"
