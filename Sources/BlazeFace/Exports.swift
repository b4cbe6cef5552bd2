// Images, pixel formats, orientations and geometry are BlazeImaging's; `import BlazeFace` brings them along.
@_exported import BlazeImaging
