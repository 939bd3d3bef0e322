"""`gpukb check`: diagnose a customer's GPU Operator setup from its manifests.

documents (read files, keep lines) → readers (objects by kind) → facts (plain dicts) →
kb.engine.evaluate("check", facts) (rules/check/) → findings (located, cited) → render.
"""
