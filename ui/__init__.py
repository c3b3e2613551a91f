"""The Streamlit app's helpers (being split into screens and their subjects)."""
