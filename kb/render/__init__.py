"""Renderers shared by the CLI and the site: plain data → text / JSON-ready dicts."""
