"""The Streamlit app's screens (`table`, `turn`, `round`, `game`), what they share (`common`) and their
pure helpers (`helpers`). May import `assistant` and `vision`'s run-time path; only `app.py` imports `ui`."""
