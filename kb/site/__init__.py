"""Site generators: pure functions from plain catalog data (and engine answers) to Markdown.

Nothing here reads files or imports MkDocs; `kb/docs_hooks.py` calls these functions and writes
their output into `docs/generated/` before the build.
"""
