"""Documentation drift: fetch the watched NVIDIA documents, extract what the catalog relies on, compare.

fetch.py (httpx, cache) → extractors/<kind>.py (text → plain data) → compare.py (→ changes)
→ check.py (one run over the watched sources) → report.py (Markdown / JSON).
"""
