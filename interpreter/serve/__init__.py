"""``rules serve``: a web table for any ruleset or mod, drawn from the rules.

``host.py`` holds the game, its seats and their keys, and the log; ``table.py``
builds what one seat's page is sent (from that seat's view only); ``protocol.py``
checks what pages send; ``app.py`` is the web app (Starlette: the page and one
WebSocket per open page). Needs the ``serve`` extra; ``cli/serve.py`` says so.
"""
