"""Errors of the rule engine (no durable import here: callers catch these without loading it)."""


class EngineError(RuntimeError):
    """The engine could not evaluate: a rule, an action or durable-rules itself failed."""
