"""Generator of rendered training scenes (tiles on tables and racks) with exact labels.

May import `assistant` and `vision`'s data types (`vision.detections`); used by the trainers and the
evaluation tools, never by the app or `rummi`.
"""
