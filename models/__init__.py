"""Shipped model weights (ONNX) and their model card."""
