"""Trainers of the shipped models (detector, crop classifier), run by hand with the optional `train` extra.

May import the run-time path (`vision.*`), `datasets` and `assistant`.
Nothing a user runs (`app.py`, `rummi`) imports this package.
"""
