"""The pictures of Documentation/Segmentation.md, from `blazeface segment`'s outputs. Needs Pillow.

    B="swift run -c release blazeface segment"
    $B Models/samples/astronaut.png Models/samples/camera.png --mask-dir masks --background white --out white
    $B Models/samples/astronaut.png --background blur --out blur
    $B Models/samples/camera.png --background '#3A6EA5' --out blue
    $B Models/samples/astronaut.png Models/samples/camera.png --background Models/samples/rocket.jpg --out rocket
    python3 Documentation/images/segmentation-pictures.py . Documentation

Lays the outputs side by side, each reduced to 256x256 with Pillow's Lanczos filter and the whole reduced to 256
colours to stay small: segmentation-astronaut.png (the astronaut, her mask, white and blur behind her) and
segmentation-background.png (the cameraman, his mask, a colour and a picture behind him, the picture behind the
astronaut).
"""
import os
import sys

from PIL import Image


def strip(paths: list[str]) -> Image.Image:
    out = Image.new("RGB", (256 * len(paths), 256), "white")
    for i, path in enumerate(paths):
        out.paste(Image.open(path).convert("RGB").resize((256, 256), Image.LANCZOS), (i * 256, 0))
    return out


def publish(outputs: str, target: str) -> None:
    def save(image: Image.Image, name: str) -> None:
        image.quantize(256, method=Image.Quantize.MEDIANCUT).save(os.path.join(target, name), optimize=True)

    def at(folder: str, name: str) -> str:
        return os.path.join(outputs, folder, name)

    samples = os.path.join("Models", "samples")
    save(strip([os.path.join(samples, "astronaut.png"), at("masks", "astronaut.png"), at("white", "astronaut.png"),
                at("blur", "astronaut.png")]), "segmentation-astronaut.png")
    save(strip([os.path.join(samples, "camera.png"), at("masks", "camera.png"), at("blue", "camera.png"),
                at("rocket", "camera.png"), at("rocket", "astronaut.png")]), "segmentation-background.png")


if __name__ == "__main__":
    publish(sys.argv[1], sys.argv[2])
