// `import BlazeFaceMesh` brings the detector and the imaging types (ImageView, Point, RotatedRect) too.
@_exported import BlazeFace
