"""Generator of rendered training scenes."""
