"""CPU per frame of the Referee screen's video thread (`RefereeStream.on_frame` without its watcher thread),
moving and still, on real-dev rummy-5 (1000x750), with the code of the checkout ROOT.

    python onframe_cost.py ROOT
"""

import glob
import statistics
import sys
import time

import numpy as np


def main() -> None:
    root = sys.argv[1]
    sys.path.insert(0, root)
    import ui.referee as referee_ui
    from assistant.referee import Referee
    from vision.path import read_photo
    from vision.reader import load_reader

    assert referee_ui.__file__.startswith(root), referee_ui.__file__
    reader = load_reader()
    reading = read_photo(reader, glob.glob("/work/shared/real-dev/images/rummy-5_*.jpg")[0])
    frame = np.ascontiguousarray(reading.frame)
    stream = referee_ui.RefereeStream(reader, Referee(players=2), referee_id=1)
    stream.watcher.layout = reading.layout
    stream._worker = object()  # no watcher thread: only the video thread's own work is timed
    out = []
    for moving in (True, False):
        stream.moving = moving
        times = []
        for _ in range(80):
            started = time.process_time()
            shown = stream.on_frame(frame)
            times.append(time.process_time() - started)
        state = "moving" if moving else "still"
        out.append(f"{state} {1000 * statistics.median(times[10:]):.2f} ms {shown.shape}")
    print(root, "; ".join(out))


if __name__ == "__main__":
    main()
