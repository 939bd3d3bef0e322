"""gpukb: facts about sharing NVIDIA GPUs in Kubernetes, with proof."""

from pathlib import Path

__version__ = "0.1.0"

#: The repository root (the package is installed editable from it).
ROOT = Path(__file__).resolve().parent.parent
