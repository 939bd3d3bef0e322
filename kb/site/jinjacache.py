"""Jinja bytecode kept in memory for the process (kb/docs_hooks.py on_env).

mkdocs makes a new jinja environment for every build, and mkdocs-static-i18n runs one build per language: the
theme's templates were compiled twice (≈ 0.3 s CPU each time). Both environments come from the same
`Theme.get_env` with the same options, so the compiled code is the same; jinja checks the source's checksum and
its own version before it uses cached code, so an edited template (`mkdocs serve`) is compiled again.
"""

from __future__ import annotations

from jinja2 import BytecodeCache


class MemoryBytecodeCache(BytecodeCache):
    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        raw = self.store.get(bucket.key)
        if raw is not None:
            bucket.bytecode_from_string(raw)  # ignored by jinja where the checksum or jinja's version differs

    def dump_bytecode(self, bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


SHARED = MemoryBytecodeCache()
