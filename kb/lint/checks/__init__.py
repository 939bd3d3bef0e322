"""One lint check per module. Each exposes CHECK (its id), TITLE and check(ctx) -> list[Problem]."""

CHECKS = ["sources", "aliases", "versions", "quotes", "citations", "rules", "known_issues", "files", "links", "jargon", "style", "translations"]
