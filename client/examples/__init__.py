"""Example bots: run one from the repository's root, e.g. ``python -m client.examples.random_bot``."""
