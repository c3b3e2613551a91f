"""The Streamlit app's screens (`table`, `turn`, `round`, `game`), what they share (`common`) and their pure
helpers (`helpers`); `app.py` is the entry that picks the screen.

May import `assistant` and `vision`'s run-time path, never `vision.training` or `vision.evaluation`; nothing
but `app.py` imports `ui`.
"""
