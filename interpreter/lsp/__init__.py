"""``rules lsp``: a language server for ruleset YAML files (issue 16).

Editors start it over stdio. It runs the pipeline of ``rules validate`` on the
open, unsaved texts of the ruleset a file belongs to and publishes every problem
where it is, and it answers hover, completion, definition and references from the
names the ruleset declares and the primitives of the effect language. Needs the
``lsp`` extra (pygls); nothing else in the interpreter imports this package.
"""
