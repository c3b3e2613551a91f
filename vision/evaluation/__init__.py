"""Measuring tools: reading on labelled photos and renders, crops, layout rebuilding against scene truth.

May import the run-time path (`vision.*`), `datasets` and `assistant`.
Nothing a user runs (`app.py`, `rummi`) imports this package.
"""
