"""Game logs (rules-log/1): writing them, and reading them back for replay."""
