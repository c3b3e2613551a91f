"""A pinhole camera above the table: world to pixel projection and the table plane's homography.

World frame: x and y on the table, z up, units of one tile height (about 36 mm). Camera frame as in
OpenCV: x right, y down, z forward.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Camera:
    rotation: np.ndarray  # (3, 3) world -> camera
    center: np.ndarray  # (3,) camera position in world
    focal: float
    cx: float
    cy: float

    @classmethod
    def looking_at(
        cls,
        target: np.ndarray,
        distance: float,
        azimuth_deg: float,
        elevation_deg: float,
        roll_deg: float,
        focal: float,
        cx: float,
        cy: float,
    ) -> Camera:
        """A camera `distance` from `target`, on the side `azimuth_deg`, `elevation_deg` above the table.

        The far side of the table (seen from the camera) is at the top of the image before `roll_deg`.
        """
        a, e = np.radians(azimuth_deg), np.radians(elevation_deg)
        offset = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
        center = np.asarray(target, float) + distance * offset
        forward = -offset
        far = np.array([-np.cos(a), -np.sin(a), 0.0])
        up = far - forward * float(far @ forward)
        up /= np.linalg.norm(up)
        down = -up
        right = np.cross(down, forward)
        r = np.radians(roll_deg)
        right, down = (np.cos(r) * right + np.sin(r) * down, -np.sin(r) * right + np.cos(r) * down)
        rotation = np.stack([right, down, forward])
        return cls(rotation=rotation, center=center, focal=focal, cx=cx, cy=cy)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, float) - self.center) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) world points -> (n, 2) pixels. Points behind the camera get a huge coordinate."""
        pc = self.to_camera(points)
        z = np.maximum(pc[:, 2], 1e-6)
        return np.stack([self.focal * pc[:, 0] / z + self.cx, self.focal * pc[:, 1] / z + self.cy], axis=1)

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[:, 2]

    def table_homography(self) -> np.ndarray:
        """3x3 map from table-plane coordinates (x, y, with z = 0) to pixels."""
        k = np.array([[self.focal, 0, self.cx], [0, self.focal, self.cy], [0, 0, 1.0]])
        r = self.rotation
        t = -r @ self.center
        return k @ np.column_stack([r[:, 0], r[:, 1], t])

    def zoom_and_shift(self, scale: float, dx: float, dy: float) -> None:
        """Apply the image-space map p -> scale * p + (dx, dy) to all future projections."""
        self.focal *= scale
        self.cx = self.cx * scale + dx
        self.cy = self.cy * scale + dy
