"""One comparison per document kind: `compare(source, extracted, data) -> list[Change]` (plain catalog data)."""
