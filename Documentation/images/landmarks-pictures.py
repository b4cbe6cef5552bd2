"""The pictures of Documentation/Landmarks.md. Needs numpy and Pillow.

    python3 Documentation/images/landmarks-pictures.py group Models/samples/astronaut.png group.png
    swift run -c release blazeface landmarks Models/samples/astronaut.png group.png --annotate annotated
    python3 Documentation/images/landmarks-pictures.py publish annotated Documentation

`group` builds the group picture: the astronaut sample's head and shoulders at eight sizes, the face from
about 260 down to 22 pixels wide, on a 1280x720 canvas. `publish` turns the annotated PNGs into the
documentation's: a 2x enlarged crop of the astronaut's face, the group picture at 960x540, both reduced to
256 colours to stay small.
"""
import os
import sys

import numpy as np
from PIL import Image

# The head and shoulders (columns 125..325, rows 30..260 of the sample; the face is about 95 pixels wide).
CROP = (125, 30, 325, 260)
# (face width in pixels, x, y of the copy's top-left corner)
LAYOUT = [(260, 0, 60), (180, 560, 0), (130, 950, 0), (90, 560, 450), (64, 770, 460), (45, 920, 480),
          (32, 1030, 500), (22, 1110, 510)]


def group(source: str, target: str) -> None:
    astronaut = Image.open(source).convert("RGB")
    shade = np.linspace(150, 90, 720, dtype=np.float32)[:, None, None] * np.ones((1, 1280, 3), np.float32)
    canvas = Image.fromarray(shade.astype(np.uint8), "RGB")
    head = astronaut.crop(CROP)
    for face, x, y in LAYOUT:
        scale = face / 95
        canvas.paste(head.resize((round(head.width * scale), round(head.height * scale)), Image.LANCZOS), (x, y))
    canvas.save(target)


def publish(annotated: str, target: str) -> None:
    def save(image: Image.Image, name: str) -> None:
        image.quantize(256, method=Image.Quantize.MEDIANCUT).save(os.path.join(target, name), optimize=True)

    face = Image.open(os.path.join(annotated, "astronaut.png")).convert("RGB").crop((120, 20, 340, 240))
    save(face.resize((440, 440), Image.NEAREST), "landmarks-astronaut.png")
    crowd = Image.open(os.path.join(annotated, "group.png")).convert("RGB")
    save(crowd.resize((960, 540), Image.LANCZOS), "landmarks-group.png")


if __name__ == "__main__":
    {"group": group, "publish": publish}[sys.argv[1]](sys.argv[2], sys.argv[3])
