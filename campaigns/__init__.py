"""Harakiri campaign progression across chapters (the Adventure Phase issue).

A campaign will be its own stream driven by policies reacting to finished Exploration matches;
``games`` never imports this package (import-linter contract)."""
