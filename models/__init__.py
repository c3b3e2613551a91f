"""Shipped model weights (ONNX) and their model card; no code.

Imports nothing; `vision.onnx_models` loads the files from here.
"""
