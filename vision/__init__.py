"""From pixels to tiles: frame sources, detector, layout, drawing."""
