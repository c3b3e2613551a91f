"""From pixels to tiles: the run-time path a frame takes (frames, reader, detections, crops, layout, racks,
correction, tracking, annotate) and the app's photos (`photos`); trainers in `training/`, measuring tools in
`evaluation/`.

May import `assistant`; never `ui`. The run-time path never imports `training` or `evaluation`.
"""
